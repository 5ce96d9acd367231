// Who may see an incident or a case, decided once for both kinds (recordRule, declared with the
// tables): an Open record is seen by every member of its organization; a Restricted one by Admins
// and above and by its participants (any participant, active or not, matched by email). A record
// the caller may not see answers 404 as a missing one does, and lists, links and nested reads
// leave it out.
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { resolveVisibleIds } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { termsOf, type ViewerTerms } from '../../server/viewer.ts';
import { errors } from '../../server/errors.ts';
import type { RecordRows } from './kind.ts';
import { type caseTable, type incident, participant, participates, recordRule } from './table.ts';

/**
 * Whether the caller's email belongs to a participant of the record `idColumn` holds (or the
 * participant `participantColumn` names): the right to act on a record the caller can see. Seeing a
 * Restricted record by participation needs a confirmed address (viewer terms, docs/security.md).
 */
export function isParticipant(ctx: Ctx, kind: RecordRows, idColumn: PgColumn | SQL, participantColumn?: PgColumn): SQL {
  return participantColumn
    ? participates(participant.id, participantColumn, ctx.user.email)
    : participates(participant[kind.ownerColumn], idColumn, ctx.user.email);
}

/** The records of `table` (the kind's table or an alias of it) the caller may see. */
export function visibleRecords(ctx: Ctx, kind: RecordRows, table: RecordRows['table'] = kind.table): SQL {
  return recordsVisibleTo(termsOf(ctx), kind, table);
}

/** visibleRecords for a viewer given as terms (values, or a prepared statement's placeholders). */
export function recordsVisibleTo(terms: ViewerTerms, kind: RecordRows, table: RecordRows['table'] = kind.table): SQL {
  return recordRule(table, participant[kind.ownerColumn], terms);
}

/** For rows that point at a record (tasks, costs, links, instances): the record `recordId` is one the caller may see. */
export function recordVisible(ctx: Ctx, kind: RecordRows, recordId: PgColumn | SQL): SQL {
  return recordVisibleTo(termsOf(ctx), kind, recordId);
}

/** recordVisible for a viewer given as terms (values, or a prepared statement's placeholders). */
export function recordVisibleTo(terms: ViewerTerms, kind: RecordRows, recordId: PgColumn | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${kind.table} WHERE ${kind.table.id} = ${recordId} AND ${recordsVisibleTo(terms, kind)})`;
}

/** Those of `ids` the caller may see, in ascending order. */
export async function visibleAmong(tx: Executor, ctx: Ctx, kind: RecordRows, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: kind.table.id })
    .from(kind.table)
    .where(and(inArray(kind.table.id, ids), visibleRecords(ctx, kind)));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Records named by id in a body list: ones the caller may see, other than `except`; 422 on the item otherwise. */
export const resolveVisible = (tx: Executor, ctx: Ctx, kind: RecordRows, values: { id?: unknown }[], field: string, except?: number) =>
  resolveVisibleIds(tx, kind.table.id, visibleRecords(ctx, kind), values, field, kind.name === 'incident' ? 'Incident' : 'Case', except);

/** The record if the caller may see it; 404 otherwise (missing, another organization's, or hidden). */
export async function assertVisible<T extends typeof incident | typeof caseTable>(
  ctx: Ctx,
  kind: RecordRows<T>,
  id: number,
  db: Executor,
): Promise<T['$inferSelect']> {
  // Drizzle's builder takes one table type, not a union of two; both have the columns used here.
  const table = kind.table as typeof incident;
  const [row] = await db
    .select()
    .from(table)
    .where(and(eq(table.id, id), visibleRecords(ctx, kind)));
  if (!row) throw errors.notFound(kind.name === 'incident' ? 'An incident' : 'A case');
  return row as T['$inferSelect'];
}
