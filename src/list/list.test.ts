// The list engine through a real list (projects, users), over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let token: string;
const list = (query: Record<string, string | number | boolean | (string | number | boolean)[]>) => call(t.app, 'GET', '/default/projects', { token, query });
const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((p) => p.name);
const filter = (spec: unknown) => ({ filter: JSON.stringify(spec), itemsPerPage: -1, 'sortBy[]': 'name', 'descending[]': false });

beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
  const projects = [
    { name: 'Alpha Security', description: 'Phishing and malware response', annual_employee_cost: 100000, owner_email: 'a@example.com' },
    { name: 'Beta Network', description: 'Network outages', annual_employee_cost: 80000 },
    { name: 'Gamma Data', description: 'Data breach handling and security reviews', annual_employee_cost: 60000, owner_email: 'g@example.com' },
    { name: 'Delta Cloud', description: 'Cloud incidents', annual_employee_cost: 60000 },
  ];
  for (const p of projects) await call(t.app, 'POST', '/default/projects', { token, body: { ...p, organization: {} } });
});
afterAll(() => t.close());

describe('paging', () => {
  it('defaults to page 1 of 5 and clamps itemsPerPage to the total', async () => {
    const res = await list({});
    expect(res.body).toMatchObject({ page: 1, itemsPerPage: 5, total: 5 });
    const small = await list({ filter: JSON.stringify([{ field: 'name', op: 'like', value: '%a%' }]) });
    expect(small.body.itemsPerPage).toBe(small.body.total);
  });

  it('pages without overlap, in a stable order', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list({ page, itemsPerPage: 2, 'sortBy[]': 'annual_employee_cost', 'descending[]': true });
      expect(res.body).toMatchObject({ page, total: 5, itemsPerPage: 2 });
      seen.push(...names(res));
    }
    expect(new Set(seen).size).toBe(5);
  });

  it('-1 returns everything, 0 returns no items but the total, past the end is empty', async () => {
    expect((await list({ itemsPerPage: -1 })).body).toMatchObject({ itemsPerPage: 5, total: 5 });
    expect((await list({ itemsPerPage: -2 })).body.items).toHaveLength(5);
    expect((await list({ itemsPerPage: 0 })).body).toMatchObject({ items: [], itemsPerPage: 0, total: 5 });
    expect((await list({ page: 9 })).body).toMatchObject({ items: [], page: 9, total: 5 });
    expect((await list({ page: 0 })).body.page).toBe(1);
  });

  it('rejects bounds and types with 422', async () => {
    for (const [query, loc] of [
      [{ page: -1 }, 'page'],
      [{ itemsPerPage: -3 }, 'itemsPerPage'],
      [{ page: 'x' }, 'page'],
      [{ page: 2 ** 31 }, 'page'],
    ] as const) {
      const res = await list(query);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', loc]);
    }
    const q = await list({ q: 'café' });
    expect(q.status).toBe(422);
    expect(q.body.detail[0]).toMatchObject({ loc: ['query', 'q'], type: 'value_error.str.regex' });
  });
});

describe('q', () => {
  it('matches word prefixes across name and description, ranked', async () => {
    expect(names(await list({ q: 'secur' }))).toEqual(['Alpha Security', 'Gamma Data']);
    expect(names(await list({ q: 'data breach' }))).toEqual(['Gamma Data']);
    expect(names(await list({ q: 'network or cloud', 'sortBy[]': 'name', 'descending[]': false }))).toEqual(['Beta Network', 'Delta Cloud']);
    expect(names(await list({ q: 'secur -gamma' }))).toEqual(['Alpha Security']);
    expect(names(await list({ q: '"breach handling"' }))).toEqual(['Gamma Data']);
    expect(names(await list({ q: '"handling breach"' }))).toEqual([]);
    expect((await list({ q: '   ' })).body.total).toBe(5);
  });

  it('collapses repeated negations and bounds what it builds: 422 on q past the bounds, never 500', async () => {
    expect(names(await list({ q: `secur ${'-'.repeat(33)}gamma` }))).toEqual(['Alpha Security']);
    expect(names(await list({ q: `${'-'.repeat(34)}secur`, 'sortBy[]': 'name', 'descending[]': false }))).toEqual(['Alpha Security', 'Gamma Data']);
    expect(names(await list({ q: `${'('.repeat(32)}gamma${')'.repeat(32)}` }))).toEqual(['Gamma Data']);
    for (const [q, limit] of [
      [`${'('.repeat(33)}gamma`, 32],
      [`${'('.repeat(8000)}gamma`, 32],
      [Array.from({ length: 257 }, (_, i) => `w${i}`).join(' '), 256],
      [`"${Array.from({ length: 257 }, (_, i) => `w${i}`).join(' ')}"`, 256],
    ] as const) {
      const res = await list({ q });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ['query', 'q'], msg: expect.any(String), type: 'value_error.search.too_complex', ctx: { limit_value: limit } }]);
    }
  });
});

