// Cases read, listed and deleted. Create, update and escalation are flows (flows.ts). Every read
// goes through the visibility rules.
import { eq } from 'drizzle-orm';
import { readAfterCheck, removeRecord } from '../lifecycle/records.ts';
import { participant } from '../lifecycle/table.ts';
import { participantMinimalReader, participantReader } from '../participant/reader.ts';
import { addParticipant } from '../lifecycle/participants.ts';
import { atLeast } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { CASE, caseList } from './kind.ts';
import { listTables, runList, type Page } from '../../list/engine.ts';
import { applyInclude, type Included } from '../../list/include.ts';
import type { Ctx } from '../../server/context.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { caseDashboardTables, readCaseFor, type CaseReadIncludableT, type CaseReadT, readVisibleCases, readVisibleCasesIncluded } from './reader.ts';
import { assertCanEditCase, assertCanViewCase, visibleCases } from './visibility.ts';

export { caseList };

export interface CaseListQuery extends ListQueryT {
  'include[]': string[];
}

/** The cases the caller may see, minimal, cut to `include[]` when given. */
export async function listCases(ctx: Ctx, query: CaseListQuery): Promise<CasePage> {
  return readPage(ctx, await pageOfIds(ctx, query), query);
}

type CasePage = Page<Included<CaseReadIncludableT>>;

/**
 * A dashboard's list (`include[]` within its fields), with every table it read: the list's and the
 * projection's; undefined when one cannot say (its answer is then not kept).
 */
export async function listCaseDashboard(ctx: Ctx, query: CaseListQuery): Promise<{ page: CasePage; tables: string[] | undefined }> {
  const page = await listCases(ctx, query);
  const read = caseDashboardTables(ctx.db, ctx);
  return { page, tables: read && [...new Set([...listTables(ctx.db, ctx, caseList, query, visibleCases(ctx)), ...read])] };
}

const pageOfIds = (ctx: Ctx, query: CaseListQuery) => runList<{ id: number }>(ctx.db, ctx, caseList, query, visibleCases(ctx));

/** The page's read objects (cut to `include[]`). */
async function readPage(ctx: Ctx, page: Page<{ id: number }>, query: CaseListQuery): Promise<CasePage> {
  const include = query['include[]'];
  const ids = page.items.map((i) => i.id);
  const items = include.length ? await readVisibleCasesIncluded(ctx, ctx.db, ids, include) : await readVisibleCases(ctx, ctx.db, ids, 'listed');
  return { ...page, items: applyInclude(items, include) };
}

export async function getCase(ctx: Ctx, id: number) {
  return readAfterCheck(assertCanViewCase(ctx, id), readVisibleCases(ctx, ctx.db, [id], true));
}

/** GET case: one statement reads the case if the caller may see it. */
export async function getCaseResponse(ctx: Ctx, id: number): Promise<CaseReadT> {
  const read = await readCaseFor(ctx, id);
  if (!read) throw errors.notFound('A case');
  return read;
}

/**
 * The case's participants, active or not, in the order they joined: minimal (the contact without its
 * filters) or full. Beyond 0.1.0, for the web UI's participant pickers, as current Dispatch serves it;
 * only for those who may see the case.
 */
export async function listCaseParticipants(ctx: Ctx, id: number, minimal: boolean) {
  await assertCanViewCase(ctx, id);
  const ids = (await ctx.db.select({ id: participant.id }).from(participant).where(eq(participant.case_id, id)).orderBy(participant.id)).map((r) => r.id);
  const found = await (minimal ? participantMinimalReader() : participantReader())(ctx.db, ids, ctx);
  return ids.flatMap((pid) => found.get(pid) ?? []);
}

/** Removes the case and everything that belongs to it (participants, timeline, links); its signal instances stay, unlinked. */
export const deleteCase = (ctx: Ctx, id: number) => removeRecord(ctx, CASE, id, (tx) => assertCanEditCase(ctx, id, tx));

/** The caller joins the case as an Observer (an inactive participant comes back); a Restricted case only for Admins and above, as incidents. */
export async function joinCase(ctx: Ctx, id: number): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    const row = await assertCanViewCase(ctx, id, tx);
    if (row.visibility === 'Restricted' && !atLeast(ctx.role, 'Admin')) throw errors.forbidden();
    await addParticipant(tx, ctx, CASE, id, ctx.user.email, 'Observer', { reason: 'Joined the case' });
  });
  return null;
}
