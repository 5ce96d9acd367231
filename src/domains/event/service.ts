// The timeline: every state change of an incident or a case writes its event here, in the transaction that
// made the change.
import type { Executor } from '../../db/connection.ts';
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
  await insertEvents(tx, ctx, inputs);
}

/** The insert of these events, to run alone or inside a statement of the caller's (as a CTE's main query). */
export function insertEvents(tx: Executor, ctx: Ctx, inputs: (EventInput & { record: EventOwner })[]) {
  return tx.insert(event).values(
    inputs.map(({ record, ...input }) => {
      const at = input.at ?? new Date();
      return {
        organization_id: ctx.organization.id,
        ...record,
        started_at: at,
        ended_at: at,
        source: input.source ?? EVENT_SOURCE,
        description: input.description,
        details: input.details ?? null,
        type: input.type ?? 'Other',
        owner: input.owner === undefined ? ctx.user.email : input.owner,
      };
    }),
  );
}

export const logIncidentEvent = (tx: Executor, ctx: Ctx, incidentId: number, input: EventInput) => logEvent(tx, ctx, { incident_id: incidentId }, input);
export const logCaseEvent = (tx: Executor, ctx: Ctx, caseId: number, input: EventInput) => logEvent(tx, ctx, { case_id: caseId }, input);
