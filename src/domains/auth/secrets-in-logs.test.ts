// No log line carries a password, a session or API token, or a reset link: every request of the
// account flows runs with the server logging at its most talkative level, and the log is searched.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { startPasswordReset } from './account.ts';

let t: TestApp;
let log = '';

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      log += chunk.toString();
      done();
    },
  });
  t = await createTestApp({ logLevel: 'trace' }, { logger: { level: 'trace', stream } });
});
afterAll(() => t.close());

describe('logs', () => {
  it('carry no password, token or link, whatever the request', async () => {
    const password = 'a password to look for';
    const token = await register(t.app, 'owner@example.com', 'default', password);
    await call(t.app, 'POST', '/default/auth/login', { body: { email: 'owner@example.com', password } });
    await call(t.app, 'POST', '/default/auth/login', { body: { email: 'owner@example.com', password: 'a wrong one to look for' } });
    const apiToken = (await call(t.app, 'POST', '/default/api-tokens', { token, body: { name: 'script' } })).body.token as string;
    expect(apiToken).toMatch(/^mst_/);
    await call(t.app, 'GET', '/default/incidents', { token: apiToken });
    const { link } = await startPasswordReset(t.app.muster.db, t.settings, 'owner@example.com', { id: 1, slug: 'default' }, { returnLink: true });
    const reset = new URL(link!).searchParams.get('token')!;
    const changed = await call(t.app, 'POST', '/default/auth/password-reset/complete', { body: { token: reset, password: 'the new password to look for' } });
    expect(changed.status).toBe(200);
    await call(t.app, 'POST', '/default/auth/password', {
      token: changed.body.token,
      body: { current_password: 'the new password to look for', new_password: 'the newest password to look for' },
    });

    expect(log).toContain('incoming request'); // the log was written, at trace level
    for (const secret of [password, 'a wrong one to look for', 'the new password to look for', 'the newest password to look for', token, apiToken, reset]) {
      expect(log.includes(secret), `the log holds ${secret.slice(0, 12)}...`).toBe(false);
    }
  });
});
