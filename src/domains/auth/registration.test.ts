// Who may register themselves in an organization: its policy (open, domains, invitation), set by an
// Owner, and the invitations Owners and Managers issue. `default` stays open; others are not.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { invitation } from './table.ts';

let t: TestApp;
let owner: string;
let member: string;
const signUp = (email: string, extra: Record<string, unknown> = {}, org = 'elsewhere') =>
  call(t.app, 'POST', `/${org}/auth/register`, { body: { email, password: 'a long passphrase', ...extra } });
const as = (token: string, method: string, path: string, body?: unknown) => call(t.app, method, `/elsewhere${path}`, { token, body });
const roleIn = async (token: string) => (await call(t.app, 'GET', '/elsewhere/auth/me', { token })).body.organizations?.[0]?.role;

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  expect((await call(t.app, 'POST', '/organizations', { token: owner, body: { name: 'Elsewhere' } })).status).toBe(200);
  expect((await call(t.app, 'POST', '/elsewhere/incidents', { token: owner, body: { title: 'Theirs', description: 'Open to members' } })).status).toBe(200);
});
afterAll(() => t.close());

describe('registration policy', () => {
  it('a new organization takes no stranger; `default` stays open', async () => {
    const res = await signUp('stranger@example.com');
    expect(res).toMatchObject({ status: 403, body: { detail: [{ msg: 'Registration in this organization needs an invitation.' }] } });
    // Nothing was created: the same address may still register where registration is open.
    expect((await signUp('stranger@example.com', {}, 'default')).status).toBe(200);
    expect((await as(owner, 'GET', '/registration')).body).toEqual({ policy: 'invitation', domains: [] });
    expect((await call(t.app, 'GET', '/default/registration', { token: owner })).body).toEqual({ policy: 'open', domains: [] });
  });

  it('only an Owner sets it; `domains` needs confirmed addresses of its domains (docs/security.md)', async () => {
    const joined = await signUp('someone@corp.example');
    expect(joined.status).toBe(403);
    expect((await call(t.app, 'PUT', '/default/registration', { token: member, body: { policy: 'open' } })).status).toBe(403);
    expect((await as(owner, 'PUT', '/registration', { policy: 'domains' })).status).toBe(422);
    expect((await as(owner, 'PUT', '/registration', { policy: 'bogus' })).status).toBe(422);
    const set = await as(owner, 'PUT', '/registration', { policy: 'domains', domains: ['Corp.Example'] });
    expect(set).toMatchObject({ status: 200, body: { policy: 'domains', domains: ['corp.example'] } });
    // Without mail, an address of the domain cannot be confirmed (account.test.ts covers the mailed link).
    expect((await signUp('someone@corp.example')).status).toBe(403);
    expect((await signUp('someone@corp.example.evil')).status).toBe(403);
    expect((await signUp('someone@evil.example')).status).toBe(403);
    expect((await as(owner, 'PUT', '/registration', { policy: 'open' })).body).toEqual({ policy: 'open', domains: ['corp.example'] });
    expect((await signUp('anyone@example.org')).status).toBe(200);
    expect((await as(owner, 'PUT', '/registration', { policy: 'invitation' })).status).toBe(200);
    expect((await signUp('late@example.org')).status).toBe(403);
    const changes = (await t.database.db.execute(sql`SELECT before, after FROM audit_log WHERE action = 'registration.policy_changed' ORDER BY id`)).rows;
    expect(changes.map((c: any) => c.after.policy)).toEqual(['domains', 'open', 'invitation']);
  });
});

