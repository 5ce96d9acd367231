import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { hashPassword, verifyPassword } from './password.ts';
import bcrypt from 'bcryptjs';
import { appUser } from './table.ts';
import { eq } from 'drizzle-orm';

let t: TestApp;
let owner: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'Owner@Example.com');
});
afterAll(() => t.close());

describe('register', () => {
  it('makes the first user Owner of default and later users Members', async () => {
    const me = await call(t.app, 'GET', '/default/auth/me', { token: owner });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'owner@example.com', role: null });
    expect(me.body.organizations).toEqual([expect.objectContaining({ role: 'Owner', organization: expect.objectContaining({ slug: 'default' }) })]);
    expect(me.body.projects).toEqual([expect.objectContaining({ default: true, project: expect.objectContaining({ name: 'default' }) })]);

    const member = await register(t.app, 'member@example.com');
    const res = await call(t.app, 'GET', '/default/auth/me', { token: member });
    expect(res.body.organizations[0].role).toBe('Member');
  });

  it('gives no token for an email that is taken, whatever its case, and checks no password', async () => {
    const res = await call(t.app, 'POST', '/default/auth/register', { body: { email: 'OWNER@example.com', password: 'a long enough guess' } });
    expect(res).toMatchObject({ status: 200, body: { token: null } });
  });

  it('validates the body', async () => {
    const res = await call(t.app, 'POST', '/default/auth/register', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'email'], msg: 'value is not a valid email address', type: 'value_error.email' }]);
  });

  it('answers 404 for an unknown organization', async () => {
    const res = await call(t.app, 'POST', '/nowhere/auth/register', { body: { email: 'x@example.com', password: 'pw' } });
    expect(res.status).toBe(404);
    expect(res.body.detail[0].msg).toMatch(/Organization not found/);
  });

  it('is not served when registration is switched off', async () => {
    const closed = await createTestApp({ registrationEnabled: false });
    try {
      const res = await call(closed.app, 'POST', '/default/auth/register', { body: { email: 'x@example.com', password: 'pw' } });
      expect(res).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    } finally {
      await closed.close();
    }
  });

  it('gives a user without a password a random one', async () => {
    const res = await call(t.app, 'POST', '/default/auth/register', { body: { email: 'nopw@example.com' } });
    expect(res.status).toBe(200);
    const login = await call(t.app, 'POST', '/default/auth/login', { body: { email: 'nopw@example.com', password: '' } });
    expect(login.status).toBe(422);
  });
});

describe('login', () => {
  it('returns a token with exactly {email, exp} and the projects', async () => {
    const res = await call(t.app, 'POST', '/default/auth/login', { body: { email: 'owner@example.com', password: 'correct horse battery' } });
    expect(res.status).toBe(200);
    expect(res.body.projects[0].project.name).toBe('default');
    const [header, payload] = res.body.token
      .split('.')
      .slice(0, 2)
      .map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(Object.keys(payload).sort()).toEqual(['email', 'exp', 'iat']);
    expect(payload.email).toBe('owner@example.com');
    expect(payload.exp - Date.now() / 1000).toBeGreaterThan(86400 - 60);
  });

  it('answers both items on a wrong password or unknown user', async () => {
    for (const body of [
      { email: 'owner@example.com', password: 'wrong' },
      { email: 'ghost@example.com', password: 'wrong' },
    ]) {
      const res = await call(t.app, 'POST', '/default/auth/login', { body });
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc[0])).toEqual(['username', 'password']);
    }
  });

  it('accepts a bcrypt hash imported from Dispatch and replaces it with scrypt', async () => {
    await register(t.app, 'legacy@example.com');
    const legacy = bcrypt.hashSync('old secret', 4);
    await t.database.db.update(appUser).set({ password: legacy }).where(eq(appUser.email, 'legacy@example.com'));
    const res = await call(t.app, 'POST', '/default/auth/login', { body: { email: 'legacy@example.com', password: 'old secret' } });
    expect(res.status).toBe(200);
    const [row] = await t.database.db.select().from(appUser).where(eq(appUser.email, 'legacy@example.com'));
    expect(row.password.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('old secret', row.password)).toBe(true);
  });
});

describe('tokens', () => {
  it('401 without, with a malformed, forged or expired token', async () => {
    const forged = `${owner.slice(0, -4)}AAAA`;
    const { SignJWT } = await import('jose');
    const expired = await new SignJWT({ email: 'owner@example.com', exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('test-secret'));
    const otherKey = await new SignJWT({ email: 'owner@example.com', exp: Math.floor(Date.now() / 1000) + 100 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret'));
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Bearer' },
      { authorization: 'Basic abc' },
      { authorization: `Bearer ${forged}` },
      { authorization: `Bearer ${expired}` },
      { authorization: `Bearer ${otherKey}` },
    ]) {
      const res = await call(t.app, 'GET', '/default/auth/me', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: [{ msg: 'Could not validate credentials' }] });
    }
  });

  it('accepts the scheme in any case', async () => {
    const res = await call(t.app, 'GET', '/default/auth/me', { headers: { authorization: `bearer ${owner}` } });
    expect(res.status).toBe(200);
  });

  it('rejects a valid token whose user is gone', async () => {
    const token = await register(t.app, 'gone@example.com');
    await t.database.db.delete(appUser).where(eq(appUser.email, 'gone@example.com'));
    expect((await call(t.app, 'GET', '/default/auth/me', { token })).status).toBe(401);
  });
});

describe('passwords', () => {
  it('hash with scrypt and a fresh salt each time', async () => {
    const a = await hashPassword('pw', 10);
    const b = await hashPassword('pw', 10);
    expect(a).not.toBe(b);
    expect(await verifyPassword('pw', a)).toBe(true);
    expect(await verifyPassword('pW', a)).toBe(false);
  });

  it('hash at the cost asked for, and verify at the cost each hash names', async () => {
    const cheap = await hashPassword('pw', 10);
    const usual = await hashPassword('pw', 14);
    expect(cheap.split('$')[1]).toBe('1024');
    expect(usual.split('$')[1]).toBe('16384');
    expect(await verifyPassword('pw', cheap)).toBe(true);
    expect(await verifyPassword('pw', usual)).toBe(true);
    expect(await verifyPassword('pW', usual)).toBe(false);
  });

  it('a sign-in hashes again a password stored at a lower cost than MUSTER_PASSWORD_COST, and keeps a higher one', async () => {
    const app = await createTestApp({ passwordCost: 11 });
    try {
      await register(app.app, 'cost@example.com');
      const stored = async () => (await app.database.db.select().from(appUser).where(eq(appUser.email, 'cost@example.com')))[0].password;
      expect((await stored()).split('$')[1]).toBe('2048');
      const signIn = () => call(app.app, 'POST', '/default/auth/login', { body: { email: 'cost@example.com', password: 'correct horse battery' } });
      await app.database.db
        .update(appUser)
        .set({ password: await hashPassword('correct horse battery', 10) })
        .where(eq(appUser.email, 'cost@example.com'));
      expect((await signIn()).status).toBe(200);
      expect((await stored()).split('$')[1]).toBe('2048');
      expect(await verifyPassword('correct horse battery', await stored())).toBe(true);
      const higher = await hashPassword('correct horse battery', 12);
      await app.database.db.update(appUser).set({ password: higher }).where(eq(appUser.email, 'cost@example.com'));
      expect((await signIn()).status).toBe(200);
      expect(await stored()).toBe(higher);
    } finally {
      await app.close();
    }
  });
});
