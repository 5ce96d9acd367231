import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('healthcheck', () => {
  it('answers without auth', async () => {
    const res = await call(t.app, 'GET', '/healthcheck');
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
  it('lists projects for a registered user', async () => {
    const token = await register(t.app, 'first@example.com');
    const res = await call(t.app, 'GET', '/default/projects', { token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { name: string }) => p.name)).toEqual(['default']);
  });
});
