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
import { type SQL, sql } from 'drizzle-orm';
import { alias, type PgTable } from 'drizzle-orm/pg-core';
import { column } from '../../crud/group.ts';
import type { Executor } from '../../db/connection.ts';
import { statementOf } from '../../db/statements.ts';
import { followsClock } from '../../lib/clock-fields.ts';
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

/** Whether a case's classic cost read at `now` changes later: one of its roles that cost ends at the time of the read. */
function followsTheClock({ costed: c, roles }: CostInputs, now: Date): boolean {
  const open = STILL_OPEN.includes(c.status);
  const ended = !open && (c.closed_at ?? c.escalated_at ?? c.stable_at);
  return roles.some((role) => CASE_ROLE_MULTIPLIERS[role.role] && !ended && (open ? !role.renounced_at : !role.renounced_at || role.renounced_at > now));
}

const amount = (seconds: number, rate: number) => Math.ceil((seconds * rate) / HOUR);

/** The case the occurrences belong to, apart from a `case` of a statement around them. */
const COSTED = 'costed';
const costed = alias(caseTable, COSTED);

/**
 * The occurrences of the priced activities of the cases `where` picks (of `costed`): each a
 * participant's activity of length r at `at`, and their next occurrence of it, if any.
 */
const occurrences = (where: SQL) => sql`
      SELECT ${costed.id} AS case_id, ${costModelActivity.response_time_seconds}::float8 AS r, ${event.started_at} AS at,
        lead(${event.started_at}) OVER (PARTITION BY ${costed.id}, ${participant.id}, ${costModelActivity.id} ORDER BY ${event.started_at}) AS next_at
      FROM ${caseTable} ${sql.identifier(COSTED)}
      JOIN ${caseType} ON ${caseType.id} = ${costed.case_type_id}
      JOIN ${costModel} ON ${costModel.id} = ${caseType.cost_model_id} AND ${costModel.enabled}
      JOIN ${costModelActivity} ON ${costModelActivity.cost_model_id} = ${costModel.id} AND ${costModelActivity.enabled}
      JOIN ${pluginEvent} ON ${pluginEvent.id} = ${costModelActivity.plugin_event_id} AND ${pluginEvent.slug} = ${TIMELINE_ACTIVITY}
      JOIN ${event} ON ${event.case_id} = ${costed.id}
      JOIN ${participant} ON ${participant.case_id} = ${costed.id}
      JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} AND lower(${individualContact.email}) = lower(${event.owner})
      WHERE ${where}`;

// Occurrences of one activity by one participant are intervals of the same length r, so sorted by
// start their union is Σ min(r, gap to the next) over them.
const pricedSeconds = sql`sum(LEAST(o.r, COALESCE(EXTRACT(EPOCH FROM (o.next_at - o.at))::float8, o.r)))::float8`;

type Millis = number | null;
/** A case's own inputs to its costs, as both reads give them: its status, its times, its rate's parts. */
interface CaseInputs {
  status: string;
  escalated_at: Millis;
  closed_at: Millis;
  stable_at: Millis;
  annual_employee_cost: number;
  business_year_hours: number;
}
/**
 * A row of groupedInputs: a role held on a case (its case's status, times and rates beside it; a
 * case without any roles gives one row with a null role), or a case's priced seconds (the rest null).
 */
interface CostRow extends CaseInputs {
  id: number;
  role: string | null;
  assumed_at: Millis;
  renounced_at: Millis;
  /** Seconds of work the cost model of the case's type prices (cases without any have no such row). */
  priced: number | null;
}

const millis = (col: unknown) => sql`(EXTRACT(EPOCH FROM ${col}) * 1000)::float8`;
const dateOf = (ms: Millis) => (ms === null ? null : new Date(ms));

/**
 * What the cases' costs are computed from, in one statement built once: a row per role with its
 * case's status, times and rates (a case without any: one row with a null role), then a row per case
 * with its priced seconds. The ids go as one array parameter: a list of them would make a statement
 * of its own for every count of ids (a dashboard's thousands of cases, thousands of parameters),
 * parsed and planned each time.
 */
const groupedInputs = statementOf<CostRow>(sql`
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
    SELECT o.case_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, ${pricedSeconds}
    FROM (${occurrences(sql`${costed.id} = ANY(${sql.placeholder('ids')}::int[])`)}) o
    GROUP BY o.case_id`);

/** The tables the costs' inputs are read from (by either read): a change to any of them changes what they are computed from. */
export const COST_TABLES = [caseTable, project, participant, participantRole, caseType, costModel, costModelActivity, pluginEvent, event, individualContact];

/** What one case's costs are computed from: the case, its roles, its rate, the seconds its cost model prices. */
interface CostInputs {
  costed: CostedCase;
  roles: CostedRole[];
  rate: number;
  priced: number;
}

/** The field a read of one case writes its cost inputs to (COST_INPUTS_FIELD), as JSON: the same values the grouped reads give. */
interface CostInputsJson extends CaseInputs {
  roles: { role: string; assumed_at: Millis; renounced_at: Millis }[];
  priced: number | null;
}

/** Where a read that gives its cases' cost inputs itself puts them (the hook takes them off). */
export const COST_INPUTS_FIELD = 'cost_inputs';

