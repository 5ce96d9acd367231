// The timeline: every state change of an incident or a case writes its event here, in the transaction that
// made the change.
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { Ctx } from '../../server/context.ts';
import type { EventType } from './schema.ts';
import { event } from './table.ts';

export const EVENT_SOURCE = 'Muster Core App';

export interface EventInput {
  description: string;
  type?: EventType;
  details?: Record<string, unknown> | null;
  /** Who did it: a name or email; the caller's email when omitted. */
  owner?: string | null;
  source?: string;
  at?: Date;
}

/** The record an event belongs to: an incident or a case. */
export type EventOwner = { incident_id: number } | { case_id: number };

export async function logEvent(tx: Executor, ctx: Ctx, owner: EventOwner, input: EventInput): Promise<void> {
  await logEvents(tx, ctx, [{ ...input, record: owner }]);
}

/** Several events in one statement (the cases a batch of signal instances opens, say), in order. */
export async function logEvents(tx: Executor, ctx: Ctx, inputs: (EventInput & { record: EventOwner })[]): Promise<void> {
  if (inputs.length === 0) return;
  await runStatement(tx, insertEvents(ctx, inputs));
}

/**
 * The insert of these events, to run alone or inside a statement of the caller's (as a CTE's main
 * query). The rows travel as one JSON parameter, so that the statement's text is the same however
 * many events it writes (one prepared statement, not one per count); they are inserted in the order
 * given, which `seq` keeps.
 */
export function insertEvents(ctx: Ctx, inputs: (EventInput & { record: EventOwner })[]): SQL {
  // Events written together (the fields one edit changed) happened at one moment: one time, which
  // their order in `seq` follows, where a clock read per event could tick between two of them.
  const now = new Date();
  const rows = inputs.map(({ record, ...input }, n) => {
    const at = (input.at ?? now).toISOString();
    return {
      n,
      incident_id: 'incident_id' in record ? record.incident_id : null,
      case_id: 'case_id' in record ? record.case_id : null,
      at,
      source: input.source ?? EVENT_SOURCE,
      description: input.description,
      details: input.details ?? null,
      type: input.type ?? 'Other',
      owner: input.owner === undefined ? ctx.user.email : input.owner,
    };
  });
  return sql`INSERT INTO ${event} (organization_id, incident_id, case_id, started_at, ended_at, source, description, details, type, owner)
    SELECT ${ctx.organization.id}::int, x.incident_id, x.case_id, x.at, x.at, x.source, x.description, x.details, x.type, x.owner
    FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(n int, incident_id int, case_id int, at timestamptz, source text, description text,
      details jsonb, type text, owner text)
    ORDER BY x.n`;
}

export const logIncidentEvent = (tx: Executor, ctx: Ctx, incidentId: number, input: EventInput) => logEvent(tx, ctx, { incident_id: incidentId }, input);
export const logCaseEvent = (tx: Executor, ctx: Ctx, caseId: number, input: EventInput) => logEvent(tx, ctx, { case_id: caseId }, input);
