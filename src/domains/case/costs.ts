// The costs of a case the web UI's case page and dashboards read (beyond 0.1.0, as current Dispatch's
// two cost models), computed when the case is read, so they are current in every answer:
//
//   total_cost_classic: what the people on the case cost by the time they held their roles.
//     for each role of each participant (Observers skipped):
//       end   = New or Triage: renounced_at, else now;
//               otherwise closed_at, else escalated_at, else stable_at, else now (renounced_at if earlier)
//       hours = end - assumed_at (negative: 0); past 24 h only 8 of every 24 count (as for incidents)
//       seconds = hours × 3600 × multiplier   (Assignee 1, Reporter and Participant 0.5)
//     amount = ceil(Σ seconds / 3600 × R), R = ceil(annual_employee_cost / business_year_hours)
//
//   total_cost_new: what the activities priced by the case type's cost model cost. Each occurrence
//     of an enabled activity's plugin event by a participant counts as its response_time_seconds of
//     work from the moment it happened; a participant's overlapping occurrences of one activity count
//     once (Dispatch merges them the same way). amount = ceil(Σ seconds / 3600 × R); 0 without an
//     enabled cost model. Muster records one plugin event itself: its timeline (TIMELINE_ACTIVITY).
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { statementOf } from '../../db/statements.ts';
import { TIMELINE_ACTIVITY } from '../../plugins/builtin/participant.ts';
import { caseType } from '../case_type/table.ts';
import { costModel, costModelActivity } from '../cost_model/table.ts';
import { event } from '../event/table.ts';
import { hourlyRate, workedHours } from '../incident/response-cost.ts';
import { individualContact } from '../individual/table.ts';
import { caseTable, participant, participantRole } from '../lifecycle/table.ts';
import { pluginEvent } from '../plugin/table.ts';
import { project } from '../project/table.ts';

const HOUR = 3600;

/** How much of their time a case role takes; roles not listed (Observer) cost nothing. */
const CASE_ROLE_MULTIPLIERS: Record<string, number> = { Assignee: 1, Reporter: 0.5, Participant: 0.5 };

const STILL_OPEN = ['New', 'Triage'];

interface CostedCase {
  status: string;
  escalated_at: Date | null;
  closed_at: Date | null;
  stable_at: Date | null;
}

interface CostedRole {
  role: string;
  assumed_at: Date;
  renounced_at: Date | null;
}

/** Seconds a case role counts for (see the header). */
export function caseRoleSeconds(c: CostedCase, role: CostedRole, now: Date): number {
  const multiplier = CASE_ROLE_MULTIPLIERS[role.role];
  if (!multiplier) return 0;
  let end: Date;
  if (STILL_OPEN.includes(c.status)) end = role.renounced_at ?? now;
  else {
    end = c.closed_at ?? c.escalated_at ?? c.stable_at ?? now;
    if (role.renounced_at && role.renounced_at < end) end = role.renounced_at;
  }
  const seconds = (end.getTime() - role.assumed_at.getTime()) / 1000;
  return seconds < 0 ? 0 : workedHours(seconds / HOUR) * HOUR * multiplier;
}

const amount = (seconds: number, rate: number) => Math.ceil((seconds * rate) / HOUR);

type Millis = number | null;
/**
 * A row of costInputs: a role held on a case (its case's status, times and rates beside it; a case
 * without any roles gives one row with a null role), or a case's priced seconds (the rest null).
 */
interface CostRow {
  id: number;
  status: string;
  escalated_at: Millis;
  closed_at: Millis;
  stable_at: Millis;
  annual_employee_cost: number;
  business_year_hours: number;
  role: string | null;
  assumed_at: Millis;
  renounced_at: Millis;
  /** Seconds of work the cost model of the case's type prices (cases without any have no such row). */
  priced: number | null;
}

const millis = (col: unknown) => sql`(EXTRACT(EPOCH FROM ${col}) * 1000)::float8`;
const dateOf = (ms: Millis) => (ms === null ? null : new Date(ms));

/**
 * What the cases' costs are computed from, in one statement built once: one row per role with its
 * case's status, times and rates, then a row per case with priced seconds. The ids go as one array
 * parameter: a list of them would make a statement of its own for every count of ids (a
 * dashboard's thousands of cases, thousands of parameters), parsed and planned each time.
 *
 * Priced seconds: occurrences of one activity by one participant are intervals of the same length
 * r, so sorted by start their union is the sum of min(r, gap to the next) over them.
 */
