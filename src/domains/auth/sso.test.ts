// Single sign-on against a real OpenID Connect provider (test/peers/oidc.ts): the browser's code
// flow (state, nonce and PKCE in an encrypted cookie), people created by the organization's policy
// and role claim, the provider's tokens as bearer credentials (expiry, audience, issuer, `none`, key
// rotation), the provider down (503, passwords unaffected), the organization's sign-in switch, and
// header sign-in behind a trusted proxy.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestApp, nextSecond, register, registerUnconfirmed, type TestApp } from '../../../test/helpers.ts';
import { CLIENT_ID, CLIENT_SECRET, ROLE_CLAIM, signInAtProvider, startOidcPeer, type OidcPeer } from '../../../test/peers/oidc.ts';
import { auditLog } from '../audit/table.ts';
import { roleFromClaim } from './sso.ts';
import { appUser } from './table.ts';

const UI = 'http://muster.test';
const CALLBACK = `${UI}/api/v1/auth/sso/callback`;

let peer: OidcPeer;
let t: TestApp;
let owner: string;

const ssoSettings = () => ({
  uiUrl: UI,
  oidcIssuer: peer.issuer,
  oidcClientId: CLIENT_ID,
  oidcClientSecret: CLIENT_SECRET,
  oidcName: 'Test IdP',
  oidcRoleClaim: ROLE_CLAIM,
});

/** Starts sign-in at Muster: the provider's URL and the attempt's cookie. */
async function startSignIn(app = t.app, org = 'default') {
  const res = await app.inject({ method: 'GET', url: `/api/v1/${org}/auth/sso/login` });
  return { status: res.statusCode, location: res.headers.location as string, cookie: String(res.headers['set-cookie'] ?? '').split(';')[0], body: res.body };
}

/** Muster's callback, as the browser calls it. */
async function callback(url: string, cookie: string, app = t.app) {
  const u = new URL(url);
  return app.inject({ method: 'GET', url: `${u.pathname}${u.search}`, headers: { cookie } });
}

/** The whole sign-in of `login` at the provider: Muster's answer to the callback. */
async function signIn(login: string, org = 'default') {
  const started = await startSignIn(t.app, org);
  expect(started.status).toBe(302);
  const back = await signInAtProvider(started.location, login, CALLBACK);
  return callback(back, started.cookie);
}

const tokenOf = (location: string) => new URLSearchParams(new URL(location).hash.slice(1)).get('token')!;

async function userRow(email: string) {
  const [row] = await t.database.db.select().from(appUser).where(eq(appUser.email, email));
  return row;
}

beforeAll(async () => {
  peer = await startOidcPeer([CALLBACK]);
  t = await createTestApp(ssoSettings());
  owner = await register(t.app, 'owner@example.com');
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
});

