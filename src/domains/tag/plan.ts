// Tags of an incident or a case: those named in a body, resolved before anything is written
// (existing ones by id or by name and type, new ones and new tag types planned, then created; at
// most one tag of each exclusive type), and the list relations that filter through them.
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/connection.ts';
import type { Relation } from '../../list/definition.ts';
import type { Ctx } from '../../server/context.ts';
import { invalid, validationError } from '../../server/errors.ts';
import { tagType } from '../tag_type/table.ts';
import { tag } from './table.ts';

type Loc = (string | number)[];

type TagRef = { id?: number | null; name?: string | null; tag_type?: { id?: number | null; name?: string | null } | null; [k: string]: unknown };

/** Tags to link, as a plan: existing ids, and the ones to create (resolving fails before anything is written). */
export interface TagPlan {
  ids: number[];
  create: { index: number; name: string; tagTypeId?: number; tagTypeName?: string }[];
}

export async function planTags(tx: Executor, ctx: Ctx, values: TagRef[], projectId: number): Promise<TagPlan> {
  const plan: TagPlan = { ids: [], create: [] };
  const org = ctx.organization.id;
  for (const [i, value] of values.entries()) {
    const loc: Loc = ['tags', i];
    if (typeof value.id === 'number') {
      const [row] = await tx
        .select({ id: tag.id })
        .from(tag)
        .where(and(eq(tag.organization_id, org), eq(tag.project_id, projectId), eq(tag.id, value.id)));
      if (!row) throw invalid(loc, 'Tag not found.', 'value_error.not_found');
      plan.ids.push(row.id);
      continue;
    }
    if (typeof value.name !== 'string' || value.name.trim() === '') throw invalid(loc, 'Tag not found.', 'value_error.not_found');
    const type = value.tag_type;
    let tagTypeId: number | undefined;
    if (type && typeof type.id === 'number') {
      const [row] = await tx
        .select({ id: tagType.id })
        .from(tagType)
        .where(and(eq(tagType.project_id, projectId), eq(tagType.id, type.id)));
      if (!row) throw invalid([...loc, 'tag_type'], 'Tag type not found.', 'value_error.not_found');
      tagTypeId = row.id;
    } else if (type && typeof type.name === 'string') {
      const [row] = await tx
        .select({ id: tagType.id })
        .from(tagType)
        .where(and(eq(tagType.project_id, projectId), eq(tagType.name, type.name)));
      tagTypeId = row?.id;
    }
    // A named type that does not exist yet holds no tag: the tag is new.
    const typeMissing = !!type && typeof type.name === 'string' && tagTypeId === undefined;
    const [found] = typeMissing
      ? []
      : await tx
          .select({ id: tag.id })
          .from(tag)
          .where(and(eq(tag.project_id, projectId), eq(tag.name, value.name), tagTypeId !== undefined ? eq(tag.tag_type_id, tagTypeId) : undefined))
          .orderBy(tag.id)
          .limit(1);
    if (found) {
      plan.ids.push(found.id);
      continue;
    }
    // A new tag needs a type: an existing one, or one named to be created.
    if (tagTypeId === undefined && !(type && typeof type.name === 'string' && type.name.trim()))
      throw invalid([...loc, 'tag_type'], 'Tag type not found.', 'value_error.not_found');
    plan.create.push({ index: i, name: value.name, tagTypeId, tagTypeName: tagTypeId === undefined ? type!.name! : undefined });
  }
  return plan;
}

/** Creates the planned tags (and their missing tag types) and returns every tag id, in body order. */
export async function writeTagPlan(tx: Executor, ctx: Ctx, plan: TagPlan, projectId: number): Promise<number[]> {
  const owner = { organization_id: ctx.organization.id, project_id: projectId };
  for (const item of plan.create) {
    let typeId = item.tagTypeId;
    if (typeId === undefined) {
      await tx
        .insert(tagType)
        .values({ ...owner, name: item.tagTypeName! })
        .onConflictDoNothing();
      [{ id: typeId }] = await tx
        .select({ id: tagType.id })
        .from(tagType)
        .where(and(eq(tagType.project_id, projectId), eq(tagType.name, item.tagTypeName!)));
    }
    await tx
      .insert(tag)
      .values({ ...owner, name: item.name, tag_type_id: typeId })
      .onConflictDoNothing();
    const [row] = await tx
      .select({ id: tag.id })
      .from(tag)
      .where(and(eq(tag.tag_type_id, typeId), eq(tag.name, item.name)));
    plan.ids.push(row.id);
  }
  return [...new Set(plan.ids)];
}

const EXCLUSIVE = 'Found multiple exclusive tags. Please ensure that only one tag of a given type is applied. Tags: ';

/** At most one tag of each exclusive tag type (422 naming the clashing tags otherwise). */
export async function checkExclusiveTags(tx: Executor, tagIds: number[]): Promise<void> {
  if (tagIds.length < 2) return;
  const rows = await tx
    .select({ name: tag.name, type: tag.tag_type_id })
    .from(tag)
    .innerJoin(tagType, eq(tagType.id, tag.tag_type_id))
    .where(and(inArray(tag.id, tagIds), eq(tagType.exclusive, true)))
    .orderBy(tag.id);
  const byType = new Map<number, string[]>();
  for (const r of rows) byType.set(r.type, [...(byType.get(r.type) ?? []), r.name ?? '']);
  for (const names of byType.values()) {
    if (names.length > 1) {
      const msg = `${EXCLUSIVE}${names.join(',')}`;
      throw validationError([{ loc: ['body', 'tags'], msg, type: 'value_error', ctx: { msg } }]);
    }
  }
}

/**
 * The list relations through which `filter` reaches a record's tags and their types: `link` is the
 * record's tag link table, with its `owner` and `tagId` columns; `recordId` the listed record's id.
 */
export function tagRelations(link: PgTable, owner: PgColumn, tagId: PgColumn, recordId: PgColumn): Relation[] {
  const linked = (c: SQL, join?: SQL) =>
    sql`EXISTS (SELECT 1 FROM ${link} JOIN ${tag} ON ${tag.id} = ${tagId} ${join ?? sql``} WHERE ${owner} = ${recordId} AND ${c})`;
  return [
    {
      kind: 'many',
      model: 'Tag',
      tableName: 'tag',
      table: tag,
      fields: { id: 'int', name: 'text', external_id: 'text', discoverable: 'bool' },
      exists: (c) => linked(c),
    },
    {
      kind: 'many',
      model: 'TagType',
      tableName: 'tag_type',
      table: tagType,
      fields: { id: 'int', name: 'text', exclusive: 'bool' },
      exists: (c) => linked(c, sql`JOIN ${tagType} ON ${tagType.id} = ${tag.tag_type_id}`),
    },
  ];
}
