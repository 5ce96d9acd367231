// A list's total kept between pages (count-cache.ts), through the incidents list over HTTP: exact
// after every kind of write, and deep pages (read from the other end once the total is known) the
// same rows as a whole list cut into pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../test/helpers.ts';
import { versionedTables } from './count-cache.ts';

let t: TestApp;
let owner: string;
let member: string;
const ids: number[] = [];

type Query = Record<string, string | number | boolean | (string | number | boolean)[]>;
const list = (query: Query, token = owner) => call(t.app, 'GET', '/default/incidents', { token, query });
const newest = { 'sortBy[]': 'reported_at', 'descending[]': true };
const total = async (query: Query = {}, token = owner) => (await list({ itemsPerPage: 1, ...query }, token)).body.total;

async function create(title: string) {
  const res = await call(t.app, 'POST', '/default/incidents', { token: owner, body: { title, description: `${title}.`, project: { name: 'default' } } });
  expect(res.status).toBe(200);
  return res.body;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  for (let i = 1; i <= 7; i++) ids.push((await create(`Incident ${i}`)).id);
});
afterAll(() => t.close());

describe('a list total kept between pages', () => {
  it('follows creates and deletes', async () => {
    expect(await total()).toBe(7);
    expect(await total()).toBe(7);
    const made = await create('Incident 8');
    expect(await total()).toBe(8);
    expect((await call(t.app, 'DELETE', `/default/incidents/${made.id}`, { token: owner })).status).toBe(200);
    expect(await total()).toBe(7);
  });

  it('follows updates of what the filter and the viewer see', async () => {
    const open = { filter: JSON.stringify([{ field: 'visibility', op: '==', value: 'Open' }]) };
    expect(await total(open)).toBe(7);
    expect(await total({}, member)).toBe(7);
    const incident = (await call(t.app, 'GET', `/default/incidents/${ids[0]}`, { token: owner })).body;
    const res = await call(t.app, 'PUT', `/default/incidents/${ids[0]}`, { token: owner, body: { ...incident, visibility: 'Restricted' } });
    expect(res.status).toBe(200);
    expect(await total(open)).toBe(6);
    expect(await total({}, member)).toBe(6);
    expect(await total()).toBe(7);
  });

  it('reads deep pages from the other end, the same rows in the same order', async () => {
    const all = (await list({ itemsPerPage: -1, ...newest })).body.items.map((i: { id: number }) => i.id);
    expect(all).toHaveLength(7);
    for (const size of [2, 3]) {
      await list({ page: 1, itemsPerPage: size, ...newest });
      const paged: number[] = [];
      for (let page = 1; page <= Math.ceil(7 / size) + 1; page++) {
        const res = await list({ page, itemsPerPage: size, ...newest });
        expect(res.body).toMatchObject({ page, total: 7 });
        paged.push(...res.body.items.map((i: { id: number }) => i.id));
      }
      expect(paged).toEqual(all);
    }
  });
});

describe('the tables a count reads', () => {
  it('are kept only when every one of them is versioned', () => {
    expect(versionedTables('select count(*)::int from "incident" where ("incident"."organization_id" = $1)')).toEqual(['incident']);
    expect(
      versionedTables(
        'select count(*)::int from "case" left join "case_priority" on x where "case"."id" IN (SELECT "participant"."case_id" FROM "participant")',
      ),
    ).toEqual(['case', 'case_priority', 'participant']);
    expect(versionedTables('select count(*)::int from "incident" where exists (select 1 from "task" where x)')).toBeUndefined();
  });
});
