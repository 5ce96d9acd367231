// Cases read, listed and deleted. Create, update and escalation are flows (flows.ts). Every read
// goes through the visibility rules.
import { eq, sql } from 'drizzle-orm';
import { readColumns } from '../../db/columns.ts';
import type { ListDefinition } from '../../list/definition.ts';
import { runList } from '../../list/engine.ts';
import { applyInclude } from '../../list/include.ts';
import type { Ctx } from '../../server/context.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseSeverity } from '../case_severity/table.ts';
import { caseType } from '../case_type/table.ts';
import { individualContact } from '../individual/table.ts';
import { participant } from '../participant/table.ts';
import { project } from '../project/table.ts';
import { tag } from '../tag/table.ts';
import { tagType } from '../tag_type/table.ts';
import { readVisibleCases } from './reader.ts';
import { caseDuplicate, caseRelated, caseTable, caseTag } from './table.ts';
import { assertCanEditCase, assertCanViewCase, visibleCases } from './visibility.ts';

const columns = readColumns(caseTable);
const assignee = sql`(SELECT ${participant.individual_contact_id} FROM ${participant} WHERE ${participant.id} = ${caseTable.assignee_id})`;

/** What `filter` and `sortBy[]` reach from a case (Dispatch's model names). */
export const caseList: ListDefinition<typeof columns> = {
  model: 'Case',
  tableName: 'case',
  table: caseTable,
  columns,
  idColumn: caseTable.id,
  searchVector: caseTable.search_vector,
  separateCount: true,
  fields: {
    id: 'int',
    name: 'text',
    title: 'text',
    description: 'text',
    resolution: 'text',
    resolution_reason: 'text',
    status: 'text',
    visibility: 'text',
    reported_at: 'timestamp',
    triage_at: 'timestamp',
    escalated_at: 'timestamp',
    stable_at: 'timestamp',
    closed_at: 'timestamp',
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  relations: [
    { kind: 'one', model: 'Project', tableName: 'project', table: project, on: eq(project.id, caseTable.project_id), fields: { id: 'int', name: 'text' } },
    {
      kind: 'one',
      model: 'CasePriority',
      tableName: 'case_priority',
      table: casePriority,
      on: eq(casePriority.id, caseTable.case_priority_id),
      fields: { id: 'int', name: 'text', view_order: 'int', page_assignee: 'bool' },
    },
    {
      kind: 'one',
      model: 'CaseSeverity',
      tableName: 'case_severity',
      table: caseSeverity,
      on: eq(caseSeverity.id, caseTable.case_severity_id),
      fields: { id: 'int', name: 'text', view_order: 'int' },
    },
    {
      kind: 'one',
      model: 'CaseType',
      tableName: 'case_type',
      table: caseType,
      on: eq(caseType.id, caseTable.case_type_id),
      fields: { id: 'int', name: 'text', visibility: 'text', exclude_from_metrics: 'bool' },
    },
    {
      kind: 'many',
      model: 'Tag',
      tableName: 'tag',
      table: tag,
      fields: { id: 'int', name: 'text', external_id: 'text', discoverable: 'bool' },
      exists: (c) => sql`EXISTS (SELECT 1 FROM ${caseTag} JOIN ${tag} ON ${tag.id} = ${caseTag.tag_id} WHERE ${caseTag.case_id} = ${caseTable.id} AND ${c})`,
    },
    {
      kind: 'many',
      model: 'TagType',
      tableName: 'tag_type',
      table: tagType,
      fields: { id: 'int', name: 'text', exclusive: 'bool' },
      exists: (c) =>
        sql`EXISTS (SELECT 1 FROM ${caseTag} JOIN ${tag} ON ${tag.id} = ${caseTag.tag_id} JOIN ${tagType} ON ${tagType.id} = ${tag.tag_type_id} WHERE ${caseTag.case_id} = ${caseTable.id} AND ${c})`,
    },
    {
      // The assignee (Dispatch filters cases by "assignee" as an IndividualContact).
      kind: 'many',
      model: 'IndividualContact',
      tableName: 'individual_contact',
      table: individualContact,
      fields: { id: 'int', email: 'text', name: 'text', title: 'text', company: 'text' },
      exists: (c) => sql`EXISTS (SELECT 1 FROM ${individualContact} WHERE ${individualContact.id} = ${assignee} AND ${c})`,
    },
  ],
};

export interface CaseListQuery extends ListQueryT {
  'include[]': string[];
}

/** The cases the caller may see, minimal, cut to `include[]` when given. */
export async function listCases(ctx: Ctx, query: CaseListQuery) {
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
  // The check and the read run side by side on the pool; what was read is answered only if the check passes.
  const [, [item]] = await Promise.all([assertCanViewCase(ctx, id), readVisibleCases(ctx, ctx.db, [id], true)]);
  return item;
}

/** Removes the case and everything that belongs to it (participants, timeline, links); its signal instances stay, unlinked. */
export async function deleteCase(ctx: Ctx, id: number): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    await assertCanEditCase(ctx, id, tx);
    // Links where it is another case's related or duplicate go with it (cascade), as do its participants and events.
    await tx.delete(caseRelated).where(eq(caseRelated.related_id, id));
    await tx.delete(caseDuplicate).where(eq(caseDuplicate.duplicate_id, id));
    await tx.delete(caseTable).where(eq(caseTable.id, id));
  });
  return null;
}
