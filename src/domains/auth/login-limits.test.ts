// Failed logins are bounded per account and client address together, and per client address, counted
// in the database: past the limit, 429 with Retry-After, for unknown accounts as for known ones. A
// stranger's guesses never lock the account's own person out. A successful login starts the count of
// its account and address again.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { loginFailure } from './table.ts';

let t: TestApp;
let n = 0;

/** A login from `address` (each test uses addresses of its own). */
async function login(email: string, password: string, address: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/default/auth/login',
    remoteAddress: address,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

beforeAll(async () => {
  t = await createTestApp({ loginMaxFailures: 3, loginMaxFailuresPerAddress: 5, loginFailureWindow: 600 });
  await register(t.app, 'owner@example.com');
  await register(t.app, 'alice@example.com', 'default', 'right password');
  await register(t.app, 'bob@example.com', 'default', 'right password');
});
afterAll(() => t.close());

const address = () => `10.0.0.${++n}`;

describe('failed logins', () => {
  it('past the limit an account answers 429 with Retry-After to that address, even to the right password', async () => {
    const attacker = address();
    for (let i = 0; i < 3; i++) expect((await login('alice@example.com', 'wrong', attacker)).status).toBe(422);
    const refused = await login('alice@example.com', 'right password', attacker);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: [{ msg: 'Too many failed logins. Try again later.' }] });
    const retry = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 600).toBe(true);
    // Once the window is over, the count starts again.
    await t.database.db.execute(
      sql`UPDATE ${loginFailure} SET window_start = now() - interval '601 seconds' WHERE key = ${`account:alice@example.com|${attacker}`}`,
    );
    expect((await login('Alice@Example.com', 'right password', attacker)).status).toBe(200);
  });

  it("a stranger's failures never lock the account's own person out", async () => {
    // Before: five wrong passwords from anywhere locked the account for everyone for the window.
    for (let round = 0; round < 3; round++) {
      const stranger = address();
      for (let i = 0; i < 4; i++) await login('bob@example.com', 'wrong', stranger);
      expect((await login('bob@example.com', 'wrong', stranger)).status).toBe(429);
    }
    expect((await login('bob@example.com', 'right password', address())).status).toBe(200);
  });

  it('an unknown account answers as a known one does', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    const [a, b] = [address(), address()];
    for (let i = 0; i < 4; i++) {
      known.push((await login('bob@example.com', 'wrong', a)).status);
      unknown.push((await login('nobody@example.com', 'wrong', b)).status);
    }
    expect(known).toEqual([422, 422, 422, 429]);
    expect(unknown).toEqual(known);
  });

  it('a successful login starts the count of that account and address again', async () => {
    await register(t.app, 'carol@example.com', 'default', 'right password');
    const from = address();
    for (let i = 0; i < 2; i++) expect((await login('carol@example.com', 'wrong', from)).status).toBe(422);
    expect((await login('carol@example.com', 'right password', from)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login('carol@example.com', 'wrong', from)).status).toBe(422);
    expect((await login('carol@example.com', 'wrong', from)).status).toBe(429);
  });

  it('one address trying many accounts is stopped too', async () => {
    const from = address();
    for (let i = 0; i < 5; i++) expect((await login(`guess${i}@example.com`, 'wrong', from)).status).toBe(422);
    const refused = await login('guess-next@example.com', 'wrong', from);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect((await login('guess-next@example.com', 'wrong', address())).status).toBe(422);
  });

  it('sign-ins and failed sign-ins are in the audit log, never with the password', async () => {
    const from = address();
    await login('alice@example.com', 'a wrong guess', from);
    await login('alice@example.com', 'right password', from);
    const rows = (await t.database.db.execute(sql`SELECT action, actor_email, address, details FROM audit_log WHERE address = ${from} ORDER BY id`)).rows;
    expect(rows.map((r: any) => r.action)).toEqual(['auth.login_failed', 'auth.login']);
    expect(JSON.stringify(rows)).not.toContain('wrong guess');
    expect(JSON.stringify(rows)).not.toContain('right password');
  });
});
