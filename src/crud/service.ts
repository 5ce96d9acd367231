// List, get, create, update and delete for every plain record group, scoped to the caller's
// organization, each write in one transaction: resolve references, apply the group's rules,
// write, keep one default per project, and answer with the read object.
import { and, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/connection.ts';
import { readColumns } from '../db/columns.ts';
import { pgError } from '../db/errors.ts';
import { runList } from '../list/engine.ts';
import { toHex } from '../server/color.ts';
import { requirePermission, type Ctx } from '../server/context.ts';
import { ApiError, errors, exists, invalid } from '../server/errors.ts';
import type { ListQueryT } from '../server/shapes.ts';
import { audit, deletedEntry } from '../domains/audit/record.ts';
import { defaultProject } from '../domains/project/service.ts';
import { project } from '../domains/project/table.ts';
import { column, listDefinition, permissionOf, type GroupDef, type Row, type WriteOperation } from './group.ts';
import { readOneTogether } from './read-together.ts';
import { groupReader, readRows } from './reader.ts';
import { createNamed, resolveRef, resolveRefs, type RefTarget, type RefValue } from './refs.ts';

/** Columns a body never sets: the server owns them. */
const SERVER_OWNED = new Set(['id', 'organization_id', 'project_id', 'created_at', 'updated_at', 'search_vector']);

export const projectTarget: RefTarget = { table: project, model: 'Project', label: 'Project', projectScoped: false, fields: { id: 'int', name: 'text' } };

const lists = new WeakMap<GroupDef, ReturnType<typeof listDefinition>>();
const listOf = (def: GroupDef) => {
  let l = lists.get(def);
  if (!l) lists.set(def, (l = listDefinition(def)));
  return l;
};

const inOrganization = (def: GroupDef, ctx: Ctx) => eq(column(def.table, 'organization_id'), ctx.organization.id);

export async function listRecords(ctx: Ctx, def: GroupDef, query: ListQueryT) {
  const page = await runList<Row>(ctx.db, ctx, listOf(def), query, inOrganization(def, ctx), def.visibleTo?.(ctx));
  return { ...page, items: await readRows(ctx.db, def, page.items, ctx) };
}

/**
 * The record within the caller's organization and sight; 404 otherwise. `lock` (a write's first read)
 * holds the row until the transaction ends: two writes of one record run one after the other, each
 * whole, and one that waited for a delete finds no row and answers 404.
 */
async function findRow(db: Executor, ctx: Ctx, def: GroupDef, id: number, lock = false): Promise<Row> {
  const query = db
    .select(readColumns(def.table))
    .from(def.table)
    .where(and(inOrganization(def, ctx), eq(column(def.table, 'id'), id), def.visibleTo?.(ctx)));
  const [row] = (await (lock ? query.for('update', { of: def.table }) : query)) as Row[];
  if (!row) throw errors.notFound(def.thing);
  return row;
}

export async function getRecord(ctx: Ctx, def: GroupDef, id: number) {
  const [read] = await readRows(ctx.db, def, [await findRow(ctx.db, ctx, def, id)], ctx);
  return read;
}

/** GET of a record: one statement reads it within the caller's organization, where the group has no visibility of its own. */
export async function getRecordResponse(ctx: Ctx, def: GroupDef, id: number) {
  if (def.visibleTo) return getRecord(ctx, def, id);
  const read = await readOneTogether(ctx.db, def, def.shapes.read, id, ctx);
  if (!read) throw errors.notFound(def.thing);
  return read;
}

/** The record's read after its write committed; 404 if a delete came in between. */
async function readOne(ctx: Ctx, def: GroupDef, id: number) {
  const read = (await groupReader(def)(ctx.db, [id], ctx)).get(id);
  if (!read) throw errors.notFound(def.thing);
  return read;
}

/** The project a new record goes into: the body's (by id or name), else the organization's default. */
async function targetProject(tx: Executor, ctx: Ctx, value: RefValue): Promise<number> {
  if (value) return (await resolveRef(tx, projectTarget, value, ['project'], ctx.organization.id))!;
  const fallback = await defaultProject(tx, ctx.organization.id);
  if (!fallback) throw invalid(['project'], 'No default project defined.', 'value_error.not_found');
  return fallback.id;
}

// Date-time fields arrive as ISO strings (Ajv checked the format); the driver wants Date objects.
const isTimestamp = (c: unknown) => (c as PgColumn).columnType === 'PgTimestamp';

/** Column values from a body: plain fields as sent, references resolved, colours and timestamps normalised. */
async function valuesFrom(tx: Executor, ctx: Ctx, def: GroupDef, body: Record<string, unknown>, projectId: number | undefined) {
  const columns = def.table as unknown as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || SERVER_OWNED.has(key) || def.refs?.[key] || def.links?.[key] || def.children?.[key] || !(key in columns)) continue;
    values[key] = typeof value === 'string' && isTimestamp(columns[key]) ? new Date(value) : value;
  }
  for (const key of def.colors ?? []) if (typeof values[key] === 'string') values[key] = toHex(values[key] as string);
  for (const [field, ref] of Object.entries(def.refs ?? {})) {
    const id = await resolveRef(tx, ref.target, body[field] as RefValue, [field], ctx.organization.id, projectId);
    if (id !== undefined) values[ref.column] = id;
  }
  return values;
}