describe('sign-in with the provider', () => {
  it('sends the browser to the provider with state, nonce and PKCE, keeping them in an HttpOnly cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/default/auth/sso/login' });
    expect(res.statusCode).toBe(302);
    const to = new URL(res.headers.location as string);
    expect(to.origin).toBe(peer.issuer);
    expect(to.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(to.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(p)).toBeTruthy();
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^muster_sso=[^;]+; Path=\/api\/v1\/auth\/sso\/callback; HttpOnly; SameSite=Lax; Max-Age=600$/);
    // Nothing of the attempt is readable in the cookie (encrypted, not just signed).
    expect(cookie).not.toContain(to.searchParams.get('state')!);
  });

  it('creates a newcomer as Member where registration is open, confirmed when the provider verified the address', async () => {
    const res = await signIn('alice@example.com');
    expect(res.statusCode).toBe(302);
    const landing = new URL(res.headers.location as string);
    expect(`${landing.origin}${landing.pathname}`).toBe(`${UI}/default/auth/sso`);
    const token = tokenOf(landing.href);
    const me = await call(t.app, 'GET', '/default/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('alice@example.com');
    expect(me.body.organizations[0].role).toBe('Member');
    expect((await userRow('alice@example.com')).email_confirmed_at).not.toBeNull();
    // The cookie is cleared once used.
    expect(String(res.headers['set-cookie'])).toContain('Max-Age=0');
    const entries = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.actor_email, 'alice@example.com'))
      .orderBy(auditLog.id);
    expect(entries.map((e) => e.action)).toEqual(['user.created', 'auth.sso_login']);
  });

  it('an address the provider did not verify is not counted as confirmed', async () => {
    peer.accounts.set('bob', { email: 'Bob@Example.com', email_verified: false });
    const res = await signIn('bob');
    expect(res.statusCode).toBe(302);
    const row = await userRow('bob@example.com');
    expect(row.email_confirmed_at).toBeNull();
    // And signing in again with a verified address confirms it.
    peer.accounts.set('bob', { email: 'bob@example.com', email_verified: true });
    expect((await signIn('bob')).statusCode).toBe(302);
    expect((await userRow('bob@example.com')).email_confirmed_at).not.toBeNull();
  });

  it('an account someone registered with the address unconfirmed loses their password and tokens when the provider proves it', async () => {
    const squatter = await registerUnconfirmed(t.app, 'grace@example.com', 'default', 'squatter passphrase');
    expect((await userRow('grace@example.com')).email_confirmed_at).toBeNull();
    expect((await call(t.app, 'GET', '/default/auth/me', { token: squatter })).status).toBe(200);
    // Tokens count by the second they were issued in: sign in from the next second on.
    await nextSecond();
    const res = await signIn('grace@example.com');
    expect(res.statusCode).toBe(302);
    expect((await userRow('grace@example.com')).email_confirmed_at).not.toBeNull();
    expect((await call(t.app, 'GET', '/default/auth/me', { token: tokenOf(res.headers.location as string) })).status).toBe(200);
    // The registrant's token, issued before, is refused.
    expect((await call(t.app, 'GET', '/default/auth/me', { token: squatter })).status).toBe(401);
    const login = await call(t.app, 'POST', '/default/auth/login', { body: { email: 'grace@example.com', password: 'squatter passphrase' } });
    expect(login.status).toBe(422);
  });

  it("takes a newcomer's role from the role claim, the highest one named", async () => {
    peer.accounts.set('carol', { email: 'carol@example.com', role: ['member', 'Manager', 'unrelated'] });
    const res = await signIn('carol');
    const me = await call(t.app, 'GET', '/default/auth/me', { token: tokenOf(res.headers.location as string) });
    expect(me.body.organizations[0].role).toBe('Manager');
    expect(roleFromClaim('OWNER')).toBe('Owner');
    expect(roleFromClaim(['admin', 'member'])).toBe('Admin');
    expect(roleFromClaim('superuser')).toBeUndefined();
    expect(roleFromClaim(42)).toBeUndefined();
  });

  it('follows the registration policy: invitation-only takes members only, domains takes its domains', async () => {
    expect((await call(t.app, 'POST', '/organizations', { token: owner, body: { name: 'Closed' } })).status).toBe(200);
    const refused = await signIn('dave@example.com', 'closed');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: [{ msg: 'Registration in this organization needs an invitation.' }] });
    expect(await userRow('dave@example.com')).toBeUndefined();
    const [failed] = await t.database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.sso_login_failed'), eq(auditLog.actor_email, 'dave@example.com')));
    expect(failed.details).toEqual({ reason: 'registration policy' });
    // The organization's Owner is a member: signed in.
    expect((await signIn('owner@example.com', 'closed')).statusCode).toBe(302);

    await call(t.app, 'PUT', '/closed/registration', { token: owner, body: { policy: 'domains', domains: ['corp.example'] } });
    expect((await signIn('dave@example.com', 'closed')).statusCode).toBe(403);
    peer.accounts.set('henry', { email: 'henry@corp.example', email_verified: false });
    const unverified = await signIn('henry', 'closed');
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json()).toEqual({ detail: [{ msg: 'The single sign-on provider has not verified this e-mail address.' }] });
    const joined = await signIn('erin@corp.example', 'closed');
    expect(joined.statusCode).toBe(302);
    expect((await call(t.app, 'GET', '/closed/auth/me', { token: tokenOf(joined.headers.location as string) })).status).toBe(200);
  });

  it('refuses a callback without its cookie, with another attempt’s cookie, or with a forged state', async () => {
    const started = await startSignIn();
    const back = await signInAtProvider(started.location, 'frank@example.com', CALLBACK);
    const noCookie = await callback(back, '');
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json().detail[0].msg).toMatch(/^Single sign-on failed/);
    const other = await startSignIn();
    expect((await callback(back, other.cookie)).statusCode).toBe(401);
    expect((await callback(back, 'muster_sso=forged')).statusCode).toBe(401);
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged');
    expect((await callback(forged.href, started.cookie)).statusCode).toBe(401);
    expect(await userRow('frank@example.com')).toBeUndefined();
  });

  it('answers 404 for an unknown organization', async () => {
    expect((await startSignIn(t.app, 'nowhere')).status).toBe(404);
  });
});

