// Case costs (beyond 0.1.0): the classic formula by hand, then total_cost_classic and total_cost_new
// as the case page and the case dashboard read them over HTTP. Times are moved by fixtures, so that
// the amounts do not depend on when the test runs.
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { cases, person, useWorld } from '../../../test/worlds/cases.ts';
import { event } from '../event/table.ts';
import { caseTable, participant, participantRole } from '../lifecycle/table.ts';
import { caseRoleSeconds } from './costs.ts';

const T = new Date('2024-03-01T00:00:00Z');
const at = (hours: number) => new Date(T.getTime() + hours * 3600_000);
const role = (name: string, from: number, to: number | null = null) => ({ role: name, assumed_at: at(from), renounced_at: to === null ? null : at(to) });
const open = { status: 'Triage', escalated_at: null, closed_at: null, stable_at: null };

describe('classic case cost formula (hand-computed)', () => {
  it('runs open roles of a New or Triage case to now, weighted by role', () => {
    expect(caseRoleSeconds(open, role('Assignee', 0), at(2))).toBe(2 * 3600);
    expect(caseRoleSeconds(open, role('Reporter', 0), at(2))).toBe(3600);
    expect(caseRoleSeconds(open, role('Participant', 0, 1), at(2))).toBe(1800);
    expect(caseRoleSeconds(open, role('Observer', 0), at(2))).toBe(0);
  });

  it('ends roles when the case was closed, else escalated, else made stable; earlier when renounced before', () => {
    const closed = { status: 'Closed', escalated_at: at(3), closed_at: at(5), stable_at: null };
    expect(caseRoleSeconds(closed, role('Assignee', 0), at(100))).toBe(5 * 3600);
    expect(caseRoleSeconds({ ...closed, status: 'Escalated', closed_at: null }, role('Assignee', 0), at(100))).toBe(3 * 3600);
    expect(caseRoleSeconds({ ...open, status: 'Stable', stable_at: at(4) }, role('Assignee', 0), at(100))).toBe(4 * 3600);
    expect(caseRoleSeconds(closed, role('Assignee', 0, 1), at(100))).toBe(3600);
    expect(caseRoleSeconds(closed, role('Assignee', 6), at(100))).toBe(0);
  });

  it('counts 8 hours of every full day past 24, as for incidents', () => {
    // 50 h = 2 days + 2 h -> ceil(16 + 2) = 18 h.
    expect(caseRoleSeconds(open, role('Assignee', 0), at(50))).toBe(18 * 3600);
  });
});