describe('invitations', () => {
  it('admit once, by the address they name, with their role; the token is stored hashed', async () => {
    expect((await call(t.app, 'POST', '/default/invitations', { token: member, body: {} })).status).toBe(403);
    const made = await as(owner, 'POST', '/invitations', { email: 'Invitee@Example.com', role: 'Admin' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ email: 'invitee@example.com', role: 'Admin', token: expect.any(String) });
    const stored = await t.database.db.select().from(invitation).where(sql`${invitation.id} = ${made.body.id}`);
    expect(stored[0].token_hash).not.toContain(made.body.token);
    expect((await as(owner, 'GET', '/invitations')).body.items).toEqual([
      { id: made.body.id, email: 'invitee@example.com', role: 'Admin', created_at: made.body.created_at, expires_at: made.body.expires_at },
    ]);
    expect((await signUp('other@example.com', { invitation: made.body.token })).status).toBe(403);
    expect((await signUp('invitee@example.com', { invitation: 'not-a-token' })).status).toBe(403);
    const ok = await signUp('invitee@example.com', { invitation: made.body.token });
    expect(ok.status).toBe(200);
    expect(await roleIn(ok.body.token)).toBe('Admin');
    expect((await signUp('second@example.com', { invitation: made.body.token })).status).toBe(403);
    expect((await as(owner, 'GET', '/invitations')).body.items).toEqual([]);
  });

  it('an open invitation admits anyone once; expired and withdrawn ones admit nobody', async () => {
    const open = (await as(owner, 'POST', '/invitations', {})).body;
    expect(open).toMatchObject({ email: null, role: 'Member' });
    expect((await signUp('first@example.net', { invitation: open.token })).status).toBe(200);
    const expired = (await as(owner, 'POST', '/invitations', {})).body;
    await t.database.db.execute(sql`UPDATE ${invitation} SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`);
    expect((await signUp('slow@example.net', { invitation: expired.token })).status).toBe(403);
    const withdrawn = (await as(owner, 'POST', '/invitations', {})).body;
    expect((await as(owner, 'DELETE', `/invitations/${withdrawn.id}`)).status).toBe(200);
    expect((await as(owner, 'DELETE', `/invitations/${withdrawn.id}`)).status).toBe(404);
    expect((await signUp('late@example.net', { invitation: withdrawn.token })).status).toBe(403);
    // An invitation is for its organization only.
    const elsewhere = (await as(owner, 'POST', '/invitations', {})).body;
    await call(t.app, 'PUT', '/default/registration', { token: owner, body: { policy: 'invitation' } });
    expect((await signUp('wrong@example.net', { invitation: elsewhere.token }, 'default')).status).toBe(403);
    await call(t.app, 'PUT', '/default/registration', { token: owner, body: { policy: 'open' } });
  });

  it('let someone with an account join while signed in, never by registering with its password', async () => {
    const made = (await as(owner, 'POST', '/invitations', { email: 'member@example.com', role: 'Admin' })).body;
    // Registering again answers no token, with or without the right password, and leaves the invitation unused.
    for (const password of ['a long wrong guess', 'correct horse battery']) {
      expect(await signUp('member@example.com', { invitation: made.token, password })).toMatchObject({ status: 200, body: { token: null } });
    }
    // Only the invited address's own session accepts it.
    expect((await call(t.app, 'POST', '/invitations/accept', { token: owner, body: { token: made.token } })).status).toBe(403);
    const joined = await call(t.app, 'POST', '/invitations/accept', { token: member, body: { token: made.token } });
    expect(joined).toMatchObject({ status: 200, body: { organization: { slug: 'elsewhere' }, role: 'Admin' } });
    const orgs = (await call(t.app, 'GET', '/elsewhere/auth/me', { token: member })).body.organizations;
    expect(orgs.map((o: { organization: { slug: string }; role: string; default: boolean }) => [o.organization.slug, o.role, o.default]).sort()).toEqual([
      ['default', 'Member', true],
      ['elsewhere', 'Admin', false],
    ]);
    expect((await as(member, 'GET', '/incidents')).body.total).toBe(1);
    // The invitation is used up; and a member cannot join twice.
    expect((await call(t.app, 'POST', '/invitations/accept', { token: member, body: { token: made.token } })).status).toBe(403);
    const again = (await as(owner, 'POST', '/invitations', { email: 'member@example.com' })).body;
    expect((await call(t.app, 'POST', '/invitations/accept', { token: member, body: { token: again.token } })).status).toBe(409);
  });

  it('a Manager invites up to their own role', async () => {
    const made = (await as(owner, 'POST', '/invitations', { email: 'manager@example.com', role: 'Manager' })).body;
    const manager = (await signUp('manager@example.com', { invitation: made.token })).body.token;
    expect(await roleIn(manager)).toBe('Manager');
    expect((await as(manager, 'POST', '/invitations', { role: 'Owner' })).status).toBe(403);
    expect((await as(manager, 'POST', '/invitations', { role: 'Manager' })).status).toBe(200);
    expect((await as(manager, 'PUT', '/registration', { policy: 'open' })).status).toBe(403);
  });
});
