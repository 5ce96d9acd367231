// Cases read, listed and deleted. Create, update and escalation are flows (flows.ts). Every read
// goes through the visibility rules.
import { sql } from 'drizzle-orm';
import { recordList } from '../lifecycle/list.ts';
import { readAfterCheck, removeRecord } from '../lifecycle/records.ts';
import { CASE_ASSESSMENT } from './assessment.ts';
import { CASE } from './kind.ts';
import { runList, type Page } from '../../list/engine.ts';
import { applyInclude, type Included } from '../../list/include.ts';
import type { Ctx } from '../../server/context.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { individualContact } from '../individual/table.ts';
import { participant } from '../lifecycle/table.ts';
import { type CaseReadMinimalT, readVisibleCases } from './reader.ts';
import { caseTag } from './table.ts';
import { caseTable } from '../lifecycle/table.ts';
import { assertCanEditCase, assertCanViewCase, visibleCases } from './visibility.ts';

const assignee = sql`(SELECT ${participant.individual_contact_id} FROM ${participant} WHERE ${participant.id} = ${caseTable.assignee_id})`;

/** What `filter` and `sortBy[]` reach from a case (Dispatch's model names). */
export const caseList = recordList(CASE, {
  model: 'Case',
  assessment: CASE_ASSESSMENT,
  tags: { table: caseTag, owner: caseTag.case_id, tag: caseTag.tag_id },
  fields: { resolution_reason: 'text', triage_at: 'timestamp', escalated_at: 'timestamp' },
  // The assignee (Dispatch filters cases by "assignee" as an IndividualContact).
  people: (c) => sql`EXISTS (SELECT 1 FROM ${individualContact} WHERE ${individualContact.id} = ${assignee} AND ${c})`,
});

export interface CaseListQuery extends ListQueryT {
  'include[]': string[];
}

/** The cases the caller may see, minimal, cut to `include[]` when given. */
export async function listCases(ctx: Ctx, query: CaseListQuery): Promise<Page<Included<CaseReadMinimalT>>> {
  const page = await runList<{ id: number }>(ctx.db, ctx, caseList, query, visibleCases(ctx));
  const items = await readVisibleCases(
    ctx,
    ctx.db,
    page.items.map((i) => i.id),
    false,
  );
  return { ...page, items: applyInclude(items, query['include[]']) };
}

export async function getCase(ctx: Ctx, id: number) {
  return readAfterCheck(assertCanViewCase(ctx, id), readVisibleCases(ctx, ctx.db, [id], true));
}

/** Removes the case and everything that belongs to it (participants, timeline, links); its signal instances stay, unlinked. */
export const deleteCase = (ctx: Ctx, id: number) => removeRecord(ctx, CASE, id, (tx) => assertCanEditCase(ctx, id, tx));
