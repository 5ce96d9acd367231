import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { compileEverySchema } from './compilers.ts';

describe('route schemas compiled on first use', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every route schema compiles', () => {
    expect(() => compileEverySchema()).not.toThrow();
  });

  it('a route validates on its first request, with the contract error shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/default/auth/login', payload: { email: 42 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: expect.any(Array), type: expect.any(String) });
  });
});
