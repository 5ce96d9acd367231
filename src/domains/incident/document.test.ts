// GET incident's one-statement read (crud/document.ts) writes the same bytes the readers' object
// serializes to, for a full incident (costs, tasks, reports, timeline, tags, terms, duplicates, a
// linked case) and for callers who see all of it and who do not.
import fastJson from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, createWorld, type World } from '../../../test/worlds/incidents.ts';
import type { Ctx } from '../../server/context.ts';
import { JsonText } from '../../server/json-text.ts';
import { resolveCaller } from '../auth/service.ts';
import type { OrganizationRow } from '../organization/table.ts';
import { incidentItemsText, incidentResponse } from './reader.ts';
import { IncidentRead } from './schema.ts';
import { getIncident, readVisible } from './service.ts';
import { applyInclude, includeShape } from '../../list/include.ts';
import { Pagination } from '../../server/shapes.ts';

let w: World;
let full: number;
let restricted: number;
const serialize = fastJson(IncidentRead as object);
const serializePage = fastJson(includeShape(Pagination(IncidentRead, 'IncidentPagination')) as object);

async function ctxOf(email: string): Promise<Ctx> {
  const caller = (await resolveCaller(w.t.database.db, email, { slug: 'default' }))!;
  return { db: w.t.database.db, settings: w.t.settings, user: caller.user, organization: caller.organization as OrganizationRow, role: caller.role! };
}

beforeAll(async () => {
  w = await createWorld();
  const a = api(w);
  restricted = (await a.create({ title: 'Hidden one', visibility: 'Restricted' }, w.owner)).body.id;
  const open = (await a.create({ title: 'Open one' }, w.owner)).body.id;
  const tag = await call(w.t.app, 'POST', '/default/tags', { token: w.owner, body: { name: 'Payments', tag_type: { name: 'Component' } } });
  const created = await a.create({ title: 'Checkout fails "sometimes"\n\ttab', description: 'Ünïcødé, \\ back\u0007slash' }, w.owner);
  full = created.body.id;
  const costType = (await call(w.t.app, 'GET', '/default/incident_cost_types', { token: w.owner })).body.items[0];
  expect(
    (
      await a.edit(full, {
        duplicates: [{ id: restricted }, { id: open }],
        tags: tag.status === 200 ? [{ id: tag.body.id }] : [],
        terms: [{ text: 'PCI' }],
        incident_costs: [
          { amount: 12.5, incident_cost_type: { id: costType.id } },
          { amount: 0.1, incident_cost_type: { id: costType.id } },
        ],
        resolution: null,
      })
    ).status,
  ).toBe(200);
  expect((await call(w.t.app, 'POST', '/default/tasks', { token: w.owner, body: { incident: { id: full }, description: 'Roll back' } })).status).toBe(200);
  expect((await a.post(full, 'report/tactical', w.owner, { conditions: 'Bad', actions: 'Rolling back', needs: 'None' })).status).toBe(200);
  const kase = await call(w.t.app, 'POST', '/default/cases', { token: w.owner, body: { title: 'A case', description: 'd', visibility: 'Restricted' } });
  await call(w.t.app, 'PUT', `/default/cases/${kase.body.id}`, { token: w.owner, body: { ...kase.body, incidents: [{ id: full }] } });
});
afterAll(() => w?.t.close());

describe('GET incident in one statement', () => {
  for (const who of ['owner', 'member'] as const) {
    it(`writes the bytes the readers' object serializes to (${who})`, async () => {
      const ctx = await ctxOf(`${who}@example.com`);
      const answer = await incidentResponse(ctx, full, () => Promise.reject(new Error('read through the readers')));
      expect(answer).toBeInstanceOf(JsonText);
      const text = (answer as unknown as JsonText).text;
      expect(text).toBe(serialize(await getIncident(ctx, full)));
      const read = JSON.parse(text);
      // The statement did write what the incident holds, narrowed for the Member.
      expect(read.incident_costs.map((c: { amount: number }) => c.amount)).toContain(0.1);
      expect(read.total_cost).toBe(read.incident_costs.reduce((sum: number, c: { amount: number }) => sum + c.amount, 0));
      expect(read.tasks).toHaveLength(1);
      expect(read.last_tactical_report?.details?.conditions ?? read.last_tactical_report).toBeTruthy();
      expect(read.events.length).toBeGreaterThan(0);
      expect(read.duplicates.map((d: { id: number }) => d.id).includes(restricted)).toBe(who === 'owner');
      expect(read.cases).toHaveLength(who === 'owner' ? 1 : 0);
      // Over HTTP, the same text.
      const res = await w.t.app.inject({ url: `/api/v1/default/incidents/${full}`, headers: { authorization: `Bearer ${w[who]}` } });
      expect(res.body).toBe(text);
    });
  }

  it('answers 404 for a Restricted incident to whom may not see it, and for none', async () => {
    expect((await api(w).get(restricted, w.member)).status).toBe(404);
    expect((await api(w).get(restricted, w.owner)).status).toBe(200);
    expect((await api(w).get(999999, w.owner)).status).toBe(404);
  });
});

describe('incident lists in one statement', () => {
  const DASHBOARD = ['closed_at', 'commanders_location', 'created_at', 'duplicates', 'incident_priority', 'incident_severity', 'incident_type', 'name'];
  const shapes: [string, Record<string, boolean>, string[], boolean][] = [
    ['minimal items', {}, [], false],
    ['full items (expand)', { expand: true }, [], true],
    ['the dashboard’s include[]', {}, [...DASHBOARD, 'participants_team', 'project', 'reported_at', 'status', 'tags', 'title', 'total_cost'], false],
    ['nested and list paths, a field unknown', {}, ['commander.individual.email', 'tags[].name', 'title', 'nosuch', 'title'], false],
  ];
  for (const who of ['owner', 'member'] as const) {
    for (const [what, extra, include, full] of shapes) {
      it(`writes ${what} as the readers' objects serialize (${who})`, async () => {
        const query: Record<string, number | boolean | string[]> = { itemsPerPage: -1, ...extra, 'include[]': include };
        const res = await call(w.t.app, 'GET', '/default/incidents', { token: w[who], query });
        expect(res.status).toBe(200);
        const ids = (res.body.items as { id?: number }[]).map((i) => i.id);
        const ctx = await ctxOf(`${who}@example.com`);
        const listed = await call(w.t.app, 'GET', '/default/incidents', { token: w[who], query: { itemsPerPage: -1 } });
        const read = await readVisible(
          ctx,
          ctx.db,
          (listed.body.items as { id: number }[]).map((i) => i.id),
          full,
        );
        const expected = serializePage({ items: applyInclude(read, include), itemsPerPage: listed.body.total, page: 1, total: listed.body.total });
        const raw = await w.t.app.inject({
          url: `/api/v1/default/incidents?${new URLSearchParams(Object.entries(query).flatMap(([k, v]) => [v].flat().map((x) => [k, String(x)])))}`,
          headers: { authorization: `Bearer ${w[who]}` },
        });
        expect(raw.body).toBe(expected);
        // And it was the statement that wrote them, not the readers.
        const listedIds = (listed.body.items as { id: number }[]).map((i) => i.id);
        expect(await incidentItemsText(ctx.db, listedIds, full, ctx, include)).toBe(JSON.stringify(JSON.parse(expected).items));
        if (!include.length || include.includes('id')) expect(ids.includes(restricted)).toBe(who === 'owner');
      });
    }
  }
});
