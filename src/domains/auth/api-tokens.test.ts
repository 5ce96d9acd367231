// API tokens and service accounts over HTTP: made, listed, used as Bearer credentials, capped by
// role, read-only, expired, revoked, refused elsewhere and after their user leaves; every creation and
// revocation in the audit log; only hashes stored.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { auditLog } from '../audit/table.ts';
import { hashApiToken } from './api-token.ts';
import { apiToken, appUser, userOrganization } from './table.ts';

let t: TestApp;
let owner: string;
let manager: string;
let member: string;
const ids: Record<string, number> = {};

const as = (token: string, method: string, path: string, body?: unknown, org = 'default') => call(t.app, method, `/${org}${path}`, { token, body });
const incident = { title: 'Made by a script', description: 'Opened through an API token.' };
const entries = (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);
const tokenRow = async (id: number) => (await t.database.db.select().from(apiToken).where(eq(apiToken.id, id)))[0];

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  manager = await register(t.app, 'manager@example.com');
  member = await register(t.app, 'member@example.com');
  const users = (await call(t.app, 'GET', '/default/users', { token: owner, query: { itemsPerPage: -1 } })).body.items;
  for (const u of users) ids[u.email] = u.id;
  expect((await as(owner, 'PUT', `/users/${ids['manager@example.com']}`, { id: ids['manager@example.com'], role: 'Manager' })).status).toBe(200);
  expect((await call(t.app, 'POST', '/organizations', { token: owner, body: { name: 'Elsewhere' } })).status).toBe(200);
});
afterAll(() => t.close());

