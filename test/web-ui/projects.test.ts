// The web UI's project pickers and project settings page, and what incident and case tables read of
// a project (reference/dispatch-ui.md): display names, enabled projects, and self-join.
import { describe, expect, it } from 'vitest';
import { call } from '../helpers.ts';
import { api, useWorld } from '../worlds/incidents.ts';
import { tableQuery } from './queries.ts';

const w = useWorld();
const projects = (query: Record<string, any>, token = w.member) => call(w.t.app, 'GET', '/default/projects', { token, query });
const create = (body: Record<string, unknown>, token = w.owner) =>
  call(w.t.app, 'POST', '/default/projects', { token, body: { organization: { name: 'default' }, ...body } });

describe('projects', () => {
  it('read display_name, enabled and allow_self_join, with defaults: the name, true, true', async () => {
    const plain = await create({ name: 'Blue Team' });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ name: 'Blue Team', display_name: 'Blue Team', enabled: true, allow_self_join: true });
    const named = await create({ name: 'red-team', display_name: 'Red Team', enabled: false, allow_self_join: false });
    expect(named.body).toMatchObject({ name: 'red-team', display_name: 'Red Team', enabled: false, allow_self_join: false });
    expect((await call(w.t.app, 'GET', `/default/projects/${named.body.id}`, { token: w.member })).body).toMatchObject({
      display_name: 'Red Team',
      enabled: false,
      allow_self_join: false,
    });
    // Null, as Dispatch's nullable fields take it, is the default.
    const nulls = await create({ name: 'Nulls', display_name: null, enabled: null, allow_self_join: null });
    expect(nulls.body).toMatchObject({ display_name: 'Nulls', enabled: true, allow_self_join: true });
    expect((await create({ name: 'Bad', enabled: 'sometimes' })).status).toBe(422);
  });

  it('update them as the settings page sends the whole read object back; omitted fields keep their values', async () => {
    const p = (await create({ name: 'Green Team', display_name: 'Green' })).body;
    const upd = await call(w.t.app, 'PUT', `/default/projects/${p.id}`, { token: w.owner, body: { ...p, enabled: false, allow_self_join: false } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ display_name: 'Green', enabled: false, allow_self_join: false });
    const partial = await call(w.t.app, 'PUT', `/default/projects/${p.id}`, { token: w.owner, body: { name: 'Green Team', description: 'Lawns' } });
    expect(partial.body).toMatchObject({ display_name: 'Green', enabled: false, allow_self_join: false, description: 'Lawns' });
    // An empty display name shows the name.
    const emptied = await call(w.t.app, 'PUT', `/default/projects/${p.id}`, { token: w.owner, body: { name: 'Green Team', display_name: '' } });
    expect(emptied.body.display_name).toBe('Green Team');
    expect((await call(w.t.app, 'PUT', `/default/projects/${p.id}`, { token: w.member, body: { name: 'Green Team', enabled: true } })).status).toBe(403);
  });

  it('sort by display_name for the pickers (GET projects?sortBy[]=display_name)', async () => {
    await create({ name: 'zz-last', display_name: 'AAA First' });
    const res = await projects({ itemsPerPage: 50, 'sortBy[]': 'display_name', 'descending[]': false });
    expect(res.status).toBe(200);
    const shown = res.body.items.map((p: { display_name: string }) => p.display_name);
    expect(shown[0]).toBe('AAA First');
    expect(shown).toEqual([...shown].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('filter on enabled as the report forms send it (a string "true", no model) and on allow_self_join', async () => {
    const disabled = (await create({ name: 'Retired', enabled: false })).body;
    for (const leaf of [
      { model: 'Project', field: 'enabled', op: '==', value: 'true' },
      { field: 'enabled', op: '==', value: true },
    ]) {
      const res = await projects({ itemsPerPage: -1, filter: JSON.stringify({ and: [leaf] }), 'sortBy[]': 'display_name', 'descending[]': false });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeGreaterThan(0);
      expect(res.body.items.every((p: { enabled: boolean }) => p.enabled)).toBe(true);
      expect(res.body.items.map((p: { id: number }) => p.id)).not.toContain(disabled.id);
    }
    const closed = await projects({ itemsPerPage: -1, filter: JSON.stringify([{ field: 'allow_self_join', op: '==', value: 'false' }]) });
    expect(closed.body.items.every((p: { allow_self_join: boolean }) => !p.allow_self_join)).toBe(true);
    // A field no list knows is still refused.
    expect((await projects({ filter: JSON.stringify([{ field: 'archived', op: '==', value: 'true' }]) })).status).toBe(422);
  });
});

describe('incident rows and self-join', () => {
  it("show the project's display name and allow_self_join in the incidents table the UI loads", async () => {
    const p = (await create({ name: 'Table Team', display_name: 'Table' })).body;
    const i = api(w);
    const made = await i.create({ project: { id: p.id } });
    expect(made.status).toBe(200);
    const res = await call(w.t.app, 'GET', '/default/incidents', {
      token: w.member,
      query: tableQuery({ field: 'id', value: p.id }),
    });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0].project).toMatchObject({ id: p.id, name: 'Table Team', display_name: 'Table', allow_self_join: true, enabled: true });
    expect((await i.get(made.body.id)).body.project).toMatchObject({ display_name: 'Table', allow_self_join: true });
  });

  it('lets a Member join an Open incident only where the project allows it; Admins and above join as before', async () => {
    const p = (await create({ name: 'Joiners' })).body;
    const i = api(w);
    const open = (await i.create({ project: { id: p.id } }, w.owner)).body;
    expect((await i.post(open.id, 'join', w.member)).status).toBe(200);

    await call(w.t.app, 'PUT', `/default/projects/${p.id}`, { token: w.owner, body: { name: 'Joiners', allow_self_join: false } });
    const other = (await i.create({ project: { id: p.id } }, w.owner)).body;
    expect(other.project.allow_self_join).toBe(false);
    const refused = await i.post(other.id, 'join', w.member);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: [{ msg: expect.stringContaining('does not allow joining') }] });
    const emails = async (id: number) => (await i.get(id, w.owner)).body.participants.map((x: any) => x.individual.email);
    expect(await emails(other.id)).not.toContain('member@example.com');
    // Subscribing is not joining.
    expect((await i.post(other.id, 'subscribe', w.member)).status).toBe(200);

    expect((await i.post(other.id, 'join', w.admin)).status).toBe(200);
    expect(await emails(other.id)).toContain('admin@example.com');
    // A Restricted incident stays as before: hidden from a Member who is not in it.
    const restricted = (await i.create({ project: { id: p.id }, visibility: 'Restricted' }, w.owner)).body;
    expect((await i.post(restricted.id, 'join', w.member)).status).toBe(404);
  });
});
