import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, register, type TestApp } from '../../test/helpers.ts';
import { etagOf, matches } from './etag.ts';

describe('conditional GETs', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await register(t.app, 'etag@example.com');
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...headers } });

  it('tags a GET answer, answers 304 while it holds and 200 with a new tag once the record changes', async () => {
    const first = await get('/api/v1/default/projects/1');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toBe(etagOf(first.body));
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const again = await get('/api/v1/default/projects/1', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const project = first.json();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/default/projects/1',
      headers: { authorization: `Bearer ${token}` },
      payload: { ...project, description: 'changed' },
    });
    expect(put.statusCode).toBe(200);
    const changed = await get('/api/v1/default/projects/1', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().description).toBe('changed');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('leaves errors and writes untagged', async () => {
    const missing = await get('/api/v1/default/projects/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('compares weakly, in lists and with *', () => {
    expect(matches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(matches('"abc"', 'W/"abc"')).toBe(true);
    expect(matches('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(matches('*', 'W/"abc"')).toBe(true);
    expect(matches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(matches(undefined, 'W/"abc"')).toBe(false);
  });
});