describe('names a client sends', () => {
  it('are own fields only: __proto__, constructor and toString filter as 422 and sort as nothing, never 500', async () => {
    for (const field of ['__proto__', 'constructor', 'toString', 'organization.__proto__']) {
      const sort = await list({ 'sortBy[]': field, 'descending[]': true });
      expect({ field, status: sort.status, total: sort.body.total }).toEqual({ field, status: 200, total: 5 });
      const filtered = await list({ filter: JSON.stringify([{ field: field.split('.').at(-1), value: 1 }]) });
      expect({ field, status: filtered.status, type: filtered.body.detail?.[0]?.type }).toEqual({ field, status: 422, type: 'value_error.not_found.field' });
    }
    const op = await list({ filter: JSON.stringify([{ field: 'name', op: 'constructor', value: 'x' }]) });
    expect(op.status).toBe(422);
    expect(op.body.detail[0].msg).toBe('Operator `constructor` not valid.');
  });
});

describe('sorting', () => {
  it('pairs sortBy[] with descending[] and ignores sortBy[] without a direction', async () => {
    expect(names(await list({ 'sortBy[]': 'annual_employee_cost', 'descending[]': true })).slice(0, 2)).toEqual(['Alpha Security', 'Beta Network']);
    expect(names(await list({ 'sortBy[]': ['annual_employee_cost', 'name'], 'descending[]': [false, true] })).slice(0, 3)).toEqual([
      'default',
      'Gamma Data',
      'Delta Cloud',
    ]);
    expect(names(await list({ 'sortBy[]': 'name' }))).toEqual(names(await list({})));
  });

  it('sorts by a dotted field of a related table', async () => {
    const res = await list({ 'sortBy[]': ['organization.name', 'name'], 'descending[]': [false, false] });
    expect(res.status).toBe(200);
    expect(names(res)[0]).toBe('Alpha Security');
  });

  it('ignores a sort on a field it does not know, as 0.1.0 did, and keeps the others', async () => {
    const byCost = names(await list({ 'sortBy[]': 'annual_employee_cost', 'descending[]': true }));
    for (const field of ['password', 'nope.name', 'organization.secret']) {
      const res = await list({ 'sortBy[]': [field, 'annual_employee_cost'], 'descending[]': [false, true] });
      expect({ field, status: res.status }).toEqual({ field, status: 200 });
      expect(names(res)).toEqual(byCost);
    }
  });

  it('ignores a sort through related records there are many of', async () => {
    const res = await call(t.app, 'GET', '/default/users', { token, query: { 'sortBy[]': 'project.name', 'descending[]': true } });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
  });
});