const costInputs = statementOf<CostRow>(sql`
    SELECT ${caseTable.id} AS id, ${caseTable.status} AS status, ${millis(caseTable.escalated_at)} AS escalated_at,
      ${millis(caseTable.closed_at)} AS closed_at, ${millis(caseTable.stable_at)} AS stable_at,
      ${project.annual_employee_cost} AS annual_employee_cost, ${project.business_year_hours} AS business_year_hours,
      ${participantRole.role} AS role, ${millis(participantRole.assumed_at)} AS assumed_at, ${millis(participantRole.renounced_at)} AS renounced_at,
      NULL::float8 AS priced
    FROM ${caseTable}
    JOIN ${project} ON ${project.id} = ${caseTable.project_id}
    LEFT JOIN ${participant} ON ${participant.case_id} = ${caseTable.id}
    LEFT JOIN ${participantRole} ON ${participantRole.participant_id} = ${participant.id}
    WHERE ${caseTable.id} = ANY(${sql.placeholder('ids')}::int[])
    UNION ALL
    SELECT o.case_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
      sum(LEAST(o.r, COALESCE(EXTRACT(EPOCH FROM (o.next_at - o.at))::float8, o.r)))::float8
    FROM (
      SELECT ${event.case_id} AS case_id, ${costModelActivity.response_time_seconds}::float8 AS r, ${event.started_at} AS at,
        lead(${event.started_at}) OVER (PARTITION BY ${event.case_id}, ${participant.id}, ${costModelActivity.id} ORDER BY ${event.started_at}) AS next_at
      FROM ${caseTable}
      JOIN ${caseType} ON ${caseType.id} = ${caseTable.case_type_id}
      JOIN ${costModel} ON ${costModel.id} = ${caseType.cost_model_id} AND ${costModel.enabled}
      JOIN ${costModelActivity} ON ${costModelActivity.cost_model_id} = ${costModel.id} AND ${costModelActivity.enabled}
      JOIN ${pluginEvent} ON ${pluginEvent.id} = ${costModelActivity.plugin_event_id} AND ${pluginEvent.slug} = ${TIMELINE_ACTIVITY}
      JOIN ${event} ON ${event.case_id} = ${caseTable.id}
      JOIN ${participant} ON ${participant.case_id} = ${caseTable.id}
      JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} AND lower(${individualContact.email}) = lower(${event.owner})
      WHERE ${caseTable.id} = ANY(${sql.placeholder('ids')}::int[])
    ) o
    GROUP BY o.case_id`);

/**
 * The two costs as Dispatch lists a case's costs (`case_costs`): one per cost model, under a cost
 * type of that model. Both are computed, not stored: each carries the case's id, and its type a
 * fixed one (1 classic, 2 new) that no table holds.
 */
const caseCosts = (caseId: number, classic: number, priced: number) =>
  (
    [
      [1, 'Classic', classic, 'The response cost of the case: the time its participants held their roles.'],
      [2, 'New', priced, "The response cost of the case: its participants' activities priced by the case type's cost model."],
    ] as const
  ).map(([typeId, model, amount, description]) => ({
    id: caseId,
    amount,
    case_cost_type: { id: typeId, name: 'Response Cost', description, category: 'Primary', details: {}, editable: false, model_type: model, created_at: null },
  }));

/** Sets `total_cost_classic`, `total_cost_new` and `case_costs` on read cases (each with its `id`). */
export async function addCaseCosts(db: Executor, items: Record<string, unknown>[], now = new Date()): Promise<void> {
  if (items.length === 0) return;
  const ids = items.map((i) => i.id as number);
  const classic = new Map<number, number>();
  const priced = new Map<number, number>();
  const rates = new Map<number, number>();
  for (const r of await costInputs(db, { ids })) {
    if (r.priced !== null) {
      priced.set(r.id, Number(r.priced));
      continue;
    }
    rates.set(r.id, hourlyRate(r));
    const role = r.role && r.assumed_at !== null ? { role: r.role, assumed_at: new Date(r.assumed_at), renounced_at: dateOf(r.renounced_at) } : undefined;
    const c = { status: r.status, escalated_at: dateOf(r.escalated_at), closed_at: dateOf(r.closed_at), stable_at: dateOf(r.stable_at) };
    classic.set(r.id, (classic.get(r.id) ?? 0) + (role ? caseRoleSeconds(c, role, now) : 0));
  }
  for (const item of items) {
    const id = item.id as number;
    const rate = rates.get(id) ?? 0;
    item.total_cost_classic = amount(classic.get(id) ?? 0, rate);
    item.total_cost_new = amount(priced.get(id) ?? 0, rate);
    item.case_costs = caseCosts(id, item.total_cost_classic as number, item.total_cost_new as number);
  }
}
