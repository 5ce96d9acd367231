// Deep pages started from the marks a kept count took (page-marks.ts), through the incidents list
// over HTTP: the same rows in the same order as the whole list cut into pages, with ties on the sort
// key across marks, in both directions, and after writes that move every row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../test/helpers.ts';
import { keptMarks, MARK_EVERY, markFor, MOST_MARKS } from './page-marks.ts';

let t: TestApp;
let owner: string;
let member: string;
const COUNT = 3 * MARK_EVERY + 37;

type Query = Record<string, string | number | boolean | (string | number | boolean)[]>;
const list = (query: Query, token = owner) => call(t.app, 'GET', '/default/incidents', { token, query });
const idsOf = (body: { items: { id: number }[] }) => body.items.map((i) => i.id);

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  const first = await call(t.app, 'POST', '/default/incidents', {
    token: owner,
    body: { title: 'First', description: 'First.', project: { name: 'default' } },
  });
  expect(first.status).toBe(200);
  // Copies of it, three to a reported_at (ties the id breaks), every fifth Restricted.
  await t.database.query(
    `INSERT INTO incident (organization_id, project_id, title, description, status, visibility, incident_type_id, incident_priority_id,
                           incident_severity_id, reported_at, created_at)
     SELECT i.organization_id, i.project_id, 'Copy ' || g, 'A copy.', i.status, CASE WHEN g % 5 = 0 THEN 'Restricted' ELSE 'Open' END,
            i.incident_type_id, i.incident_priority_id, i.incident_severity_id, i.reported_at - (g / 3) * interval '1 minute', now()
     FROM incident i, generate_series(1, $1::int) g WHERE i.id = $2`,
    [COUNT - 1, first.body.id],
  );
});
afterAll(() => t.close());

/** Every page of `size` in turn, after a first page (which counts and marks). */
async function paged(query: Query, size: number, token = owner): Promise<{ ids: number[]; totals: number[] }> {
  await list({ ...query, page: 1, itemsPerPage: size }, token);
  const ids: number[] = [];
  const totals: number[] = [];
  for (let page = 1; page <= Math.ceil(COUNT / size) + 1; page++) {
    const res = await list({ ...query, page, itemsPerPage: size }, token);
    expect(res.status).toBe(200);
    totals.push(res.body.total);
    ids.push(...idsOf(res.body));
  }
  return { ids, totals };
}

describe('deep pages from marks', () => {
  for (const descending of [true, false]) {
    it(`are the whole list cut into pages (reported_at ${descending ? 'newest' : 'oldest'} first)`, async () => {
      const sort = { 'sortBy[]': 'reported_at', 'descending[]': descending };
      const all = idsOf((await list({ ...sort, itemsPerPage: -1 })).body);
      expect(all).toHaveLength(COUNT);
      for (const size of [7, 25, MARK_EVERY]) {
        const { ids, totals } = await paged(sort, size);
        expect(ids).toEqual(all);
        expect(new Set(totals)).toEqual(new Set([COUNT]));
      }
    });
  }

  it('see only what the viewer may see', async () => {
    const sort = { 'sortBy[]': 'reported_at', 'descending[]': true };
    const all = idsOf((await list({ ...sort, itemsPerPage: -1 }, member)).body);
    expect(all.length).toBeLessThan(COUNT);
    expect((await paged(sort, 25, member)).ids).toEqual(all);
  });

  it('follow a write that moves every row', async () => {
    const sort = { 'sortBy[]': 'reported_at', 'descending[]': true };
    const deep = { ...sort, page: (3 * MARK_EVERY) / 25 + 1, itemsPerPage: 25 };
    const before = (await list(deep)).body;
    const made = await call(t.app, 'POST', '/default/incidents', {
      token: owner,
      body: { title: 'Newest', description: 'Newest.', project: { name: 'default' } },
    });
    expect(made.status).toBe(200);
    const after = (await list(deep)).body;
    expect(after.total).toBe(before.total + 1);
    const all = idsOf((await list({ ...sort, itemsPerPage: -1 })).body);
    expect(idsOf(after)).toEqual(all.slice(3 * MARK_EVERY, 3 * MARK_EVERY + 25));
    expect(idsOf(after)[1]).toBe(idsOf(before)[0]);
  });

  it('answer a page past the end with none and the total, after a write too', async () => {
    const past = { 'sortBy[]': 'reported_at', 'descending[]': true, page: 100, itemsPerPage: 25 };
    const before = (await list(past)).body;
    expect(before.items).toEqual([]);
    const made = await call(t.app, 'POST', '/default/incidents', {
      token: owner,
      body: { title: 'Later', description: 'Later.', project: { name: 'default' } },
    });
    expect(made.status).toBe(200);
    const after = (await list(past)).body;
    expect(after).toMatchObject({ items: [], total: before.total + 1, page: 100 });
  });
});

describe('marks kept for a long list', () => {
  it('are thinned to at most MOST_MARKS, every page starting at or before its own row', () => {
    const taken = Array.from({ length: 3 * MOST_MARKS + 1 }, (_, i) => [i * MARK_EVERY]);
    const marks = keptMarks(taken)!;
    expect(marks.keys.length).toBeLessThanOrEqual(MOST_MARKS);
    expect(marks.every).toBe(4 * MARK_EVERY);
    for (const offset of [0, MARK_EVERY, marks.every, marks.every + 7, taken.length * MARK_EVERY - 1]) {
      const from = markFor(marks, offset);
      if (!from) expect(offset).toBeLessThan(marks.every);
      else expect((from.mark[0] as number) + from.skip).toBe(offset);
    }
    expect(markFor(keptMarks(null), 10 * MARK_EVERY)).toBeUndefined();
  });
});
