// The error catalogue through HTTP: every client mistake is a 4xx in the contract's shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ bodyLimit: 4096 });
  token = await register(t.app, 'owner@example.com');
});
afterAll(() => t.close());

describe('errors', () => {
  it('unknown route: 404 Not Found; wrong method: 405 with Allow', async () => {
    expect(await call(t.app, 'GET', '/nothing/here/at/all', { token })).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    const res = await call(t.app, 'PATCH', '/default/projects', { token });
    expect(res).toMatchObject({ status: 405, body: { detail: 'Method Not Allowed' } });
    expect(res.headers.allow).toBe('GET, POST');
  });

  it('accepts a trailing slash', async () => {
    expect((await call(t.app, 'GET', '/default/projects/', { token })).status).toBe(200);
  });

  it('malformed JSON is a 422 at the failing character, before authentication', async () => {
    const res = await call(t.app, 'POST', '/default/projects', { raw: '{"name": ' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 9], type: 'value_error.jsondecode' });
  });

  it('authentication comes before validation', async () => {
    expect((await call(t.app, 'POST', '/default/projects', { body: { name: 1 } })).status).toBe(401);
  });

  it('oversized bodies are a 413', async () => {
    const res = await call(t.app, 'POST', '/default/projects', { token, body: { name: 'x'.repeat(5000), organization: {} } });
    expect(res.status).toBe(413);
    expect(res.body.detail[0].msg).toMatch(/larger than 4096 bytes/);
  });

  it('other media types are a 415', async () => {
    const res = await call(t.app, 'POST', '/default/projects', { token, raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.detail[0].msg).toBeTypeOf('string');
  });

  it('an empty JSON body is a missing body, not a parse error', async () => {
    const res = await call(t.app, 'DELETE', '/default/projects/424242', { token, raw: '' });
    expect(res.status).toBe(404);
  });

  it('path and body types are 422 with Pydantic items', async () => {
    const path = await call(t.app, 'GET', '/default/projects/abc', { token });
    expect(path.body.detail).toEqual([{ loc: ['path', 'project_id'], msg: 'value is not a valid integer', type: 'type_error.integer' }]);
    const big = await call(t.app, 'GET', '/default/projects/99999999999', { token });
    expect(big.status).toBe(422);
    const body = await call(t.app, 'POST', '/default/projects', { token, body: [] });
    expect(body.status).toBe(422);
    const nul = await call(t.app, 'POST', '/default/projects', { token, raw: 'null' });
    expect(nul.status).toBe(422);
  });

  it('path and query integers are decimal digits: 1e309, 1e3, 0x10 and the like are 422, huge ones out of range', async () => {
    const integer = (param: string) => [{ loc: ['path', param], msg: 'value is not a valid integer', type: 'type_error.integer' }];
    for (const id of ['1e309', '1e3', '0x10', 'Infinity', '-Infinity', '1.0', '%2012', 'NaN']) {
      expect({ id, ...(await call(t.app, 'GET', `/organizations/${id}`, { token })) }).toMatchObject({
        id,
        status: 422,
        body: { detail: integer('organization_id') },
      });
      expect({ id, ...(await call(t.app, 'GET', `/default/projects/${id}`, { token })) }).toMatchObject({
        id,
        status: 422,
        body: { detail: integer('project_id') },
      });
    }
    const huge = await call(t.app, 'GET', `/organizations/${'9'.repeat(400)}`, { token });
    expect(huge.status).toBe(422);
    expect(huge.body.detail[0]).toMatchObject({ loc: ['path', 'organization_id'], type: 'value_error.number.not_le' });
    expect((await call(t.app, 'GET', '/organizations/-1', { token })).body.detail[0].type).toBe('value_error.number.not_ge');
    // -0 is 0, which is no organization.
    expect((await call(t.app, 'GET', '/organizations/-0', { token })).status).toBe(404);
    expect((await call(t.app, 'GET', '/default/projects/-0', { token })).status).toBe(404);
    const page = await call(t.app, 'GET', '/default/projects', { token, query: { page: '1e309', itemsPerPage: '0x10' } });
    expect(page.status).toBe(422);
    expect(page.body.detail.map((d: any) => d.loc.join('.')).sort()).toEqual(['query.itemsPerPage', 'query.page']);
    // Unauthenticated, a malformed id is still a 401 first.
    expect((await call(t.app, 'GET', '/organizations/1e309')).status).toBe(401);
  });

  it('numbers JSON cannot hold (1e309 reads as Infinity) are 422 in bodies', async () => {
    const res = await call(t.app, 'POST', '/default/projects', { token, raw: '{"name": "Infinite", "organization": {}, "annual_employee_cost": 1e309}' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'annual_employee_cost'], msg: 'value is not a valid integer', type: 'type_error.integer' }]);
  });

  it('a slug built to backtrack is checked in linear time: 422, the contract pattern named', async () => {
    // `^[\w]+(?:_[\w]+)*$` run as written tries every split of the underscores: this would not answer for minutes.
    const slug = `${'a_'.repeat(40)}!`;
    const res = await call(t.app, 'POST', '/default/projects', { token, body: { name: 'Slugged', organization: { slug } } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        loc: ['body', 'organization', 'slug'],
        msg: 'string does not match regex "^[\\w]+(?:_[\\w]+)*$"',
        type: 'value_error.str.regex',
        ctx: { pattern: '^[\\w]+(?:_[\\w]+)*$' },
      },
    ]);
    expect((await call(t.app, 'POST', '/default/projects', { token, body: { name: 'Slugged', organization: { slug: 'a_b_c' } } })).status).toBe(200);
  });

  it('strings are trimmed before validation', async () => {
    const res = await call(t.app, 'POST', '/default/projects', { token, body: { name: '  ab  ', organization: {} } });
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'value_error.any_str.min_length' });
    const ok = await call(t.app, 'POST', '/default/projects', { token, body: { name: '  Trimmed  ', organization: {} } });
    expect(ok.body.name).toBe('Trimmed');
  });

  it('never answers 5xx to hostile input', async () => {
    const inputs: { method: string; path: string; query?: unknown; body?: unknown; raw?: string }[] = [
      { method: 'GET', path: '/default/projects', query: { filter: '{"field":"name","op":"==","value":"\\u0000"}' } },
      { method: 'GET', path: '/default/projects', query: { 'sortBy[]': 'name; DROP TABLE project', 'descending[]': 'true' } },
      { method: 'GET', path: '/default/projects', query: { q: '\'"():*&|!<->\\' } },
      { method: 'GET', path: '/default/projects', query: { 'descending[]': 'maybe', 'sortBy[]': 'name' } },
      { method: 'POST', path: '/default/projects', body: { name: 'Nul \u0000 byte', organization: {} } },
      { method: 'POST', path: '/default/projects', raw: '{"name":"Proto","organization":{},"__proto__":{"admin":true},"constructor":{"prototype":{}}}' },
      { method: 'POST', path: '/organizations', body: { name: '!!!' } },
      { method: 'GET', path: '/organizations/0' },
      { method: 'GET', path: '/ab/projects' },
    ];
    for (const i of inputs) {
      const res = await call(t.app, i.method, i.path, { token, query: i.query as never, body: i.body, raw: i.raw });
      expect({ i, status: res.status }).toEqual({ i, status: expect.toSatisfy((s: number) => s < 500) });
      if (res.status >= 400) expect(res.body).toHaveProperty('detail');
    }
  });
});
