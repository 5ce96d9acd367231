import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { cases, useWorld, listQuery, person } from '../../../test/worlds/cases.ts';

const w = useWorld();
const c = cases(w);
let restricted: any;
let open: any;
beforeAll(async () => {
  restricted = (await c.create({ title: 'Insider', visibility: 'Restricted' }, w.owner)).body;
  open = (await c.create({ title: 'Phish' }, w.owner)).body;
  // The open case lists the restricted one as related and as duplicate.
  await c.edit(open.id, { related: [{ id: restricted.id }], duplicates: [{ id: restricted.id }] });
});

const ids = (res: any) => res.body.items.map((i: any) => i.id);

describe('case visibility and permissions', () => {
  it('a restricted case is 404 to a member who takes no part, everywhere', async () => {
    expect((await c.get(restricted.id)).status).toBe(404);
    expect((await c.update(restricted.id, { title: 'x', description: 'y' })).status).toBe(404);
    expect((await c.remove(restricted.id, w.member)).status).toBe(404);
    expect((await c.escalate(restricted.id)).status).toBe(404);
    const list = await c.list();
    expect(ids(list)).toContain(open.id);
    expect(ids(list)).not.toContain(restricted.id);
    expect(list.body.total).toBe(list.body.items.length);
    const filtered = await c.list(listQuery({ filter: { and: [{ model: 'Case', field: 'title', op: '==', value: 'Insider' }] } }));
    expect(filtered.body).toMatchObject({ total: 0, items: [] });
  });

  it("nested reads leave it out: related and duplicate lists, an incident's cases", async () => {
    const seen = (await c.get(open.id)).body;
    expect(seen.related).toEqual([]);
    expect(seen.duplicates).toEqual([]);
    expect((await c.get(open.id, w.admin)).body.related.map((r: any) => r.id)).toEqual([restricted.id]);
    // A list item (minimal) too.
    const item = (await c.list()).body.items.find((i: any) => i.id === open.id);
    expect(item.related).toEqual([]);
    const incident = (await c.escalate(restricted.id, {}, w.owner)).body;
    await call(w.t.app, 'PUT', `/default/incidents/${incident.id}`, { token: w.owner, body: { ...incident, visibility: 'Open' } });
    expect((await call(w.t.app, 'GET', `/default/incidents/${incident.id}`, { token: w.member })).body.cases).toEqual([]);
    expect((await call(w.t.app, 'GET', `/default/incidents/${incident.id}`, { token: w.owner })).body.cases.map((x: any) => x.id)).toEqual([restricted.id]);
  });

  it('a member who edits a list keeps the links they cannot see', async () => {
    const other = (await c.create({ title: 'Mine' })).body;
    await c.edit(open.id, { related: [{ id: restricted.id }] });
    // The member is no participant of `open`: make them one, then they edit what they see.
    await c.edit(open.id, { assignee: person('member@example.com') });
    const res = await c.update(open.id, { title: open.title, description: open.description, related: [{ id: other.id }] });
    expect(res.status).toBe(200);
    expect(res.body.related.map((r: any) => r.id)).toEqual([other.id]);
    expect((await c.get(open.id, w.owner)).body.related.map((r: any) => r.id).sort()).toEqual([restricted.id, other.id].sort());
  });

  it('participants of a restricted case see and edit it; Admins do', async () => {
    const mine = (await c.create({ visibility: 'Restricted', assignee: person('member@example.com') }, w.owner)).body;
    expect((await c.get(mine.id)).status).toBe(200);
    expect((await c.update(mine.id, { title: 'Mine now', description: 'd' })).status).toBe(200);
    expect((await c.get(restricted.id, w.admin)).status).toBe(200);
    expect((await c.update(restricted.id, { title: 'Admin edit', description: 'd' }, w.admin)).status).toBe(200);
  });

  it('an open case: anyone sees it; only participants and Admins edit or delete it', async () => {
    const theirs = (await c.create({ title: 'Theirs' }, w.owner)).body;
    expect((await c.get(theirs.id)).status).toBe(200);
    expect((await c.update(theirs.id, { title: 'x', description: 'y' })).status).toBe(403);
    expect((await c.remove(theirs.id, w.member)).status).toBe(403);
    const mine = (await c.create({ title: 'Mine to delete' })).body;
    expect((await c.remove(mine.id, w.member)).status).toBe(200);
    expect((await c.get(mine.id)).status).toBe(404);
  });

  it("another organization's cases are not there", async () => {
    expect((await call(w.t.app, 'GET', `/elsewhere/cases/${open.id}`, { token: w.owner })).status).toBe(404);
    expect((await call(w.t.app, 'GET', '/elsewhere/cases', { token: w.owner })).body.total).toBe(0);
    expect((await call(w.t.app, 'GET', `/elsewhere/cases/${open.id}`, { token: w.member })).status).toBe(403);
  });

  it('delete removes the case with its links, participants and timeline, and detaches it elsewhere', async () => {
    const a = (await c.create({ title: 'A' }, w.owner)).body;
    const b = (await c.create({ title: 'B' }, w.owner)).body;
    await c.edit(b.id, { related: [{ id: a.id }] });
    expect((await c.remove(a.id)).status).toBe(200);
    expect((await c.get(a.id, w.owner)).status).toBe(404);
    expect((await c.get(b.id, w.owner)).body.related).toEqual([]);
    expect((await c.remove(a.id)).status).toBe(404);
  });
});
