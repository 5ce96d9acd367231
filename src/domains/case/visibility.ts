// Who may see and edit a case (Dispatch's CaseView and CaseEdit), as SQL for lists and counts and as
// checks for one case.
//
// An Open case is seen by every member of its organization; a Restricted one by Admins and above
// and by its participants (matched by email). Editing needs Admin and above or any participant (the
// OpenAPI-era rule). A case the caller may not see answers 404 as a missing one does.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { resolveVisibleIds } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { termsOf, type ViewerTerms } from '../../server/viewer.ts';
import { errors } from '../../server/errors.ts';
import { individualContact } from '../individual/table.ts';
import { participant } from '../participant/table.ts';
import { caseTable } from './table.ts';

export type CaseRow = typeof caseTable.$inferSelect;

type CaseTable = typeof caseTable;

/** Whether the caller's email belongs to a participant of the case `idColumn` holds. */
export function isCaseParticipant(ctx: Ctx, idColumn: PgColumn | SQL): SQL {
  return participates(ctx.user.email, idColumn);
}

function participates(email: ViewerTerms['email'], idColumn: PgColumn | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${participant} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} WHERE ${participant.case_id} = ${idColumn} AND lower(${individualContact.email}) = lower(${email}))`;
}

/**
 * The rule itself, for a viewer given as terms (values, or a prepared statement's placeholders):
 * the rows of `table` (the case table or an alias of it) in the viewer's organization, and of them
 * the Restricted ones only for Admins and above and participants.
 */
export function caseRule(table: CaseTable, v: ViewerTerms): SQL {
  const inOrganization = sql`${table.organization_id} = ${v.organization}`;
  if (v.all === true) return inOrganization;
  const seen = sql`${table.visibility} = 'Open' OR ${participates(v.email, table.id)}`;
  return v.all === false ? sql`(${inOrganization} AND (${seen}))` : sql`(${inOrganization} AND (${v.all} OR ${seen}))`;
}

/** The cases (rows of `table`, the case table or an alias of it) the caller may see: the organization's, the Restricted ones only for Admins and above and participants. */
export function visibleCases(ctx: Ctx, table: CaseTable = caseTable): SQL {
  return caseRule(table, termsOf(ctx));
}

/** For rows that point at a case (links, instances): the case `caseId` is one the caller may see. */
export function caseVisible(ctx: Ctx, caseId: PgColumn | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${caseTable} WHERE ${caseTable.id} = ${caseId} AND ${visibleCases(ctx)})`;
}

/** The case if the caller may see it; 404 otherwise (missing, another organization's, or hidden). */
export async function assertCanViewCase(ctx: Ctx, caseId: number, db: Executor = ctx.db): Promise<CaseRow> {
  const [row] = await db
    .select()
    .from(caseTable)
    .where(and(eq(caseTable.id, caseId), visibleCases(ctx)));
  if (!row) throw errors.notFound('A case');
  return row;
}

/** CaseEdit: Admins and above and the case's participants; 404 for those who may not see it, 403 for the others. */
export async function assertCanEditCase(ctx: Ctx, caseId: number, db: Executor = ctx.db): Promise<CaseRow> {
  const row = await assertCanViewCase(ctx, caseId, db);
  if (atLeast(ctx.role, 'Admin')) return row;
  const [hit] = await db
    .select({ id: caseTable.id })
    .from(caseTable)
    .where(and(eq(caseTable.id, caseId), isCaseParticipant(ctx, caseTable.id)));
  if (!hit) throw errors.forbidden();
  return row;
}

/** Cases named by id in a body list: ones the caller may see, other than `except`; 422 on the item otherwise. */
export const visibleCaseIds = (tx: Executor, ctx: Ctx, values: { id?: unknown }[], field: string, except?: number) =>
  resolveVisibleIds(tx, caseTable.id, visibleCases(ctx), values, field, 'Case', except);
