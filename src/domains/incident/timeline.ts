// What people write into an incident's timeline from the web UI (custom events: added, corrected,
// removed, as Dispatch's later API does at /incidents/{id}/event), and people added to it by email.
// Only custom events change here: the events Muster writes itself are the record of what happened.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { event } from '../event/table.ts';
import type { ADDABLE_ROLES } from './timeline-schema.ts';
import { addTimelineEntry, assignIncidentRole } from './service.ts';
import { assertCanEdit } from './visibility.ts';

export const CUSTOM_EVENT = 'Custom event';

export interface CustomEventInput {
  description: string;
  started_at?: string | null;
  source?: string | null;
  details?: Record<string, unknown> | null;
}

const when = (at: string | null | undefined) => (at ? new Date(at) : new Date());

/** Who wrote and changed an entry is the caller's, never the body's: these keys of `details` are Muster's own. */
const AUTHORSHIP = ['created_by', 'updated_by', 'updated_on'];
const written = (details: Record<string, unknown> | null | undefined) =>
  Object.fromEntries(Object.entries(details ?? {}).filter(([key]) => !AUTHORSHIP.includes(key)));

export async function addCustomEvent(ctx: Ctx, id: number, input: CustomEventInput) {
  await addTimelineEntry(ctx, id, {
    description: input.description,
    at: when(input.started_at),
    owner: ctx.user.email,
    source: input.source || 'Incident Participant',
    type: CUSTOM_EVENT,
    details: { ...written(input.details), created_by: ctx.user.email },
  });
  return null;
}

/** The custom event `uuid` of the incident, or 404 (other events are not anyone's to change). */
async function customEvent(ctx: Ctx, tx: Executor, id: number, uuid: string) {
  const [found] = await tx
    .select({ uuid: event.uuid, details: event.details })
    .from(event)
    .where(and(eq(event.uuid, uuid), eq(event.incident_id, id), eq(event.organization_id, ctx.organization.id), eq(event.type, CUSTOM_EVENT)))
    .limit(1);
  if (!found) throw errors.notFoundWith('A custom event with this uuid does not exist in this incident.');
  return found;
}

export async function updateCustomEvent(ctx: Ctx, id: number, input: CustomEventInput & { uuid: string }) {
  await ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    const found = await customEvent(ctx, tx, id, input.uuid);
    const at = input.started_at ? new Date(input.started_at) : undefined;
    await tx
      .update(event)
      .set({
        description: input.description,
        ...(at ? { started_at: at, ended_at: at } : {}),
        ...(input.source ? { source: input.source } : {}),
        details: {
          ...(found.details as Record<string, unknown> | null),
          ...written(input.details),
          updated_by: ctx.user.email,
          updated_on: new Date().toISOString(),
        },
      })
      .where(eq(event.uuid, found.uuid));
  });
  return null;
}

export async function deleteCustomEvent(ctx: Ctx, id: number, uuid: string) {
  await ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    const found = await customEvent(ctx, tx, id, uuid);
    await tx.delete(event).where(eq(event.uuid, found.uuid));
  });
  return null;
}

export const addIncidentParticipant = (ctx: Ctx, id: number, email: string, role: (typeof ADDABLE_ROLES)[number]) => assignIncidentRole(ctx, id, email, role);