describe('filter', () => {
  it('supports every operator', async () => {
    const cases: [unknown, string[]][] = [
      [{ field: 'name', op: '==', value: 'Beta Network' }, ['Beta Network']],
      [{ field: 'name', value: 'Beta Network' }, ['Beta Network']],
      [{ field: 'annual_employee_cost', op: 'eq', value: 60000 }, ['Delta Cloud', 'Gamma Data']],
      [{ field: 'annual_employee_cost', op: 'ne', value: 60000 }, ['Alpha Security', 'Beta Network', 'default']],
      [{ field: 'annual_employee_cost', op: '>', value: 60000 }, ['Alpha Security', 'Beta Network']],
      [{ field: 'annual_employee_cost', op: 'gt', value: '80000' }, ['Alpha Security']],
      [{ field: 'annual_employee_cost', op: '<', value: 60000 }, ['default']],
      [{ field: 'annual_employee_cost', op: '>=', value: 80000 }, ['Alpha Security', 'Beta Network']],
      [{ field: 'annual_employee_cost', op: 'le', value: 60000 }, ['Delta Cloud', 'Gamma Data', 'default']],
      [{ field: 'name', op: 'like', value: '%ta%' }, ['Beta Network', 'Delta Cloud', 'Gamma Data']],
      [{ field: 'name', op: 'like', value: '%TA%' }, []],
      [{ field: 'name', op: 'ilike', value: '%TA%' }, ['Beta Network', 'Delta Cloud', 'Gamma Data']],
      [{ field: 'name', op: 'not_ilike', value: '%TA%' }, ['Alpha Security', 'default']],
      [{ field: 'name', op: 'in', value: ['Alpha Security', 'default', 'Nope'] }, ['Alpha Security', 'default']],
      [{ field: 'name', op: 'not_in', value: ['Alpha Security', 'default'] }, ['Beta Network', 'Delta Cloud', 'Gamma Data']],
      [{ field: 'name', op: 'in', value: [] }, []],
      [{ field: 'owner_email', op: 'is_null' }, ['Beta Network', 'Delta Cloud', 'default']],
      [{ field: 'owner_email', op: 'is_not_null' }, ['Alpha Security', 'Gamma Data']],
      [{ field: 'owner_email', op: '==', value: null }, ['Beta Network', 'Delta Cloud', 'default']],
      [{ field: 'default', op: '==', value: true }, ['default']],
      [{ field: 'created_at', op: '<', value: '2000-01-01T00:00:00Z' }, []],
      [{ model: 'Organization', field: 'slug', op: '==', value: 'default' }, ['Alpha Security', 'Beta Network', 'Delta Cloud', 'Gamma Data', 'default']],
      [{ model: 'Project', field: 'name', op: 'ilike', value: 'd%' }, ['Delta Cloud', 'default']],
    ];
    for (const [spec, expected] of cases) {
      const res = await list(filter(spec));
      expect({ spec, status: res.status, names: res.status === 200 ? names(res).sort() : res.body }).toEqual({
        spec,
        status: 200,
        names: [...expected].sort(),
      });
    }
  });

  it('combines with and, or, not, lists and nesting', async () => {
    const spec = {
      and: [
        {
          or: [
            { field: 'name', op: 'ilike', value: '%a%' },
            { field: 'default', value: true },
          ],
        },
        { not: [{ field: 'annual_employee_cost', op: '>=', value: 100000 }] },
        [{ field: 'owner_email', op: 'is_null' }],
      ],
    };
    expect(names(await list(filter(spec))).sort()).toEqual(['Beta Network', 'Delta Cloud', 'default']);
    // the web UI's shape
    const ui = { and: [{ or: [{ model: 'Project', field: 'name', op: '==', value: 'Gamma Data' }] }] };
    expect(names(await list(filter(ui)))).toEqual(['Gamma Data']);
  });

  it('filters through a many-relation without repeating rows', async () => {
    const res = await call(t.app, 'GET', '/default/users', {
      token,
      query: { filter: JSON.stringify([{ model: 'Project', field: 'name', op: 'in', value: ['default', 'Alpha Security'] }]) },
    });
    expect(res.body.total).toBe(1);
  });

  it('answers 422 with the filter named for malformed filters', async () => {
    const bad: [string, string][] = [
      ['{not json', 'value_error.json'],
      [JSON.stringify({ field: 'name', op: 'regex', value: 'x' }), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'password', value: 'x' }), 'value_error.not_found.field'],
      [JSON.stringify({ model: 'DispatchUser', field: 'password', value: 'x' }), 'value_error.not_found.model'],
      [JSON.stringify({ model: 'Organization', field: 'banner_text', value: 'x' }), 'value_error.not_found.field'],
      [JSON.stringify({ op: '==', value: 'x' }), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'name', op: '==' }), 'value_error.invalid.filter'],
      [JSON.stringify({ and: [] }), 'value_error.invalid.filter'],
      [
        JSON.stringify({
          not: [
            { field: 'name', value: 'a' },
            { field: 'name', value: 'b' },
          ],
        }),
        'value_error.invalid.filter',
      ],
      [JSON.stringify({ or: { field: 'name', value: 'a' } }), 'value_error.invalid.filter'],
      [JSON.stringify(42), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'annual_employee_cost', value: 'lots' }), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'created_at', op: '>', value: 'yesterday' }), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'name', op: 'in', value: 'x' }), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'name', op: 'any', value: 'x' }), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'name', op: 'ilike', value: 5 }), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'name', value: { $ne: 1 } }), 'value_error.invalid.filter'],
      [JSON.stringify({ field: 'name', value: 'x', extra: 1 }), 'value_error.invalid.filter'],
      [JSON.stringify(Array.from({ length: 40 }).reduce((acc) => ({ not: [acc] }), { field: 'name', value: 'x' })), 'value_error.invalid.filter'],
    ];
    for (const [text, type] of bad) {
      const res = await list({ filter: text });
      expect({ text, status: res.status, type: res.body.detail?.[0]?.type }).toEqual({ text, status: 422, type });
    }
  });

  it('takes what the web UI sends: booleans as strings, leaves without a model', async () => {
    const ui = (value: unknown) => filter({ and: [{ or: [{ field: 'default', op: '==', value }] }] });
    expect(names(await list(ui('true')))).toEqual(['default']);
    expect(names(await list(ui('false'))).sort()).toEqual(['Alpha Security', 'Beta Network', 'Delta Cloud', 'Gamma Data']);
    expect(names(await list(filter([{ field: 'default', op: 'in', value: ['true'] }])))).toEqual(['default']);
    expect((await list(ui('yes'))).status).toBe(422);
  });

  it('treats an empty filter as none', async () => {
    expect((await list({ filter: '' })).body.total).toBe(5);
    expect((await list({ filter: '[]' })).body.total).toBe(5);
  });
});
