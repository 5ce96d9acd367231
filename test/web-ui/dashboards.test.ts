// The web UI's incident dashboards and tables (reference/dispatch-ui.md): every incident of a
// reported_at window, cut to `include[]`, with the window's leaves written as the UI writes them
// (no model, dates without a zone), and sorts the list does not know left out.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers.ts';
import { INCIDENT_DASHBOARD } from './queries.ts';
import { api, useWorld } from '../worlds/incidents.ts';

const w = useWorld();

const INCLUDE = ['name', 'title', 'status', 'reported_at', 'closed_at', 'total_cost', 'incident_type.name', 'incident_priority.name', 'project.name'];
const window = (start: string, end: string) =>
  JSON.stringify({
    and: [
      {
        or: [
          {
            and: [
              { field: 'reported_at', op: '>=', value: start },
              { field: 'reported_at', op: '<=', value: end },
            ],
          },
        ],
      },
    ],
  });

beforeAll(async () => {
  const i = api(w);
  for (const [title, at] of [
    ['Before October', '2026-09-30T23:30:00Z'],
    ['First of October', '2026-10-01T00:30:00Z'],
    ['End of October', '2026-10-31T23:00:00Z'],
  ]) {
    const made = await i.create({ title }, w.owner);
    expect((await i.edit(made.body.id, { reported_at: at })).status).toBe(200);
  }
});

describe('the incident dashboards', () => {
  it('read every incident of the window, cut to include[]', async () => {
    const res = await call(w.t.app, 'GET', '/default/incidents', {
      token: w.member,
      query: { itemsPerPage: -1, 'include[]': INCLUDE, filter: window('2026-10-01T00:00:00.000', '2026-10-31T23:59:59.999') },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((x: { title: string }) => x.title).sort()).toEqual(['End of October', 'First of October']);
    expect(res.body.items[0]).toEqual({
      name: expect.any(String),
      title: expect.any(String),
      status: 'Active',
      reported_at: expect.stringMatching(/^2026-10-/),
      closed_at: null,
      total_cost: expect.any(Number),
      incident_type: { name: 'Default' },
      incident_priority: { name: expect.any(String) },
      project: { name: 'default' },
    });
  });
});

describe('the incidents table', () => {
  it('ignores a sort it does not know and keeps the sort by reported_at', async () => {
    const query = (sort: string[]) => ({ page: 1, itemsPerPage: 25, 'sortBy[]': sort, 'descending[]': sort.map(() => true) });
    const known = await call(w.t.app, 'GET', '/default/incidents', { token: w.member, query: query(['reported_at']) });
    const titles = known.body.items.map((x: { title: string }) => x.title);
    expect(titles).toEqual(['End of October', 'First of October', 'Before October']);
    const unknown = await call(w.t.app, 'GET', '/default/incidents', { token: w.member, query: query(['project.display_name', 'nonexistent', 'reported_at']) });
    expect(unknown.status).toBe(200);
    expect(unknown.body.items.map((x: { title: string }) => x.title)).toEqual(titles);
    // A filter on a field the list does not know is still refused.
    const filtered = await call(w.t.app, 'GET', '/default/incidents', {
      token: w.member,
      query: { filter: JSON.stringify([{ field: 'nonexistent', value: 1 }]) },
    });
    expect(filtered.status).toBe(422);
    expect(filtered.body.detail[0].type).toBe('value_error.not_found.field');
  });
});

describe("Dispatch's incident dashboard", () => {
  it('reads every field it includes on every incident, lists as lists', async () => {
    const res = await call(w.t.app, 'GET', '/default/incidents', {
      token: w.member,
      query: { itemsPerPage: -1, 'include[]': INCIDENT_DASHBOARD, 'sortBy[]': 'reported_at', 'descending[]': false },
    });
    expect(res.status).toBe(200);
    for (const item of res.body.items) {
      expect(Object.keys(item).sort()).toEqual([...INCIDENT_DASHBOARD].sort());
      expect(item.duplicates).toEqual([]);
      expect(item.tags).toEqual([]);
    }
  });
});
