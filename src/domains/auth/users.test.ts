import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let owner: string;
let alice: string;
let bob: string;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  alice = await register(t.app, 'alice@example.com');
  bob = await register(t.app, 'bob@example.com');
  const list = await call(t.app, 'GET', '/default/users', { token: owner, query: { itemsPerPage: -1 } });
  for (const u of list.body.items) ids[u.email] = u.id;
});
afterAll(() => t.close());

describe('users', () => {
  it('lists the members of the organization with their role in it', async () => {
    const res = await call(t.app, 'GET', '/default/users', { token: alice, query: { sortBy: [], 'sortBy[]': 'email', 'descending[]': false } });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.items.map((u: { email: string; role: string }) => `${u.email}:${u.role}`)).toEqual([
      'alice@example.com:Member',
      'bob@example.com:Member',
      'owner@example.com:Owner',
    ]);
    expect(res.body.items[0].projects[0].project.name).toBe('default');
  });

  it('searches and filters users', async () => {
    const q = await call(t.app, 'GET', '/default/users', { token: owner, query: { q: 'ali' } });
    expect(q.body.items.map((u: { email: string }) => u.email)).toEqual(['alice@example.com']);
    const f = await call(t.app, 'GET', '/default/users', { token: owner, query: { filter: JSON.stringify({ field: 'email', op: 'ilike', value: 'b%' }) } });
    expect(f.body.items.map((u: { email: string }) => u.email)).toEqual(['bob@example.com']);
  });

  it('hides users of other organizations', async () => {
    await call(t.app, 'POST', '/organizations', { token: bob, body: { name: 'Bobs Org' } });
    // A new organization takes newcomers by invitation.
    const invited = await call(t.app, 'POST', '/bobs_org/invitations', { token: bob, body: { email: 'carol@example.com' } });
    const joined = await call(t.app, 'POST', '/bobs_org/auth/register', {
      body: { email: 'carol@example.com', password: 'correct horse battery', invitation: invited.body.token },
    });
    expect(joined.status).toBe(200);
    const list = await call(t.app, 'GET', '/default/users', { token: owner, query: { itemsPerPage: -1 } });
    expect(list.body.items.map((u: { email: string }) => u.email)).not.toContain('carol@example.com');
    const carol = (await call(t.app, 'GET', '/bobs_org/users', { token: bob, query: { q: 'carol' } })).body.items[0];
    expect((await call(t.app, 'GET', `/default/users/${carol.id}`, { token: owner })).status).toBe(404);
    // Bob's membership in bobs_org is not shown through default
    const bobRead = await call(t.app, 'GET', `/default/users/${ids['bob@example.com']}`, { token: owner });
    expect(bobRead.body.organizations.map((o: { organization: { slug: string } }) => o.organization.slug)).toEqual(['default']);
  });

  it('lets only an Owner change a role; an omitted role stays', async () => {
    const denied = await call(t.app, 'PUT', `/default/users/${ids['alice@example.com']}`, {
      token: alice,
      body: { id: ids['alice@example.com'], role: 'Admin' },
    });
    expect(denied.status).toBe(403);
    const ok = await call(t.app, 'PUT', `/default/users/${ids['alice@example.com']}`, { token: owner, body: { id: ids['alice@example.com'], role: 'Admin' } });
    expect(ok.body.role).toBe('Admin');
    const [entry] = (await t.database.db.execute(sql`SELECT before, after, actor_email FROM audit_log WHERE action = 'user.role_changed'`)).rows as any[];
    expect(entry).toMatchObject({ before: { role: 'Member' }, after: { role: 'Admin' }, actor_email: 'owner@example.com' });
    const kept = await call(t.app, 'PUT', `/default/users/${ids['alice@example.com']}`, { token: owner, body: { id: ids['alice@example.com'] } });
    expect(kept.body.role).toBe('Admin');
    const bad = await call(t.app, 'PUT', `/default/users/${ids['alice@example.com']}`, {
      token: owner,
      body: { id: ids['alice@example.com'], role: 'Emperor' },
    });
    expect(bad.status).toBe(422);
  });

  it('does not let the last Owner step down', async () => {
    const res = await call(t.app, 'PUT', `/default/users/${ids['owner@example.com']}`, {
      token: owner,
      body: { id: ids['owner@example.com'], role: 'Member' },
    });
    expect(res.status).toBe(409);
  });

  it("lets users change their own password, with the current one, but not someone else's", async () => {
    const other = await call(t.app, 'PUT', `/default/users/${ids['bob@example.com']}`, {
      token: owner,
      body: { id: ids['bob@example.com'], password: 'pwned by the owner' },
    });
    expect(other.status).toBe(403);
    const own = await call(t.app, 'PUT', `/default/users/${ids['bob@example.com']}`, {
      token: bob,
      body: { id: ids['bob@example.com'], password: 'new password', current_password: 'correct horse battery' },
    });
    expect(own.status).toBe(200);
    const login = await call(t.app, 'POST', '/default/auth/login', { body: { email: 'bob@example.com', password: 'new password' } });
    expect(login.status).toBe(200);
    bob = login.body.token;
  });

  it('sets default projects from the body', async () => {
    const p = await call(t.app, 'POST', '/default/projects', { token: owner, body: { name: 'Second', organization: {} } });
    const res = await call(t.app, 'PUT', `/default/users/${ids['bob@example.com']}`, {
      token: bob,
      body: { id: ids['bob@example.com'], projects: [{ project: { id: p.body.id }, default: true }] },
    });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.projects.map((m: { project: { name: string }; default: boolean }) => [m.project.name, m.default]));
    expect(byName).toEqual({ default: false, Second: true });
    const unknown = await call(t.app, 'PUT', `/default/users/${ids['bob@example.com']}`, {
      token: bob,
      body: { id: ids['bob@example.com'], projects: [{ project: { name: 'Nope' } }] },
    });
    expect(unknown.status).toBe(422);
  });
});
