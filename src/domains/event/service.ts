// The timeline: every state change of an incident writes its event here, in the transaction that
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

export async function logIncidentEvent(tx: Executor, ctx: Ctx, incidentId: number, input: EventInput): Promise<void> {
  const at = input.at ?? new Date();
  await tx.insert(event).values({
    organization_id: ctx.organization.id,
    incident_id: incidentId,
    started_at: at,
    ended_at: at,
    source: input.source ?? EVENT_SOURCE,
    description: input.description,
    details: input.details ?? null,
    type: input.type ?? 'Other',
    owner: input.owner === undefined ? ctx.user.email : input.owner,
  });
}
