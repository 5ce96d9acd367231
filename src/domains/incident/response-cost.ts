// The response cost of an incident: what the people responding to it cost, kept as the incident's
// cost of the project's default cost type ("Response Cost"). Dispatch's OpenAPI-era formula, a full
// recompute each time:
//
//   for each role of each participant (Observers and roles without a multiplier skipped):
//     end   = Active: renounced_at, else now; Stable/Closed: stable_at, or renounced_at if earlier
//     hours = end - assumed_at (negative: skipped); over 24 h only a third of each full day counts:
//             hours = ceil(8 × full days + remaining hours)
//     seconds = trunc(hours × 3600 × multiplier)   (Commander 1, Scribe and Liaison 0.75, Participant and Reporter 0.5)
//   review hours = 1 + 0.5 × participants
//   R      = ceil(annual_employee_cost / business_year_hours)
//   amount = ceil((Σ seconds / 3600 + review hours) × R)
//
// Dispatch also skips roles whose chat activity is 0. Muster records no chat activity yet, so that
// rule would price every incident at its review hours alone; roles count whatever their activity.
//
// Written by the incident flows whenever participants or the status change (in their transaction),
// and by the scheduler every few minutes (recomputeAllResponseCosts).
import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { incident } from '../lifecycle/table.ts';
import { incidentCostType } from '../incident_cost_type/table.ts';
import { participant, participantRole } from '../lifecycle/table.ts';
import { project } from '../project/table.ts';
import { incidentCost } from '../incident_cost/table.ts';

const HOUR = 3600;
const DAY_HOURS = 24;

/** How much of their time a role takes; roles not listed (Observer) cost nothing. */
export const ROLE_MULTIPLIERS: Record<string, number> = {
  'Incident Commander': 1,
  Scribe: 0.75,
  Liaison: 0.75,
  Participant: 0.5,
  Reporter: 0.5,
};

export interface CostedRole {
  role: string;
  assumed_at: Date;
  renounced_at: Date | null;
}

export interface CostedIncident {
  status: string;
  stable_at: Date | null;
}

export interface CostRates {
  annual_employee_cost: number;
  business_year_hours: number;
}

/** Seconds a role counts for (see the header), 0 when it counts for nothing. */
export function roleSeconds(inc: CostedIncident, role: CostedRole, now: Date): number {
  const multiplier = ROLE_MULTIPLIERS[role.role];
  if (!multiplier) return 0;
  let end: Date;
  if (inc.status === 'Active') end = role.renounced_at ?? now;
  else {
    end = inc.stable_at ?? now;
    if (role.renounced_at && role.renounced_at < end) end = role.renounced_at;
  }
  const seconds = (end.getTime() - role.assumed_at.getTime()) / 1000;
  if (seconds < 0) return 0;
  return Math.trunc(workedHours(seconds / HOUR) * HOUR * multiplier);
}

/** The hours of a role that count as work: past a day, responders are taken to work 8 hours of every 24. */
export function workedHours(hours: number): number {
  return hours > DAY_HOURS ? Math.ceil(Math.floor(hours / DAY_HOURS) * 8 + (hours % DAY_HOURS)) : hours;
}

/** The hourly rate, rounded up. */
export const hourlyRate = (rates: CostRates) => Math.ceil(rates.annual_employee_cost / Math.max(rates.business_year_hours, 1));

/** Hours spent preparing and holding the incident review: an hour's preparation, half the participants for an hour. */
export const reviewHours = (participants: number) => 1 + 0.5 * participants;

/** The response cost of an incident with these participants' roles. */
export function responseCostAmount(inc: CostedIncident, roles: CostedRole[], participants: number, rates: CostRates, now: Date): number {
  const seconds = roles.reduce((sum, r) => sum + roleSeconds(inc, r, now), 0);
  // In whole seconds (review hours are halves of an hour), so that the final ceil sees no float noise.
  const totalSeconds = seconds + reviewHours(participants) * HOUR;
  return Math.ceil((totalSeconds * hourlyRate(rates)) / HOUR);
}

