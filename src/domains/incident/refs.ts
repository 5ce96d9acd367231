// What an incident body names, resolved inside the incident's project before anything is written:
// its type, priority and severity (by id or name, else the project's default), people (by email or
// contact id), tags (by id, by name, or to be created), terms, duplicates and costs. Unknown records
// are 422s naming the field.
import { and, eq, inArray } from 'drizzle-orm';
import type { GroupDef } from '../../crud/group.ts';
import { createNamed, resolveRef, resolveRefs, type RefTarget, type RefValue } from '../../crud/refs.ts';
import { defaultRecord } from '../../crud/service.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { invalid, validationError } from '../../server/errors.ts';
import { incidentCost } from '../incident_cost/table.ts';
import { incidentCostTypeTarget } from '../incident_cost_type/group.ts';
import { incidentPriorityGroup, incidentPriorityTarget } from '../incident_priority/group.ts';
import { incidentSeverityGroup, incidentSeverityTarget } from '../incident_severity/group.ts';
import { incidentTypeGroup, incidentTypeTarget } from '../incident_type/group.ts';
import { individualTarget } from '../individual/group.ts';
import { individualContact } from '../individual/table.ts';
import { tag } from '../tag/table.ts';
import { tagType } from '../tag_type/table.ts';
import { termTarget } from './reader.ts';
import { visibleIncidentIds } from './visibility.ts';

type Loc = (string | number)[];
type Ref = RefValue;

/** A reference to a type, priority or severity; the project's default when not given. */
export async function refOrDefault(
  tx: Executor,
  ctx: Ctx,
  target: RefTarget,
  def: GroupDef,
  value: Ref,
  field: string,
  projectId: number,
  label: string,
): Promise<number> {
  const named = value && (typeof value.id === 'number' || typeof value.name === 'string') ? value : undefined;
  if (named) return (await resolveRef(tx, target, named, [field], ctx.organization.id, projectId))!;
  const fallback = await defaultRecord(tx, def, projectId);
  if (!fallback) throw invalid([field], `No default ${label} defined.`, 'value_error.not_found');
  return fallback.id;
}

export interface Assessment {
  typeId: number;
  priorityId: number;
  severityId: number;
}

export async function resolveAssessment(
  tx: Executor,
  ctx: Ctx,
  projectId: number,
  body: { incident_type?: Ref; incident_priority?: Ref; incident_severity?: Ref },
): Promise<Assessment> {
  return {
    typeId: await refOrDefault(tx, ctx, incidentTypeTarget, incidentTypeGroup, body.incident_type, 'incident_type', projectId, 'incident type'),
    priorityId: await refOrDefault(
      tx,
      ctx,
      incidentPriorityTarget,
      incidentPriorityGroup,
      body.incident_priority,
      'incident_priority',
      projectId,
      'incident priority',
    ),
    severityId: await refOrDefault(
      tx,
      ctx,
      incidentSeverityTarget,
      incidentSeverityGroup,
      body.incident_severity,
      'incident_severity',
      projectId,
      'incident severity',
    ),
  };
}

export interface PersonRef {
  individual?: { id?: number | null; email?: string | null; [k: string]: unknown } | null;
  [k: string]: unknown;
}

/** The email of a person named in a body (commander, reporter): their contact's email, or the contact named by id. */
export async function personEmail(tx: Executor, ctx: Ctx, value: PersonRef | null | undefined, field: string, projectId: number): Promise<string | undefined> {
  const individual = value?.individual;
  if (!individual) return undefined;
  if (typeof individual.email === 'string' && individual.email) return individual.email;
  if (typeof individual.id !== 'number') return undefined;
  const id = await resolveRef(tx, individualTarget, { id: individual.id }, [field, 'individual'], ctx.organization.id, projectId);
  const [row] = await tx.select({ email: individualContact.email }).from(individualContact).where(eq(individualContact.id, id!));
  return row.email;
}

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

/** Terms by id or text, created by text when missing (as Dispatch does). */
export async function resolveTerms(tx: Executor, ctx: Ctx, values: NonNullable<Ref>[], projectId: number): Promise<number[]> {
  await createNamed(tx, termTarget, values, ctx.organization.id, projectId);
  return [...new Set(await resolveRefs(tx, termTarget, values, ['terms'], ctx.organization.id, projectId))];
}

/** Duplicates: other incidents of the organization the caller may see. */
export const resolveDuplicates = (tx: Executor, ctx: Ctx, values: NonNullable<Ref>[], incidentId: number) =>
  visibleIncidentIds(tx, ctx, values, 'duplicates', incidentId);

export interface CostPlan {
  keep: number[];
  create: { typeId: number; amount: number }[];
}

/** Costs in an update: with `id` (one of this incident's) kept as stored, without it created in the incident's project. */
export async function planCosts(
  tx: Executor,
  ctx: Ctx,
  values: { id?: number; amount?: number; incident_cost_type?: Ref }[],
  incidentId: number,
  projectId: number,
): Promise<CostPlan> {
  const plan: CostPlan = { keep: [], create: [] };
  const owned = new Set((await tx.select({ id: incidentCost.id }).from(incidentCost).where(eq(incidentCost.incident_id, incidentId))).map((r) => r.id));
  for (const [i, value] of values.entries()) {
    if (typeof value.id === 'number') {
      if (!owned.has(value.id)) throw invalid(['incident_costs', i], 'Incident cost not found.', 'value_error.not_found');
      plan.keep.push(value.id);
      continue;
    }
    const typeId = await resolveRef(
      tx,
      incidentCostTypeTarget,
      value.incident_cost_type ?? null,
      ['incident_costs', i, 'incident_cost_type'],
      ctx.organization.id,
      projectId,
    );
    if (typeId == null) throw invalid(['incident_costs', i, 'incident_cost_type'], 'Incident cost type not found.', 'value_error.not_found');
    plan.create.push({ typeId, amount: value.amount ?? 0 });
  }
  return plan;
}