async function writeLinks(tx: Executor, ctx: Ctx, def: GroupDef, id: number, body: Record<string, unknown>, projectId: number | undefined, replace: boolean) {
  for (const [field, link] of Object.entries(def.links ?? {})) {
    const given = body[field];
    if (!Array.isArray(given)) continue;
    if (link.create) await createNamed(tx, link.target, given as NonNullable<RefValue>[], ctx.organization.id, projectId);
    const ids = [...new Set(await resolveRefs(tx, link.target, given as NonNullable<RefValue>[], [field], ctx.organization.id, projectId))];
    if (replace) await tx.delete(link.table).where(eq(column(link.table, link.ownerColumn), id));
    if (ids.length) await tx.insert(link.table).values(ids.map((other) => ({ [link.ownerColumn]: id, [link.otherColumn]: other })));
  }
}

/** Writable children named in the body point at this record; on update, the others stop pointing at it. */
async function writeChildren(
  tx: Executor,
  ctx: Ctx,
  def: GroupDef,
  id: number,
  body: Record<string, unknown>,
  projectId: number | undefined,
  replace: boolean,
) {
  for (const [field, child] of Object.entries(def.children ?? {})) {
    const given = body[field];
    if (!child.target || !Array.isArray(given)) continue;
    const ids = [...new Set(await resolveRefs(tx, child.target, given as NonNullable<RefValue>[], [field], ctx.organization.id, projectId))];
    const fk = column(child.table, child.column);
    const childId = column(child.table, 'id');
    if (replace)
      await tx
        .update(child.table)
        .set({ [child.column]: null })
        .where(and(eq(fk, id), ids.length ? notInArray(childId, ids) : undefined));
    if (ids.length)
      await tx
        .update(child.table)
        .set({ [child.column]: id })
        .where(inArray(childId, ids));
  }
}

async function clearOtherDefaults(tx: Executor, def: GroupDef, row: Row) {
  if (!def.oneDefault || !row.default) return;
  await tx
    .update(def.table)
    .set({ default: false })
    .where(and(eq(column(def.table, 'project_id'), row.project_id as number), eq(column(def.table, 'default'), true), ne(column(def.table, 'id'), row.id)));
}

/** Unique, foreign-key and not-null violations as the contract's answers; everything else passes through. */
function translate(def: GroupDef, err: unknown): unknown {
  const pg = pgError(err);
  if (pg?.code === '23502') {
    // A required column the contract leaves optional in the body (a source's name): the body field is missing.
    const col = (pg as { column?: string }).column ?? 'body';
    const field = Object.entries(def.refs ?? {}).find(([, ref]) => ref.column === col)?.[0] ?? col;
    return invalid([field], 'field required', 'value_error.missing');
  }
  if (pg?.code === '23505') {
    const field = (pg.constraint && def.unique?.[pg.constraint]) ?? 'name';
    return exists(field, `${def.thing} with this ${field.replace(/_/g, ' ')} already exists.`);
  }
  if (pg?.code === '23503') {
    const holder = /from table "([^"]+)"/.exec(pg.detail ?? '')?.[1];
    return errors.conflict(
      `${def.thing} that is still used by ${holder ? `${holder.replace(/_/g, ' ')} records` : 'other records'} cannot be deleted; remove or change those first.`,
    );
  }
  return err;
}

async function inTransaction<T>(ctx: Ctx, def: GroupDef, fn: (tx: Executor) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction(fn);
  } catch (err) {
    throw err instanceof ApiError ? err : translate(def, err);
  }
}

