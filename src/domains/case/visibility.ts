// Who may see and edit a case (Dispatch's CaseView and CaseEdit), as SQL for lists and counts and as
// checks for one case.
//
// Who may see a case is decided by the lifecycle kit (lifecycle/visibility.ts), as for incidents.
// Editing needs Admin and above or any participant (the OpenAPI-era rule).
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/connection.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { caseTable } from '../lifecycle/table.ts';
import { assertVisible, isParticipant, recordVisible, resolveVisible, visibleRecords } from '../lifecycle/visibility.ts';
import { CASE } from './kind.ts';

export type CaseRow = typeof caseTable.$inferSelect;

/** The cases (rows of `table`, the case table or an alias of it) the caller may see. */
export const visibleCases = (ctx: Ctx, table: typeof caseTable = caseTable): SQL => visibleRecords(ctx, CASE, table);

/** For rows that point at a case (links, instances): the case `caseId` is one the caller may see. */
export const caseVisible = (ctx: Ctx, caseId: PgColumn | SQL): SQL => recordVisible(ctx, CASE, caseId);

/** The case if the caller may see it; 404 otherwise (missing, another organization's, or hidden). */
export const assertCanViewCase = (ctx: Ctx, caseId: number, db: Executor = ctx.db): Promise<CaseRow> => assertVisible(ctx, CASE, caseId, db);

/** CaseEdit: Admins and above and the case's participants; 404 for those who may not see it, 403 for the others. */
export async function assertCanEditCase(ctx: Ctx, caseId: number, db: Executor = ctx.db): Promise<CaseRow> {
  const row = await assertCanViewCase(ctx, caseId, db);
  if (atLeast(ctx.role, 'Admin')) return row;
  const [hit] = await db
    .select({ id: caseTable.id })
    .from(caseTable)
    .where(and(eq(caseTable.id, caseId), isParticipant(ctx, CASE, caseTable.id)));
  if (!hit) throw errors.forbidden();
  return row;
}

/** Cases named by id in a body list: ones the caller may see, other than `except`; 422 on the item otherwise. */
export const visibleCaseIds = (tx: Executor, ctx: Ctx, values: { id?: unknown }[], field: string, except?: number) =>
  resolveVisible(tx, ctx, CASE, values, field, except);
