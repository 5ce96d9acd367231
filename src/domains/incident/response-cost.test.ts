import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.ts';
import type { Executor } from '../../db/connection.ts';
import { incident } from '../lifecycle/table.ts';
import { incidentCostType } from '../incident_cost_type/table.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { individualContact } from '../individual/table.ts';
import { participant, participantRole } from '../lifecycle/table.ts';
import { project } from '../project/table.ts';
import { hourlyRate, recomputeAllResponseCosts, recomputeResponseCost, responseCostAmount, roleSeconds, type CostedRole } from './response-cost.ts';
import { incidentCost } from '../incident_cost/table.ts';

const T = new Date('2024-03-01T00:00:00Z');
const at = (hours: number) => new Date(T.getTime() + hours * 3600_000);
const role = (name: string, from: number, to: number | null = null): CostedRole => ({
  role: name,
  assumed_at: at(from),
  renounced_at: to === null ? null : at(to),
});
const rates = { annual_employee_cost: 50000, business_year_hours: 2080 };
const active = { status: 'Active', stable_at: null };

describe('response cost formula (hand-computed)', () => {
  it('rounds the hourly rate up: 50000 / 2080 = 24.04 -> 25', () => {
    expect(hourlyRate(rates)).toBe(25);
    expect(hourlyRate({ annual_employee_cost: 100000, business_year_hours: 2000 })).toBe(50);
    expect(hourlyRate({ annual_employee_cost: 100001, business_year_hours: 2000 })).toBe(51);
  });

  it('an Active incident runs its open roles to now: commander and reporter for 2 h', () => {
    // 7200 s × 1 + 7200 s × 0.5 = 3 h; review 1 + 0.5 × 1 = 1.5 h; 4.5 h × 25 = 112.5 -> 113.
    const roles = [role('Incident Commander', 0), role('Reporter', 0)];
    expect(responseCostAmount(active, roles, 1, rates, at(2))).toBe(113);
  });

  it('counts a third of every full day past 24 hours, rounding the hours up', () => {
    // 50 h = 2 days + 2 h -> ceil(16 + 2) = 18 h × 1; 30.5 h = 1 day + 6.5 h -> ceil(8 + 6.5) = 15 h × 0.75.
    expect(roleSeconds(active, role('Incident Commander', 0), at(50))).toBe(18 * 3600);
    expect(roleSeconds(active, role('Scribe', 0, 30.5), at(50))).toBe(15 * 3600 * 0.75);
    // 64800 + 40500 s = 29.25 h; review 1 + 0.5 × 2 = 2 h; 31.25 h × 25 = 781.25 -> 782.
    expect(responseCostAmount(active, [role('Incident Commander', 0), role('Scribe', 0, 30.5)], 2, rates, at(50))).toBe(782);
    // Exactly 24 hours is not past a day.
    expect(roleSeconds(active, role('Incident Commander', 0), at(24))).toBe(24 * 3600);
  });

  it('ends roles of a Stable or Closed incident at stable_at, or earlier when renounced before', () => {
    const stable = { status: 'Stable', stable_at: at(3) };
    const roles = [
      role('Participant', 0, 1), // renounced before stable: 1 h × 0.5 = 1800 s
      role('Liaison', 0, 5), // renounced after stable: 3 h × 0.75 = 8100 s
      role('Observer', 0), // costs nothing
      role('Scribe', 4), // assumed after stable: skipped
    ];
    // 9900 s = 2.75 h; review 1 + 0.5 × 3 = 2.5 h; 5.25 h × 25 = 131.25 -> 132. `now` plays no part.
    expect(responseCostAmount(stable, roles, 3, rates, at(1000))).toBe(132);
    expect(responseCostAmount({ ...stable, status: 'Closed' }, roles, 3, rates, at(1000))).toBe(132);
  });

  it('truncates each role to whole seconds and skips roles without a multiplier', () => {
    expect(roleSeconds(active, { role: 'Participant', assumed_at: T, renounced_at: new Date(T.getTime() + 1000) }, at(9))).toBe(0);
    expect(roleSeconds(active, { role: 'Reporter', assumed_at: T, renounced_at: new Date(T.getTime() + 3000) }, at(9))).toBe(1);
    expect(roleSeconds(active, role('Assignee', 0), at(9))).toBe(0);
  });

  it('costs the review alone when nobody has a costed role: (1 + 0.5 × 2) h × 25 = 50', () => {
    expect(responseCostAmount(active, [role('Observer', 0), role('Observer', 0)], 2, rates, at(5))).toBe(50);
    expect(responseCostAmount(active, [], 0, rates, at(5))).toBe(25);
  });
});