describe('service accounts', () => {
  it('a service account token reports an incident, which names the account; the audit log holds the creation', async () => {
    const sa = await as(manager, 'POST', '/service-accounts', { name: 'CI bot', role: 'Member' });
    expect(sa.status).toBe(200);
    expect(sa.body).toMatchObject({ name: 'ci-bot', email: 'ci-bot@default.service-accounts.invalid', role: 'Member', deactivated_at: null, active_tokens: 0 });
    const made = await as(manager, 'POST', `/service-accounts/${sa.body.id}/tokens`, { name: 'deploys' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      name: 'deploys',
      role: 'Member',
      read_only: false,
      service_account: true,
      user: { id: sa.body.id, email: sa.body.email },
      created_by: { id: ids['manager@example.com'], email: 'manager@example.com' },
      expires_at: null,
      last_used_at: null,
    });
    expect(made.body.token).toMatch(/^mst_/);
    expect(made.body.token.startsWith(made.body.prefix)).toBe(true);

    const created = await as(made.body.token, 'POST', '/incidents', incident);
    expect(created.status).toBe(200);
    expect(created.body.reporter.individual.email).toBe(sa.body.email);
    const read = await as(owner, 'GET', `/incidents/${created.body.id}`);
    expect(read.body).toMatchObject({ title: incident.title, reporter: { individual: { email: sa.body.email } } });

    const [account] = await entries('service_account.created');
    expect(account).toMatchObject({ actor_email: 'manager@example.com', target_type: 'user', target_id: String(sa.body.id), target_label: sa.body.email });
    const [token] = await entries('api_token.created');
    expect(token).toMatchObject({ actor_email: 'manager@example.com', target_type: 'api_token', target_id: String(made.body.id), target_label: 'deploys' });
    // No entry holds the token itself.
    const all = await t.database.db.select().from(auditLog);
    expect(JSON.stringify(all)).not.toContain(made.body.token);

    // The account never signs in with a password, has no confirmed address, and is listed with its tokens.
    const [user] = await t.database.db.select().from(appUser).where(eq(appUser.id, sa.body.id));
    expect(user).toMatchObject({ service_account: true, email_confirmed_at: null });
    const login = await call(t.app, 'POST', '/default/auth/login', { body: { email: sa.body.email, password: '' } });
    expect(login.status).toBe(422);
    const list = await as(owner, 'GET', '/service-accounts');
    expect(list.body.items).toEqual([{ ...sa.body, active_tokens: 1 }]);
    expect((await as(owner, 'GET', `/service-accounts/${sa.body.id}/tokens`)).body.items.map((x: { id: number }) => x.id)).toEqual([made.body.id]);
  });

  it('are managed by Owners and Managers, with a role no higher than their own; names are unique', async () => {
    expect((await as(member, 'POST', '/service-accounts', { name: 'mine' })).status).toBe(403);
    expect((await as(member, 'GET', '/service-accounts')).status).toBe(403);
    expect((await as(manager, 'POST', '/service-accounts', { name: 'boss', role: 'Owner' })).status).toBe(403);
    const dup = await as(owner, 'POST', '/service-accounts', { name: 'ci-bot' });
    expect(dup).toMatchObject({ status: 422, body: { detail: [{ loc: ['name'], type: 'value_error.exists' }] } });
    const admin = await as(owner, 'POST', '/service-accounts', { name: 'pager', role: 'Admin' });
    expect(admin.status).toBe(200);
    // A token grants no more than its account's role, nor than its creator's.
    expect((await as(owner, 'POST', `/service-accounts/${admin.body.id}/tokens`, { name: 'x', role: 'Owner' })).status).toBe(422);
    const owners = await as(owner, 'POST', '/service-accounts', { name: 'root', role: 'Owner' });
    expect((await as(manager, 'POST', `/service-accounts/${owners.body.id}/tokens`, { name: 'x', role: 'Owner' })).status).toBe(403);
    const capped = await as(manager, 'POST', `/service-accounts/${owners.body.id}/tokens`, { name: 'x' });
    expect(capped.body.role).toBe('Manager');
    expect((await as(manager, 'DELETE', `/service-accounts/${owners.body.id}`)).status).toBe(403);
    // Another organization's service account is not found here.
    expect((await as(owner, 'GET', `/service-accounts/${admin.body.id}/tokens`, undefined, 'elsewhere')).status).toBe(404);
  });

  it('deactivating one refuses its tokens on the next request and revokes them', async () => {
    const sa = (await as(owner, 'POST', '/service-accounts', { name: 'short lived' })).body;
    const token = (await as(owner, 'POST', `/service-accounts/${sa.id}/tokens`, { name: 'one' })).body;
    expect((await as(token.token, 'GET', '/incidents')).status).toBe(200);
    expect((await as(owner, 'DELETE', `/service-accounts/${sa.id}`)).status).toBe(200);
    expect((await as(token.token, 'GET', '/incidents')).status).toBe(401);
    expect((await tokenRow(token.id)).revoked_at).not.toBeNull();
    expect((await as(owner, 'DELETE', `/service-accounts/${sa.id}`)).status).toBe(404);
    expect((await as(owner, 'POST', `/service-accounts/${sa.id}/tokens`, { name: 'again' })).status).toBe(404);
    const listed = (await as(owner, 'GET', '/service-accounts')).body.items.find((a: { id: number }) => a.id === sa.id);
    expect(listed).toMatchObject({ active_tokens: 0, deactivated_at: expect.any(String) });
    const [gone] = await entries('service_account.deactivated');
    expect(gone).toMatchObject({ target_id: String(sa.id), actor_email: 'owner@example.com', details: { revoked_tokens: [token.id] } });
    expect((await entries('api_token.revoked')).some((e) => e.target_id === String(token.id))).toBe(true);
  });
});

