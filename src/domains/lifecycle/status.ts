// What every status change of an incident or a case does, whatever the kind: leaving Closed brings
// the people back with their roles, entering Closed stamps `closed_at` and removes them, and the
// timeline says what changed. Each kind adds its own stamps (incident/flows.ts, case/flows.ts).
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { logEvent } from '../event/service.ts';
import { ownerOf, type RecordKind } from './kind.ts';
import { inactivateParticipants, reactivateParticipants } from './participants.ts';

export interface StatusValues {
  status?: string;
  closed_at?: Date | null;
}

/**
 * Moves the record `row` from its status to `to`, returning the values to write (none when it stays).
 * `stamps` gives the kind's own values for the move; it runs after the people are back and before
 * they leave.
 */
export async function moveStatus<V extends StatusValues>(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  row: { id: number; status: string },
  to: string,
  now: Date,
  stamps: (from: string) => Promise<V> | V,
): Promise<V> {
  const from = row.status;
  if (from === to) return {} as V;
  if (from === 'Closed') await reactivateParticipants(tx, ctx, kind, row.id, now);
  const values: V = { ...(await stamps(from)), status: to };
  if (to === 'Closed') {
    values.closed_at = now;
    await inactivateParticipants(tx, ctx, kind, row.id, now);
  }
  const title = kind.name === 'incident' ? 'Incident' : 'Case';
  await logEvent(tx, ctx, ownerOf(kind, row.id), {
    description: `${title} status changed from ${from} to ${to}`,
    type: 'Assessment updated',
    details: { field: 'status', previous: from, current: to },
    at: now,
  });
  return values;
}