describe("the provider's tokens as bearer credentials", () => {
  const me = (token: string) => call(t.app, 'GET', '/default/auth/me', { token });

  it('a good token signs in the person it names', async () => {
    const res = await me(await peer.sign({ sub: 'x', email: 'alice@example.com' }));
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('alice@example.com');
  });

  it('expired, for another audience, without expiry or without e-mail: 401 in the contract shape', async () => {
    const now = Math.floor(Date.now() / 1000);
    const bad = [
      await peer.sign({ email: 'alice@example.com', iat: now - 7200, exp: now - 3600 }),
      await peer.sign({ email: 'alice@example.com', aud: 'someone-else' }),
      await peer.sign({ sub: 'x' }),
    ];
    for (const token of bad) expect(await me(token)).toMatchObject({ status: 401, body: { detail: [{ msg: 'Could not validate credentials' }] } });
  });

  it('a token of another issuer, and an unsigned one (alg none), are refused', async () => {
    const foreign = await peer.sign({ email: 'alice@example.com', iss: 'https://evil.example' });
    expect((await me(foreign)).status).toBe(401);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: peer.issuer, aud: CLIENT_ID, email: 'alice@example.com', exp: now + 600 })}.`;
    expect(await me(none)).toMatchObject({ status: 401, body: { detail: [{ msg: 'Could not validate credentials' }] } });
    // Muster's own tokens are unaffected.
    expect((await me(owner)).status).toBe(200);
  });

  it('a token signed with a rotated key still verifies (the keys are fetched again)', async () => {
    expect((await me(await peer.sign({ email: 'owner@example.com' }))).status).toBe(200);
    await peer.rotate();
    // Keys are fetched again at most every 30 s: let that time pass.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    try {
      expect((await me(await peer.sign({ email: 'owner@example.com' }))).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('sign-in methods', () => {
  it('the public methods endpoint offers the provider and passwords; an Owner may turn passwords off', async () => {
    const methods = await call(t.app, 'GET', '/default/auth/methods');
    expect(methods).toMatchObject({ status: 200, body: { password: true, sso: { name: 'Test IdP', url: '/api/v1/default/auth/sso/login' } } });
    const member = await register(t.app, 'member@example.com');
    expect((await call(t.app, 'PUT', '/default/sign-in', { token: member, body: { password_login: false } })).status).toBe(403);
    const off = await call(t.app, 'PUT', '/default/sign-in', { token: owner, body: { password_login: false } });
    expect(off).toMatchObject({ status: 200, body: { password_login: false, sso: { name: 'Test IdP', issuer: peer.issuer } } });
    expect((await call(t.app, 'GET', '/default/auth/methods')).body.password).toBe(false);
    const refused = await call(t.app, 'POST', '/default/auth/login', { body: { email: 'owner@example.com', password: 'correct horse battery' } });
    expect(refused.status).toBe(403);
    expect((await call(t.app, 'GET', '/default/sign-in', { token: owner })).body.password_login).toBe(false);
    const [entry] = await t.database.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.action, 'organization.sign_in_changed'));
    expect(entry).toEqual({ before: { password_login: true }, after: { password_login: false } });
    expect((await call(t.app, 'PUT', '/default/sign-in', { token: owner, body: { password_login: true } })).body.password_login).toBe(true);
    expect((await call(t.app, 'GET', '/nowhere/auth/methods')).status).toBe(404);
  });
});

describe('the provider down', () => {
  it('a sign-in that reaches the callback answers 503; password sign-in keeps working', async () => {
    const started = await startSignIn();
    const back = await signInAtProvider(started.location, 'alice@example.com', CALLBACK);
    await peer.stop();
    try {
      const res = await callback(back, started.cookie);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: [{ msg: 'The single sign-on provider is unavailable. Please, try again shortly or sign in with a password.' }] });
      expect(res.headers['retry-after']).toBeDefined();
      const login = await call(t.app, 'POST', '/default/auth/login', { body: { email: 'owner@example.com', password: 'correct horse battery' } });
      expect(login.status).toBe(200);
    } finally {
      await peer.start();
    }
  });

  it('a server that has not reached the provider yet answers 503 at sign-in', async () => {
    await peer.stop();
    const fresh = await createTestApp(ssoSettings());
    try {
      const res = await startSignIn(fresh.app);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body).detail[0].msg).toMatch(/provider is unavailable/);
      // The public methods endpoint still answers (the sign-in page offers passwords).
      expect((await call(fresh.app, 'GET', '/default/auth/methods')).body.password).toBe(true);
      // Once the provider is back, sign-in works without a restart.
      await peer.start();
      expect((await startSignIn(fresh.app)).status).toBe(302);
    } finally {
      await peer.start().catch(() => undefined);
      await fresh.close();
    }
  });
});

describe('header sign-in behind a trusted proxy', () => {
  let h: TestApp;
  beforeAll(async () => {
    h = await createTestApp({ headerAuth: true, trustedProxies: '10.0.0.1, 192.0.2.0/24' });
    await register(h.app, 'owner@example.com');
  });
  afterAll(() => h.close());

  const me = (peerAddress: string, user: string) =>
    h.app.inject({ method: 'GET', url: '/api/v1/default/auth/me', remoteAddress: peerAddress, headers: { 'remote-user': user } });

  it("takes the header's address from a trusted proxy only", async () => {
    const trusted = await me('10.0.0.1', 'Owner@Example.com');
    expect(trusted.statusCode).toBe(200);
    expect(trusted.json().email).toBe('owner@example.com');
    expect((await me('192.0.2.77', 'owner@example.com')).statusCode).toBe(200);
    const untrusted = await me('10.0.0.2', 'owner@example.com');
    expect(untrusted.statusCode).toBe(401);
    expect(untrusted.json()).toEqual({ detail: [{ msg: 'Could not validate credentials' }] });
    // A header that names no one known, or no address at all: 401.
    expect((await me('10.0.0.1', 'stranger@example.com')).statusCode).toBe(401);
    expect((await me('10.0.0.1', 'not an address')).statusCode).toBe(401);
  });

  it('without single sign-on, password sign-in cannot be turned off', async () => {
    const owner = await call(h.app, 'POST', '/default/auth/login', { body: { email: 'owner@example.com', password: 'correct horse battery' } });
    const res = await call(h.app, 'PUT', '/default/sign-in', { token: owner.body.token, body: { password_login: false } });
    expect(res.status).toBe(422);
    expect((await call(h.app, 'GET', '/default/auth/methods')).body).toEqual({ password: true, sso: null });
  });
});
