// Deeply nested JSON through HTTP: refused with 422 before anything walks it, on every route,
// unauthenticated ones included, and in the `filter` query parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../test/helpers.ts';
import { jsonDepthPast, MAX_JSON_DEPTH } from './json-body.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
});
afterAll(() => t.close());

/** `levels` arrays, one inside the other, as JSON text. */
const arrays = (levels: number, inner = '') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
const depthError = { loc: ['body'], type: 'value_error.json.depth', ctx: { limit_value: MAX_JSON_DEPTH } };

describe('JSON nesting depth', () => {
  it('measures depth without counting brackets inside strings', () => {
    expect(jsonDepthPast(arrays(3), 3)).toBe(-1);
    expect(jsonDepthPast(arrays(4), 3)).toBe(3);
    expect(jsonDepthPast(`{"a":"${'['.repeat(50)}\\"${'{'.repeat(50)}"}`, 3)).toBe(-1);
    expect(jsonDepthPast(`[{"a":[{"b":1}]}]`, 3)).toBe(7);
  });

  it('refuses a body of 5,000 nested arrays with 422 on every route, before authentication', async () => {
    const raw = `{"title": ${arrays(5000)}}`;
    for (const [method, path, auth] of [
      ['POST', '/default/auth/login', false],
      ['POST', '/default/incidents', true],
      ['PUT', '/default/projects/1', true],
      ['POST', '/organizations', false],
    ] as const) {
      const res = await call(t.app, method, path, { raw, token: auth ? token : undefined });
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
      expect(res.body.detail).toEqual([expect.objectContaining(depthError)]);
    }
  });

  it('accepts a body at the limit and refuses one level more', async () => {
    // The body object is one level, the description's arrays the rest.
    const body = (levels: number) => `{"name": "Deep project", "organization": {}, "description": ${arrays(levels - 1)}}`;
    const at = await call(t.app, 'POST', '/default/projects', { token, raw: body(MAX_JSON_DEPTH) });
    expect(at.status).toBe(422);
    expect(at.body.detail[0]).toMatchObject({ loc: ['body', 'description'], type: 'type_error.str' });
    const past = await call(t.app, 'POST', '/default/projects', { token, raw: body(MAX_JSON_DEPTH + 1) });
    expect(past.status).toBe(422);
    expect(past.body.detail).toEqual([expect.objectContaining(depthError)]);
  });

  it("refuses a signal instance's deep raw: past the body's limit on the body, within it on raw", async () => {
    const body = (levels: number) => `{"project": {"name": "default"}, "raw": {"variant": "x", "deep": ${arrays(levels)}}}`;
    const huge = await call(t.app, 'POST', '/default/signals/instances', { token, raw: body(4100) });
    expect(huge.status).toBe(422);
    expect(huge.body.detail).toEqual([expect.objectContaining(depthError)]);
    const deep = await call(t.app, 'POST', '/default/signals/instances', { token, raw: body(100) });
    expect(deep.status).toBe(422);
    expect(deep.body.detail[0]).toMatchObject({ loc: ['body', 'raw'], type: 'value_error.raw.depth' });
  });

  it('refuses a filter nested past the limit, its values included', async () => {
    const deepValue = `{"field": "name", "op": "in", "value": ${arrays(5000, '"x"')}}`;
    for (const filter of [arrays(5000), deepValue]) {
      const res = await call(t.app, 'GET', '/default/projects', { token, query: { filter } });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['query', 'filter'], type: 'value_error.json.depth' });
    }
    // Within the limit, a nested value is simply not a value for the field.
    const shallow = await call(t.app, 'GET', '/default/projects', { token, query: { filter: `{"field": "name", "op": "in", "value": ${arrays(3, '"x"')}}` } });
    expect(shallow.status).toBe(422);
    expect(shallow.body.detail[0].type).toBe('value_error.invalid.filter');
  });
});
