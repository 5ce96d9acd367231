// Dates without a zone in filters read as UTC, over HTTP. This file runs in a process of its own
// (vitest's forks pool) set to a zone far from UTC, where JavaScript would read them as local time.
process.env.TZ = 'America/New_York';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
});
afterAll(() => t.close());

describe('a date without a zone', () => {
  it('is UTC, as the web UI means it (`2026-10-01T00:00:00.000`)', async () => {
    expect(new Date('2026-10-01T00:00:00.000').getTimezoneOffset()).not.toBe(0);
    const before = Date.now() - 1000;
    await call(t.app, 'POST', '/default/projects', { token, body: { name: 'Fresh', organization: {} } });
    const after = Date.now() + 1000;
    const zoneless = (ms: number) => new Date(ms).toISOString().replace('Z', '');
    const window = (from: string, to: string) =>
      call(t.app, 'GET', '/default/projects', {
        token,
        query: {
          filter: JSON.stringify({
            and: [
              { model: 'Project', field: 'created_at', op: '>=', value: from },
              { model: 'Project', field: 'created_at', op: '<=', value: to },
            ],
          }),
        },
      });
    const res = await window(zoneless(before), zoneless(after));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect((await window(zoneless(before).replace('T', ' '), zoneless(after).replace('T', ' '))).body.total).toBe(1);
    // With a zone it is read as written.
    expect((await window(`${zoneless(before)}-04:00`, `${zoneless(after)}-04:00`)).body.total).toBe(0);
  });
});
