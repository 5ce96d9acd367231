// Dispatch's case dashboard (src/dispatch/static/dispatch/src/dashboard/case/CaseDialogFilter.vue):
// every case of the window with the fields its `include[]` names, read by CaseOverview.vue and the
// chart cards (`item.incidents.length`, `item.duplicates.filter(...)`, `case_type.exclude_from_metrics`,
// the priority and severity cards' `items[0].case_priority.color`). Current Dispatch cuts `include[]`
// from the full case read, so `tags` and `stable_at` come too: every field is answered, lists as lists.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers.ts';
import { CASE_DASHBOARD } from './queries.ts';
import { cases, useWorld } from '../worlds/cases.ts';

const w = useWorld();

let tagged: number;
beforeAll(async () => {
  const project = { name: 'default' };
  const type = await call(w.t.app, 'POST', '/default/tag_types', { token: w.admin, body: { name: 'Asset', project } });
  const tag = await call(w.t.app, 'POST', '/default/tags', { token: w.admin, body: { name: 'payments-db', tag_type: { id: type.body.id }, project } });
  tagged = (await cases(w).create({ title: 'Tagged case', tags: [{ id: tag.body.id }] })).body.id;
  await cases(w).create({ title: 'Plain case' });
});

describe("Dispatch's case dashboard", () => {
  it('reads every field it includes on every case, lists as lists, tags with their type', async () => {
    const res = await call(w.t.app, 'GET', '/default/cases', {
      token: w.member,
      query: { itemsPerPage: -1, 'include[]': CASE_DASHBOARD, 'sortBy[]': 'reported_at', 'descending[]': false },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThanOrEqual(2);
    for (const item of res.body.items) {
      expect(Object.keys(item).sort()).toEqual([...CASE_DASHBOARD].sort());
      expect(item.incidents).toEqual([]);
      expect(item.duplicates).toEqual([]);
      expect(item.stable_at).toBeNull();
      expect(item.case_type.exclude_from_metrics).toBe(false);
      expect(item.case_priority.color).toEqual(expect.any(String));
    }
    const byTitle = Object.fromEntries(res.body.items.map((i: any) => [i.title, i]));
    expect(byTitle['Plain case'].tags).toEqual([]);
    expect(byTitle['Tagged case'].tags.map((t: any) => [t.name, t.tag_type.name])).toEqual([['payments-db', 'Asset']]);
  });

  it('reads tags and stable_at with any other include[] too, and leaves them out of the plain list', async () => {
    const cut = await call(w.t.app, 'GET', '/default/cases', {
      token: w.member,
      query: { itemsPerPage: -1, 'include[]': ['title', 'tags', 'stable_at', 'assignee'] },
    });
    expect(cut.status).toBe(200);
    const item = cut.body.items.find((i: any) => i.id === undefined && i.title === 'Tagged case');
    expect(item.tags.map((t: any) => t.name)).toEqual(['payments-db']);
    expect(item).toHaveProperty('stable_at', null);
    const plain = await call(w.t.app, 'GET', '/default/cases', { token: w.member, query: { itemsPerPage: -1 } });
    const row = plain.body.items.find((i: any) => i.id === tagged);
    expect(row).not.toHaveProperty('tags');
    expect(row).not.toHaveProperty('stable_at');
  });
});