describe('personal tokens', () => {
  it('act as their creator, shown once, stored as a hash; last use noted with its address', async () => {
    const made = await as(member, 'POST', '/api-tokens', { name: 'laptop' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ role: 'Member', user: { email: 'member@example.com' }, service_account: false });
    const stored = await tokenRow(made.body.id);
    expect(stored.token_hash).toBe(hashApiToken(made.body.token));
    const dump = JSON.stringify(await t.database.db.execute(sql`SELECT * FROM api_token`));
    expect(dump).not.toContain(made.body.token);

    const me = await as(made.body.token, 'GET', '/auth/me');
    expect(me).toMatchObject({ status: 200, body: { email: 'member@example.com' } });
    // Noted beside the request, not in its way: it may land just after the answer.
    await vi.waitFor(async () => expect((await tokenRow(made.body.id)).last_used_at).not.toBeNull());
    expect((await tokenRow(made.body.id)).last_used_address).toBe('127.0.0.1');
    const list = await as(member, 'GET', '/api-tokens');
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ id: made.body.id, prefix: made.body.prefix, last_used_address: '127.0.0.1', last_used_at: expect.any(String) });
    expect(list.body.items[0].token).toBeUndefined();
    // Others' tokens are not listed; an Owner sees every member's with ?all=true.
    expect((await as(owner, 'GET', '/api-tokens')).body.items).toEqual([]);
    expect((await call(t.app, 'GET', '/default/api-tokens', { token: owner, query: { all: true } })).body.items.map((x: { id: number }) => x.id)).toContain(
      made.body.id,
    );
    expect((await call(t.app, 'GET', '/default/api-tokens', { token: member, query: { all: true } })).status).toBe(403);
  });

  it('grant no role above their creator; are capped by the role the user has now', async () => {
    expect((await as(member, 'POST', '/api-tokens', { name: 'up', role: 'Admin' })).status).toBe(403);
    expect((await as(manager, 'POST', '/api-tokens', { name: 'up', role: 'Owner' })).status).toBe(403);
    const made = (await as(manager, 'POST', '/api-tokens', { name: 'managing', role: 'Manager' })).body;
    expect((await as(made.token, 'GET', '/auth/myrole')).body).toBe('Manager');
    const mid = ids['manager@example.com'];
    await as(owner, 'PUT', `/users/${mid}`, { id: mid, role: 'Member' });
    expect((await as(made.token, 'GET', '/auth/myrole')).body).toBe('Member');
    expect((await as(made.token, 'POST', '/service-accounts', { name: 'nope' })).status).toBe(403);
    await as(owner, 'PUT', `/users/${mid}`, { id: mid, role: 'Manager' });
  });

  it('read-only tokens read but do not write', async () => {
    const ro = (await as(member, 'POST', '/api-tokens', { name: 'dashboards', read_only: true })).body;
    expect(ro.read_only).toBe(true);
    expect((await as(ro.token, 'GET', '/incidents')).status).toBe(200);
    const refused = await as(ro.token, 'POST', '/incidents', incident);
    expect(refused).toMatchObject({ status: 403, body: { detail: [{ msg: 'This API token is read-only.' }] } });
    expect((await as(ro.token, 'DELETE', `/api-tokens/${ro.id}`)).status).toBe(403);
  });

  it('expired and revoked tokens answer 401; only the creator or an Owner revokes', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const expiring = (await as(member, 'POST', '/api-tokens', { name: 'expiring', expires_at: soon })).body;
    expect(expiring.expires_at).toBe(soon);
    expect((await as(expiring.token, 'GET', '/incidents')).status).toBe(200);
    await t.database.db
      .update(apiToken)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(apiToken.id, expiring.id));
    expect((await as(expiring.token, 'GET', '/incidents')).status).toBe(401);

    const revoked = (await as(member, 'POST', '/api-tokens', { name: 'to revoke' })).body;
    expect((await as(manager, 'DELETE', `/api-tokens/${revoked.id}`)).status).toBe(404);
    expect((await as(member, 'DELETE', `/api-tokens/${revoked.id}`)).status).toBe(200);
    expect((await as(revoked.token, 'GET', '/incidents')).status).toBe(401);
    expect((await as(member, 'DELETE', `/api-tokens/${revoked.id}`)).status).toBe(404);
    const byOwner = (await as(member, 'POST', '/api-tokens', { name: 'owner revokes' })).body;
    expect((await as(owner, 'DELETE', `/api-tokens/${byOwner.id}`)).status).toBe(200);
    expect((await as(byOwner.token, 'GET', '/incidents')).status).toBe(401);
    const revocations = await entries('api_token.revoked');
    expect(revocations.find((e) => e.target_id === String(byOwner.id))).toMatchObject({ actor_email: 'owner@example.com' });
    expect(revocations.find((e) => e.target_id === String(revoked.id))).toMatchObject({ actor_email: 'member@example.com' });
    // A token cannot be made already expired; a token makes no tokens (a leaked one could outlive its revocation).
    const past = await as(member, 'POST', '/api-tokens', { name: 'past', expires_at: '2020-01-01T00:00:00Z' });
    expect(past).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 'expires_at'], type: 'value_error' }] } });
    const parent = (await as(owner, 'POST', '/api-tokens', { name: 'parent', expires_at: soon })).body;
    expect((await as(parent.token, 'POST', '/api-tokens', { name: 'child', expires_at: soon })).status).toBe(403);
    expect((await as(parent.token, 'POST', '/service-accounts', { name: 'child' })).status).toBe(403);
    // It may revoke, itself included.
    expect((await as(parent.token, 'GET', '/api-tokens')).body.items.some((x: { id: number }) => x.id === parent.id)).toBe(true);
    expect((await as(parent.token, 'DELETE', `/api-tokens/${parent.id}`)).status).toBe(200);
    expect((await as(parent.token, 'GET', '/api-tokens')).status).toBe(401);
  });

  it('act only in their own organization; another organization does not find them', async () => {
    const made = (await as(owner, 'POST', '/api-tokens', { name: 'default only' })).body;
    const elsewhere = await as(made.token, 'GET', '/incidents', undefined, 'elsewhere');
    expect(elsewhere).toMatchObject({ status: 403, body: { detail: [{ msg: 'This API token belongs to another organization.' }] } });
    expect((await call(t.app, 'GET', '/organizations', { token: made.token })).status).toBe(403);
    expect((await as(owner, 'DELETE', `/api-tokens/${made.id}`, undefined, 'elsewhere')).status).toBe(404);
    expect((await as(made.token, 'GET', '/incidents')).status).toBe(200);
  });

  it('stop working once their user leaves the organization or is deactivated', async () => {
    const leaver = await register(t.app, 'leaver@example.com');
    const left = (await as(leaver, 'POST', '/api-tokens', { name: 'left' })).body;
    const deactivated = await register(t.app, 'gone@example.com');
    const gone = (await as(deactivated, 'POST', '/api-tokens', { name: 'gone' })).body;
    expect((await as(left.token, 'GET', '/incidents')).status).toBe(200);
    expect((await as(gone.token, 'GET', '/incidents')).status).toBe(200);
    await t.database.db.delete(userOrganization).where(and(eq(userOrganization.user_id, left.user.id), eq(userOrganization.organization_id, 1)));
    await t.database.db.update(appUser).set({ deactivated_at: new Date() }).where(eq(appUser.id, gone.user.id));
    expect((await as(left.token, 'GET', '/incidents')).status).toBe(401);
    expect((await as(gone.token, 'GET', '/incidents')).status).toBe(401);
  });

  it('answer bad input with 422 in the contract shape', async () => {
    const missing = await as(member, 'POST', '/api-tokens', {});
    expect(missing).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }] } });
    const role = await as(member, 'POST', '/api-tokens', { name: 'x', role: 'King' });
    expect(role.status).toBe(422);
    expect(role.body.detail[0].loc).toEqual(['body', 'role']);
    const when = await as(member, 'POST', '/api-tokens', { name: 'x', expires_at: 'tomorrow' });
    expect(when.status).toBe(422);
    expect((await as(member, 'POST', '/api-tokens', { name: '   ' })).status).toBe(422);
    expect((await as(owner, 'POST', '/service-accounts', { name: '--' })).status).toBe(422);
    // Server-owned fields are ignored, not set.
    const sneaky = await as(member, 'POST', '/api-tokens', { name: 'sneaky', user_id: ids['owner@example.com'], revoked_at: null, token_hash: 'x' });
    expect(sneaky.body.user.email).toBe('member@example.com');
    expect((await as(member, 'DELETE', '/api-tokens/999999')).status).toBe(404);
  });
});