/** The project's response-cost type: its default cost type, if it has one. */
export async function responseCostType(db: Executor, projectId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: incidentCostType.id })
    .from(incidentCostType)
    .where(and(eq(incidentCostType.project_id, projectId), eq(incidentCostType.default, true)))
    .orderBy(asc(incidentCostType.id))
    .limit(1);
  return row?.id;
}

/**
 * Recomputes the incident's response cost, creating it when missing, inside the caller's
 * transaction. Returns the amount, or null when the incident is gone or its project has no
 * default cost type.
 */
export async function recomputeResponseCost(tx: Executor, incidentId: number, now = new Date()): Promise<number | null> {
  const [inc] = await tx
    .select({
      id: incident.id,
      organization_id: incident.organization_id,
      project_id: incident.project_id,
      status: incident.status,
      stable_at: incident.stable_at,
      annual_employee_cost: project.annual_employee_cost,
      business_year_hours: project.business_year_hours,
    })
    .from(incident)
    .innerJoin(project, eq(project.id, incident.project_id))
    .where(eq(incident.id, incidentId));
  if (!inc) return null;
  const typeId = await responseCostType(tx, inc.project_id);
  if (typeId === undefined) return null;
  const people = await tx.select({ id: participant.id }).from(participant).where(eq(participant.incident_id, incidentId));
  const roles = people.length
    ? await tx
        .select({ role: participantRole.role, assumed_at: participantRole.assumed_at, renounced_at: participantRole.renounced_at })
        .from(participantRole)
        .where(
          inArray(
            participantRole.participant_id,
            people.map((p) => p.id),
          ),
        )
    : [];
  const amount = responseCostAmount(inc, roles, people.length, inc, now);
  const [existing] = await tx
    .select({ id: incidentCost.id })
    .from(incidentCost)
    .where(and(eq(incidentCost.incident_id, incidentId), eq(incidentCost.incident_cost_type_id, typeId)))
    .orderBy(asc(incidentCost.id))
    .limit(1);
  if (existing) await tx.update(incidentCost).set({ amount, updated_at: now }).where(eq(incidentCost.id, existing.id));
  else
    await tx.insert(incidentCost).values({
      organization_id: inc.organization_id,
      project_id: inc.project_id,
      incident_id: incidentId,
      incident_cost_type_id: typeId,
      amount,
      created_at: now,
      updated_at: now,
    });
  return amount;
}

/**
 * The scheduler's pass (every 5 minutes): recomputes the response cost of every incident (of one
 * organization or project, or all), one transaction each, skipping Closed incidents whose response cost was
 * already updated after they became stable (it cannot change any more). Returns how many it updated.
 */
export async function recomputeAllResponseCosts(db: Executor, organizationId?: number, now = new Date(), projectId?: number): Promise<number> {
  const settled = sql`EXISTS (SELECT 1 FROM ${incidentCost} JOIN ${incidentCostType} ON ${incidentCostType.id} = ${incidentCost.incident_cost_type_id}
    WHERE ${incidentCost.incident_id} = ${incident.id} AND ${incidentCostType.default} AND ${incidentCostType.project_id} = ${incident.project_id}
    AND ${incidentCost.updated_at} > ${incident.stable_at})`;
  const due = await db
    .select({ id: incident.id })
    .from(incident)
    .where(
      and(
        organizationId === undefined ? undefined : eq(incident.organization_id, organizationId),
        projectId === undefined ? undefined : eq(incident.project_id, projectId),
        or(ne(incident.status, 'Closed'), isNull(incident.stable_at), sql`NOT ${settled}`),
      ),
    )
    .orderBy(asc(incident.id));
  let updated = 0;
  for (const { id } of due) {
    const amount = await db.transaction((tx) => recomputeResponseCost(tx, id, now));
    if (amount !== null) updated++;
  }
  return updated;
}