/**
 * A case's cost inputs as a field of its own read (`at`: the case's row), so that reading one case
 * (GET case) needs no statement besides its read. Reads of many cases (lists, dashboards) leave it
 * out: the grouped read of addCaseCosts costs less than a subquery per row.
 */
export const costInputs = (at: PgTable): SQL => sql`json_build_object(
    'status', ${column(at, 'status')},
    'escalated_at', ${millis(column(at, 'escalated_at'))},
    'closed_at', ${millis(column(at, 'closed_at'))},
    'stable_at', ${millis(column(at, 'stable_at'))},
    'annual_employee_cost', (SELECT ${project.annual_employee_cost} FROM ${project} WHERE ${project.id} = ${column(at, 'project_id')}),
    'business_year_hours', (SELECT ${project.business_year_hours} FROM ${project} WHERE ${project.id} = ${column(at, 'project_id')}),
    'roles', COALESCE((SELECT json_agg(json_build_object('role', ${participantRole.role}, 'assumed_at', ${millis(participantRole.assumed_at)}, 'renounced_at', ${millis(participantRole.renounced_at)}) ORDER BY ${participant.id}, ${participantRole.id})
      FROM ${participant} JOIN ${participantRole} ON ${participantRole.participant_id} = ${participant.id} WHERE ${participant.case_id} = ${column(at, 'id')}), '[]'::json),
    'priced', (SELECT ${pricedSeconds} FROM (${occurrences(sql`${costed.id} = ${column(at, 'id')}`)}) o))`;

/** The cost inputs of cases read without them, by one grouped read (cases not found left out). */
async function readCostInputs(db: Executor, ids: number[]): Promise<Map<number, CostInputs>> {
  const out = new Map<number, CostInputs>();
  const priced: CostRow[] = [];
  for (const r of await groupedInputs(db, { ids })) {
    if (r.priced !== null) {
      priced.push(r);
      continue;
    }
    let inputs = out.get(r.id);
    if (!inputs) {
      const costed = { status: r.status, escalated_at: dateOf(r.escalated_at), closed_at: dateOf(r.closed_at), stable_at: dateOf(r.stable_at) };
      out.set(r.id, (inputs = { costed, roles: [], rate: hourlyRate(r), priced: 0 }));
    }
    if (r.role && r.assumed_at !== null) inputs.roles.push({ role: r.role, assumed_at: new Date(r.assumed_at), renounced_at: dateOf(r.renounced_at) });
  }
  for (const r of priced) {
    const inputs = out.get(r.id);
    if (inputs) inputs.priced = Number(r.priced);
  }
  return out;
}

/** The inputs a read wrote into the case (COST_INPUTS_FIELD). */
function inputsOf(json: CostInputsJson): CostInputs {
  return {
    costed: { status: json.status, escalated_at: dateOf(json.escalated_at), closed_at: dateOf(json.closed_at), stable_at: dateOf(json.stable_at) },
    roles: json.roles.map((r) => ({ role: r.role, assumed_at: new Date(r.assumed_at as number), renounced_at: dateOf(r.renounced_at) })),
    rate: hourlyRate(json),
    priced: json.priced === null ? 0 : Number(json.priced),
  };
}

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

/** A case's classic cost at `now`. */
const classicAt = (inputs: CostInputs | undefined, now: Date) =>
  amount(inputs?.roles.reduce((sum, role) => sum + caseRoleSeconds(inputs.costed, role, now), 0) ?? 0, inputs?.rate ?? 0);

/** A read case's cost fields, given its classic cost. */
function costsOf(id: number, inputs: CostInputs | undefined, classic: number) {
  const priced = amount(inputs?.priced ?? 0, inputs?.rate ?? 0);
  return { total_cost_classic: classic, total_cost_new: priced, case_costs: caseCosts(id, classic, priced) };
}

/**
 * How to set a read case's costs again at a later time: only the fields it still has (those a
 * list's `include[]` left out stay out); true when the classic cost changed, the one that follows
 * the clock.
 */
function costedAgain(item: Record<string, unknown>, inputs: CostInputs) {
  let classic = item.total_cost_classic;
  return (later: Date) => {
    const now = classicAt(inputs, later);
    if (now === classic) return false;
    classic = now;
    for (const [field, value] of Object.entries(costsOf(item.id as number, inputs, now))) if (item[field] !== undefined) item[field] = value;
    return true;
  };
}

/**
 * Sets `total_cost_classic`, `total_cost_new` and `case_costs` on read cases (each with its `id`),
 * from the inputs their read gave (COST_INPUTS_FIELD, taken off), else from one grouped read. The
 * classic cost follows the clock: each case keeps its inputs to be costed again at a later time.
 */
export async function addCaseCosts(db: Executor, items: Record<string, unknown>[], now = new Date()): Promise<void> {
  if (items.length === 0) return;
  const given = items.every((i) => i[COST_INPUTS_FIELD] !== undefined);
  const read = given
    ? new Map(items.map((i) => [i.id as number, inputsOf(i[COST_INPUTS_FIELD] as CostInputsJson)]))
    : await readCostInputs(
        db,
        items.map((i) => i.id as number),
      );
  for (const item of items) {
    delete item[COST_INPUTS_FIELD];
    const inputs = read.get(item.id as number);
    Object.assign(item, costsOf(item.id as number, inputs, classicAt(inputs, now)));
    if (inputs && followsTheClock(inputs, now)) followsClock(item, costedAgain(item, inputs));
  }
}
