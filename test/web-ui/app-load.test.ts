// What Dispatch's web UI calls on every full load (reference/dispatch-ui.md, "Conventions"): the
// organizations, the caller, the caller's role; and the seeded text its pages show.
import { describe, expect, it } from 'vitest';
import { call } from '../helpers.ts';
import { useWorld } from '../worlds/world.ts';

const w = useWorld();

describe('a full load of the web UI', () => {
  it('reads the organization picked by slug, as the UI asks before and after login', async () => {
    const query = {
      itemsPerPage: 50,
      'descending[]': false,
      'sortBy[]': 'name',
      filter: JSON.stringify([{ model: 'Organization', field: 'slug', op: '==', value: 'default' }]),
    };
    expect((await call(w.t.app, 'GET', '/organizations', { query })).status).toBe(401);
    const res = await call(w.t.app, 'GET', '/organizations', { token: w.member, query });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([expect.objectContaining({ slug: 'default', name: 'default', description: 'Default Dispatch organization.' })]);
  });

  it('reads the caller (auth/me) and their role in the organization (auth/myrole) as a bare string', async () => {
    const me = await call(w.t.app, 'GET', '/default/auth/me', { token: w.member });
    expect(me.body).toMatchObject({ email: 'member@example.com' });
    for (const [token, role] of [
      [w.owner, 'Owner'],
      [w.admin, 'Admin'],
      [w.member, 'Member'],
    ] as const) {
      const res = await call(w.t.app, 'GET', '/default/auth/myrole', { token });
      expect({ role, status: res.status, body: res.body }).toEqual({ role, status: 200, body: role });
      // A JSON string, quotes and all, as FastAPI answers.
      expect(res.headers['content-type']).toContain('application/json');
      const raw = await w.t.app.inject({ method: 'GET', url: '/api/v1/default/auth/myrole', headers: { authorization: `Bearer ${token}` } });
      expect(raw.body).toBe(`"${role}"`);
    }
    expect((await call(w.t.app, 'GET', '/elsewhere/auth/myrole', { token: w.owner })).body).toBe('Owner');
  });

  it("answers myrole 401 without a token and 403 outside the caller's organizations, in the contract's shape", async () => {
    const anonymous = await call(w.t.app, 'GET', '/default/auth/myrole');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail[0].msg).toEqual(expect.any(String));
    const outsider = await call(w.t.app, 'GET', '/elsewhere/auth/myrole', { token: w.member });
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual({ detail: [{ msg: 'You are not a member of this organization.' }] });
    expect((await call(w.t.app, 'GET', '/nowhere/auth/myrole', { token: w.member })).status).toBe(404);
  });

  it('shows the seeded descriptions Dispatch writes, for the initial organization and every new one', async () => {
    const [project] = (await call(w.t.app, 'GET', '/default/projects', { token: w.member })).body.items;
    expect(project).toMatchObject({ name: 'default', display_name: 'default', description: 'Default Dispatch project.' });
    const created = await call(w.t.app, 'POST', '/organizations', { token: w.member, body: { name: 'Night Shift' } });
    expect(created.status).toBe(200);
    const [theirs] = (await call(w.t.app, 'GET', `/${created.body.slug}/projects`, { token: w.member })).body.items;
    expect(theirs).toMatchObject({ name: 'default', description: 'Default Dispatch project.' });
  });
});
