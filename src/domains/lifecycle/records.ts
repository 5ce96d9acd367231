// Reading, locking and removing one incident or case, the same way for both kinds.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { audit, deletedEntry } from '../audit/record.ts';
import { checkText } from './changes.ts';
import type { caseTable, incident } from './table.ts';
import type { RecordKind } from './kind.ts';

type RecordTable = typeof incident | typeof caseTable;

/**
 * A record's read for a caller who may see it: the check and the read run side by side on the
 * pool, and what was read is answered only if the check passes.
 */
export async function readAfterCheck<T>(check: Promise<unknown>, read: Promise<T[]>): Promise<T> {
  const [, [item]] = await Promise.all([check, read]);
  return item;
}

/**
 * The record's row, locked until the transaction ends (an update's first read). A record deleted
 * meanwhile is not found (404): the lock waits for the delete's commit and then finds no row.
 */
export async function lockRecord<T extends RecordTable>(tx: Executor, kind: RecordKind<T>, id: number): Promise<T['$inferSelect']> {
  // Drizzle's builder takes one table type, not a union of two; both have the columns used here.
  const table = kind.table as typeof incident;
  const [row] = await tx.select().from(table).where(eq(table.id, id)).for('update');
  if (!row) throw errors.notFound(kind.name === 'incident' ? 'An incident' : 'A case');
  return row as T['$inferSelect'];
}

/**
 * An update's start, inside its transaction: the record's row, locked until the transaction ends,
 * then the caller's permission (`check`, decided on the row as it stands now that no other write can
 * change it), the request's precondition (If-Match) and the body's text. Two updates of one record
 * run one after the other, each whole.
 */
export async function beginUpdate<T extends RecordTable>(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind<T>,
  id: number,
  body: { title: string; description?: string | null },
  check: () => Promise<unknown>,
): Promise<T['$inferSelect']> {
  const row = await lockRecord(tx, kind, id);
  await check();
  await ctx.precondition?.(tx);
  checkText(body);
  return row;
}

/**
 * Removes the record after `check`, in one transaction. What belongs to it (participants, timeline,
 * links from and to it, and for incidents reports, tasks, costs and feedback) goes with it by cascade.
 */
export async function removeRecord(ctx: Ctx, kind: RecordKind, id: number, check: (tx: Executor) => Promise<unknown>): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    await check(tx);
    const table = kind.table as typeof incident;
    const [gone] = await tx.delete(table).where(eq(table.id, id)).returning();
    if (gone) await audit(tx, ctx, deletedEntry(kind.name, gone));
  });
  return null;
}

/**
 * The audit entry of an update that turned a record Restricted or Open again (`<kind>.visibility_changed`),
 * in the update's transaction; nothing when the visibility stays.
 */
export async function auditVisibility(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  row: { id: number; name: string | null; visibility: string | null },
  next: string | null | undefined,
): Promise<void> {
  if (next === undefined || next === row.visibility) return;
  await audit(tx, ctx, {
    action: `${kind.name}.visibility_changed`,
    target: { type: kind.name, id: row.id, label: row.name },
    before: { visibility: row.visibility },
    after: { visibility: next },
  });
}
