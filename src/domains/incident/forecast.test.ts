// The forecast through HTTP, on incidents written straight to the database: hundreds of incidents
// reported over thirty months, with monthly counts chosen so that the forecast is known by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { individualContact } from '../individual/table.ts';
import { participant } from '../lifecycle/table.ts';
import { project } from '../project/table.ts';
import { monthIndex, monthLabel } from './forecast.ts';
import { incident } from '../lifecycle/table.ts';

let t: TestApp;
let owner: string;
let member: string;
let outsider: string;

const url = '/default/incidents/metric/forecast';
const current = monthIndex(new Date());
/** Mid-month of the month `offset` months from now (UTC), far from any month boundary. */
const midMonth = (offset: number) => {
  const m = current + offset;
  return new Date(Date.UTC(Math.floor(m / 12), m % 12, 15, 12));
};
const labels = (from: number, n: number) => Array.from({ length: n }, (_, i) => monthLabel(current + from + i));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const empty = {
  categories: [],
  series: [
    { name: 'Predicted', data: [] },
    { name: 'Actual', data: [] },
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  outsider = await register(t.app, 'outsider@example.com');
  const db = t.database.db;
  const [p] = await db.select().from(project).where(eq(project.default, true));
  const pick = async <T extends typeof incidentPriority | typeof incidentSeverity | typeof incidentType>(table: T, name: string) =>
    (
      await db
        .select({ id: table.id })
        .from(table as typeof incidentPriority)
        .where(and(eq((table as typeof incidentPriority).project_id, p.id), eq((table as typeof incidentPriority).name, name)))
    )[0].id;
  const low = await pick(incidentPriority, 'Low');
  const high = await pick(incidentPriority, 'High');
  const severity = await pick(incidentSeverity, 'Undetermined');
  const type = await pick(incidentType, 'Default');
  const [drill] = await db
    .insert(incidentType)
    .values({ organization_id: p.organization_id, project_id: p.id, name: 'Drill', exclude_from_metrics: true })
    .returning();

  const rows: (typeof incident.$inferInsert)[] = [];
  const add = (offset: number, n: number, extra: Partial<typeof incident.$inferInsert> = {}) => {
    for (let i = 0; i < n; i++) {
      rows.push({
        organization_id: p.organization_id,
        project_id: p.id,
        title: 'T',
        description: 'D',
        incident_type_id: type,
        incident_priority_id: low,
        incident_severity_id: severity,
        reported_at: midMonth(offset),
        ...extra,
      });
    }
  };
  // 30 months, t = 0 (30 months ago) .. 29 (last month): 1 + t Low incidents and 2 High ones, 3 + t in all.
  for (const m of range(30)) {
    add(m - 30, 1 + m);
    add(m - 30, 2, { incident_priority_id: high });
  }
  add(0, 5); // this month: not history yet
  add(-2, 4, { incident_type_id: drill.id }); // excluded from metrics
  add(-1, 3, { visibility: 'Restricted' }); // hidden from members who do not take part
  add(-2, 1, { visibility: 'Restricted', title: 'Member takes part' });
  await db.insert(incident).values(rows);

  const [mine] = await db.select({ id: incident.id }).from(incident).where(eq(incident.title, 'Member takes part'));
  const [contact] = await db
    .insert(individualContact)
    .values({ organization_id: p.organization_id, project_id: p.id, email: 'member@example.com' })
    .returning();
  await db.insert(participant).values({ organization_id: p.organization_id, incident_id: mine.id, individual_contact_id: contact.id });
});
afterAll(() => t.close());

describe('incident forecast', () => {
  it('forecasts the last three months (one window each) and the next twelve, with the actuals', async () => {
    const res = await call(t.app, 'GET', url, { token: outsider });
    expect(res.status).toBe(200);
    // 3 + t incidents in month t: the window ending at t = 26 forecasts 30 for t = 27, and so on, to t = 41.
    expect(res.body).toEqual({
      categories: labels(-3, 15),
      series: [
        { name: 'Predicted', data: range(15).map((i) => 30 + i) },
        { name: 'Actual', data: [30, 31, 32] },
      ],
    });
  });

  it('counts the restricted incidents a caller may see: Admins all, members those they take part in', async () => {
    const theirs = await call(t.app, 'GET', url, { token: member });
    expect(theirs.body.series[1].data).toEqual([30, 32, 32]);
    const all = await call(t.app, 'GET', url, { token: owner });
    expect(all.body.series[1].data).toEqual([30, 32, 35]);
  });

  it('narrows by `filter` (through related models), ignoring the other list parameters', async () => {
    const filter = JSON.stringify([{ model: 'IncidentPriority', field: 'name', op: '==', value: 'High' }]);
    const res = await call(t.app, 'GET', url, {
      token: outsider,
      query: { filter, page: 3, itemsPerPage: 1, q: 'nothing matches this', 'sortBy[]': 'title', 'descending[]': true },
    });
    expect(res.body).toEqual({
      categories: labels(-3, 15),
      series: [
        { name: 'Predicted', data: Array(15).fill(2) },
        { name: 'Actual', data: [2, 2, 2] },
      ],
    });
  });

  it('answers the empty form without two years of history', async () => {
    const recent = JSON.stringify([{ field: 'reported_at', op: '>=', value: midMonth(-23).toISOString() }]);
    expect((await call(t.app, 'GET', url, { token: outsider, query: { filter: recent } })).body).toEqual(empty);
    const none = JSON.stringify([{ model: 'Project', field: 'name', op: '==', value: 'nothing' }]);
    expect((await call(t.app, 'GET', url, { token: outsider, query: { filter: none } })).body).toEqual(empty);
    await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Quiet' } });
    expect((await call(t.app, 'GET', '/quiet/incidents/metric/forecast', { token: member })).body).toEqual(empty);
  });

  it('leaves out the windows with less than two years of history', async () => {
    // From 24 months ago on: 24 months up to last month, 21..23 for the earlier windows: only the last one fits.
    const recent = JSON.stringify([{ field: 'reported_at', op: '>=', value: midMonth(-24).toISOString() }]);
    const res = await call(t.app, 'GET', url, { token: outsider, query: { filter: recent } });
    expect(res.body.categories).toEqual(labels(0, 12));
    expect(res.body.series[1].data).toEqual([30, 31, 32]);
  });

  it('refuses a bad filter with 422 and an anonymous caller with 401', async () => {
    const bad = await call(t.app, 'GET', url, { token: outsider, query: { filter: JSON.stringify([{ field: 'nope', op: '==', value: 1 }]) } });
    expect(bad.status).toBe(422);
    expect((await call(t.app, 'GET', url)).status).toBe(401);
  });
});