describe('response cost records', () => {
  let t: TestDatabase;
  let db: Executor;
  let projectId: number;
  let costTypeId: number;
  let refs: { incident_type_id: number; incident_priority_id: number; incident_severity_id: number };
  let contactId: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.database.db;
    const [p] = await db.select().from(project).where(eq(project.default, true));
    projectId = p.id;
    const [type] = await db.select().from(incidentType).where(eq(incidentType.project_id, projectId));
    const [priority] = await db.select().from(incidentPriority).where(eq(incidentPriority.project_id, projectId));
    const [severity] = await db.select().from(incidentSeverity).where(eq(incidentSeverity.project_id, projectId));
    refs = { incident_type_id: type.id, incident_priority_id: priority.id, incident_severity_id: severity.id };
    const [ct] = await db
      .select()
      .from(incidentCostType)
      .where(and(eq(incidentCostType.project_id, projectId), eq(incidentCostType.default, true)));
    costTypeId = ct.id;
    const [c] = await db
      .insert(individualContact)
      .values({ organization_id: p.organization_id, project_id: projectId, email: 'alice@example.com' })
      .returning();
    contactId = c.id;
  });
  afterAll(() => t.cleanup());

  async function makeIncident(values: { status?: string; stable_at?: Date | null }, roles: CostedRole[]) {
    const [p] = await db.select().from(project).where(eq(project.id, projectId));
    const [inc] = await db
      .insert(incident)
      .values({ organization_id: p.organization_id, project_id: projectId, title: 'T', description: 'D', ...refs, ...values })
      .returning();
    const [part] = await db
      .insert(participant)
      .values({ organization_id: p.organization_id, incident_id: inc.id, individual_contact_id: contactId })
      .returning();
    if (roles.length) await db.insert(participantRole).values(roles.map((r) => ({ participant_id: part.id, ...r })));
    return inc.id;
  }
  const costsOf = (incidentId: number) => db.select().from(incidentCost).where(eq(incidentCost.incident_id, incidentId));

  it('creates the response cost of the default cost type, then updates the same row', async () => {
    const id = await makeIncident({}, [role('Incident Commander', 0), role('Reporter', 0)]);
    expect(await db.transaction((tx) => recomputeResponseCost(tx, id, at(2)))).toBe(113);
    const [first] = await costsOf(id);
    expect(first).toMatchObject({ incident_cost_type_id: costTypeId, project_id: projectId, amount: 113 });
    // Two more hours: 6 h of roles + 1.5 h review = 7.5 h × 25 = 187.5 -> 188.
    expect(await db.transaction((tx) => recomputeResponseCost(tx, id, at(4)))).toBe(188);
    const after = await costsOf(id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first.id, amount: 188 });
  });

  it('answers null for a missing incident or a project without a default cost type', async () => {
    expect(await recomputeResponseCost(db, 999999, at(1))).toBeNull();
    const id = await makeIncident({}, [role('Incident Commander', 0)]);
    await db.update(incidentCostType).set({ default: false }).where(eq(incidentCostType.id, costTypeId));
    try {
      expect(await recomputeResponseCost(db, id, at(1))).toBeNull();
      expect(await costsOf(id)).toEqual([]);
    } finally {
      await db.update(incidentCostType).set({ default: true }).where(eq(incidentCostType.id, costTypeId));
    }
  });

  it('the scheduler pass skips Closed incidents priced after they became stable', async () => {
    const closed = await makeIncident({ status: 'Closed', stable_at: at(3) }, [role('Incident Commander', 0)]);
    const open = await makeIncident({}, [role('Incident Commander', 0)]);
    // First pass: both priced. Closed: 3 h + 1.5 h review = 4.5 h × 25 = 113.
    await recomputeAllResponseCosts(db, undefined, at(10));
    expect((await costsOf(closed))[0].amount).toBe(113);
    // The closed incident's cost (updated at +10 h, after stable_at) is settled: a later pass leaves it.
    await db.update(incidentCost).set({ amount: 1 }).where(eq(incidentCost.incident_id, closed));
    const [p] = await db.select().from(project).where(eq(project.id, projectId));
    await recomputeAllResponseCosts(db, p.organization_id, at(20));
    expect((await costsOf(closed))[0].amount).toBe(1);
    // The active one keeps growing: 20 h + 1.5 h = 21.5 h × 25 = 537.5 -> 538.
    expect((await costsOf(open))[0].amount).toBe(538);
    // Stable again later (stable_at moves past the last pricing), it is priced again:
    // 30 h = 1 day + 6 h -> 14 h; 14 h + 1.5 h = 15.5 h × 25 = 387.5 -> 388.
    await db
      .update(incident)
      .set({ stable_at: at(30) })
      .where(eq(incident.id, closed));
    await recomputeAllResponseCosts(db, undefined, at(40));
    expect((await costsOf(closed))[0].amount).toBe(388);
    // Another organization's pass touches nothing here.
    await db.update(incidentCost).set({ amount: 2 }).where(eq(incidentCost.incident_id, open));
    await recomputeAllResponseCosts(db, p.organization_id + 1000, at(50));
    expect((await costsOf(open))[0].amount).toBe(2);
  });
});