describe('case costs over HTTP', () => {
  const w = useWorld();
  const c = cases(w);
  let priced: any;
  let plain: any;
  let model: any;
  let caseTypeId: number;

  /** Moves the case's roles and close time to fixed hours after T. */
  async function settle(caseId: number, closedAt: number) {
    const db = w.t.database.db;
    const people = await db.select({ id: participant.id }).from(participant).where(eq(participant.case_id, caseId));
    await db
      .update(participantRole)
      .set({ assumed_at: at(0), renounced_at: null })
      .where(
        inArray(
          participantRole.participant_id,
          people.map((p) => p.id),
        ),
      );
    await db
      .update(caseTable)
      .set({ closed_at: at(closedAt) })
      .where(eq(caseTable.id, caseId));
  }

  /** Puts the case's timeline entries written by `email` at these minutes after T, in order. */
  async function timeline(caseId: number, email: string, minutes: number[]) {
    const db = w.t.database.db;
    const rows = await db
      .select({ uuid: event.uuid })
      .from(event)
      .where(and(eq(event.case_id, caseId), eq(event.owner, email)))
      .orderBy(event.started_at);
    expect(rows.length).toBeGreaterThanOrEqual(minutes.length);
    for (const [i, row] of rows.entries()) {
      // Entries beyond the list are put far apart, 2 hours each.
      const when = i < minutes.length ? minutes[i] : 600 + 120 * i;
      await db
        .update(event)
        .set({ started_at: new Date(T.getTime() + when * 60_000) })
        .where(eq(event.uuid, row.uuid));
    }
    return rows.length;
  }

  beforeAll(async () => {
    const events = (await call(w.t.app, 'GET', '/default/plugins/plugin_events', { token: w.member })).body.items;
    const project = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items[0];
    model = (
      await call(w.t.app, 'POST', '/default/cost_models', {
        token: w.owner,
        body: {
          name: 'Timeline effort',
          project,
          activities: [{ plugin_event: events.find((e: any) => e.slug === 'muster-timeline-activity'), response_time_seconds: 600, enabled: true }],
        },
      })
    ).body;
    const type = await call(w.t.app, 'POST', '/default/case_types', { token: w.owner, body: { name: 'Priced', project, cost_model: { id: model.id } } });
    caseTypeId = type.body.id;
    // Reported by the Member, assigned to an analyst: a Reporter and an Assignee.
    priced = (await c.create({ title: 'Priced case', case_type: { id: caseTypeId }, assignee: person('analyst@example.com') })).body;
    plain = (await c.create({ title: 'Plain case', assignee: person('analyst@example.com') })).body;
    for (const x of [priced, plain]) {
      await c.edit(x.id, { title: `${x.title}, seen`, status: 'Triage' }, w.member);
      await c.edit(x.id, { status: 'Closed', resolution_reason: 'False Positive' }, w.member);
      // The Owner is no participant: their entries are no participant's activity.
      await c.edit(x.id, { description: 'Edited by the owner' }, w.owner);
      await settle(x.id, 2);
    }
  });

  it('reads both costs on the case page', async () => {
    // Classic: Assignee 2 h × 1 + Reporter 2 h × 0.5 = 3 h; 3 × 25 = 75.
    // New: the Member's entries at 0, 5 and 30 minutes, 600 s each: 300 + 600 + 600 = 1500 s, and
    // 600 s for each later one, 2 hours apart; × 25 / 3600, rounded up.
    const entries = await timeline(priced.id, 'member@example.com', [0, 5, 30]);
    const seconds = 1500 + 600 * (entries - 3);
    const res = await c.get(priced.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_cost_classic: 75, total_cost_new: Math.ceil((seconds * 25) / 3600) });
    // Without a cost model on its type, the new model costs nothing.
    expect((await c.get(plain.id)).body).toMatchObject({ total_cost_classic: 75, total_cost_new: 0 });
  });

  it('gives them to the case dashboard, with its include[] and reported_at window', async () => {
    const include = [
      'case_priority',
      'case_severity',
      'case_type',
      'closed_at',
      'name',
      'project',
      'reported_at',
      'status',
      'title',
      'total_cost_classic',
      'total_cost_new',
    ];
    const year = new Date().getUTCFullYear();
    const res = await c.list({
      itemsPerPage: -1,
      'descending[]': false,
      'sortBy[]': 'reported_at',
      'include[]': include,
      filter: JSON.stringify({
        and: [
          { or: [{ model: 'Project', field: 'name', op: '==', value: 'default' }] },
          {
            and: [
              { model: 'Case', field: 'reported_at', op: '>=', value: `${year - 1}-01-01T00:00:00.000` },
              { model: 'Case', field: 'reported_at', op: '<=', value: `${year + 1}-01-01T00:00:00.000` },
            ],
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.title)).toEqual(['Priced case, seen', 'Plain case, seen']);
    for (const item of res.body.items) expect(Object.keys(item).sort()).toEqual([...include].sort());
    const [first, second] = res.body.items;
    expect(first).toMatchObject({ total_cost_classic: 75, total_cost_new: (await c.get(priced.id)).body.total_cost_new });
    expect(second).toMatchObject({ total_cost_classic: 75, total_cost_new: 0 });
  });

  it('follows the cost model: a disabled model or activity prices nothing, and the project rate scales both', async () => {
    const before = (await c.get(priced.id)).body.total_cost_new;
    expect(before).toBeGreaterThan(0);
    const off = await call(w.t.app, 'PUT', `/default/cost_models/${model.id}`, {
      token: w.owner,
      body: { ...model, activities: [{ ...model.activities[0], enabled: false }] },
    });
    expect(off.status).toBe(200);
    expect((await c.get(priced.id)).body.total_cost_new).toBe(0);
    await call(w.t.app, 'PUT', `/default/cost_models/${model.id}`, { token: w.owner, body: { ...model, enabled: false } });
    expect((await c.get(priced.id)).body.total_cost_new).toBe(0);
    await call(w.t.app, 'PUT', `/default/cost_models/${model.id}`, { token: w.owner, body: model });
    expect((await c.get(priced.id)).body.total_cost_new).toBe(before);

    // 100000 / 2000 = 50 an hour: twice the default rate of 25.
    const [project] = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items;
    const upd = await call(w.t.app, 'PUT', `/default/projects/${project.id}`, {
      token: w.owner,
      body: { ...project, annual_employee_cost: 100000, business_year_hours: 2000 },
    });
    expect(upd.status).toBe(200);
    expect((await c.get(priced.id)).body).toMatchObject({ total_cost_classic: 150 });
  });
});