function checkWrite(ctx: Ctx, def: GroupDef, op: WriteOperation) {
  const permission = permissionOf(def, op);
  if (permission) requirePermission(ctx.role, permission);
}

export async function createRecord(ctx: Ctx, def: GroupDef, body: Record<string, unknown>) {
  checkWrite(ctx, def, 'create');
  const id = await inTransaction(ctx, def, async (tx) => {
    const projectId = def.projectScoped === false ? undefined : await targetProject(tx, ctx, body.project as RefValue);
    // The whole row to be written, tenant columns included, so that rules can see its project.
    const values = {
      ...(await valuesFrom(tx, ctx, def, body, projectId)),
      organization_id: ctx.organization.id,
      ...(projectId === undefined ? {} : { project_id: projectId }),
    };
    await def.hooks?.beforeWrite?.(tx, ctx, values);
    const [row] = (await tx.insert(def.table).values(values).returning()) as Row[];
    await writeLinks(tx, ctx, def, row.id, body, projectId, false);
    await writeChildren(tx, ctx, def, row.id, body, projectId, false);
    await def.hooks?.afterWrite?.(tx, ctx, row, body);
    await clearOtherDefaults(tx, def, row);
    return row.id;
  });
  // Read after the commit: on the pool the nested reads run side by side.
  return readOne(ctx, def, id);
}

export async function updateRecord(ctx: Ctx, def: GroupDef, id: number, body: Record<string, unknown>) {
  checkWrite(ctx, def, 'update');
  await inTransaction(ctx, def, async (tx) => {
    const existing = await findRow(tx, ctx, def, id, true);
    const projectId = existing.project_id as number | undefined;
    // A record stays in its project: moving it would strand what references it.
    const { project: _project, ...rest } = body;
    const values = await valuesFrom(tx, ctx, def, rest, projectId);
    await def.hooks?.beforeWrite?.(tx, ctx, values, existing);
    const [row] = (await tx
      .update(def.table)
      .set({ ...values, ...('updated_at' in (def.table as object) ? { updated_at: new Date() } : {}) })
      .where(eq(column(def.table, 'id'), id))
      .returning()) as Row[];
    await writeLinks(tx, ctx, def, id, rest, projectId, true);
    await writeChildren(tx, ctx, def, id, rest, projectId, true);
    await def.hooks?.afterWrite?.(tx, ctx, row, rest, existing);
    await clearOtherDefaults(tx, def, row);
  });
  return readOne(ctx, def, id);
}

export async function deleteRecord(ctx: Ctx, def: GroupDef, id: number) {
  checkWrite(ctx, def, 'delete');
  await inTransaction(ctx, def, async (tx) => {
    const existing = await findRow(tx, ctx, def, id, true);
    await def.hooks?.beforeDelete?.(tx, ctx, existing);
    await tx.delete(def.table).where(eq(column(def.table, 'id'), id));
    await audit(tx, ctx, deletedEntry(def.tableName, existing));
  });
  return null;
}

/** The project's default row of a group (the one with `default` set), for fallbacks elsewhere. */
/**
 * The project a body names (by id or name, within the caller's organization), else the
 * organization's default project: where a new incident or case goes. 422 on `project` otherwise.
 */
export async function projectOfBody(tx: Executor, ctx: Ctx, value: RefValue): Promise<{ id: number; slug: string }> {
  const named = value && (typeof value.id === 'number' || typeof value.name === 'string') ? value : undefined;
  const id = named ? await resolveRef(tx, projectTarget, named, ['project'], ctx.organization.id) : (await defaultProject(tx, ctx.organization.id))?.id;
  if (!id) throw invalid(['project'], 'No default project defined.', 'value_error.not_found');
  const [row] = await tx.select({ id: project.id, slug: project.slug }).from(project).where(eq(project.id, id));
  return row;
}

export async function defaultRecord(db: Executor, def: GroupDef, projectId: number): Promise<Row | undefined> {
  const [row] = (await db
    .select()
    .from(def.table)
    .where(and(eq(column(def.table, 'project_id'), projectId), eq(column(def.table, 'default'), true)))
    .orderBy(sql`${column(def.table, 'id')}`)
    .limit(1)) as Row[];
  return row;
}

/** A reference to a type, priority or severity; the project's default when not given. */
export async function refOrDefault(
  tx: Executor,
  ctx: Ctx,
  target: RefTarget,
  def: GroupDef,
  value: RefValue,
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
