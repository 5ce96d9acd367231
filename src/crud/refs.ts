// References between records in request bodies: `{"tag_type": {"id": 3}}` or
// `{"tag_type": {"name": "Cloud"}}`. A reference resolves by id, else by name, inside the caller's
// organization and the record's project; anything else is a 422 naming the field, never a silent
// link to another tenant's record.
import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/connection.ts';
import { invalid } from '../server/errors.ts';
import type { Fields } from '../list/definition.ts';

export type Loc = (string | number)[];

/** A table others may point at, and how a body names one of its rows. */
export interface RefTarget {
  table: PgTable;
  /** Dispatch's model class name, for filters through the reference ("TagType"). */
  model: string;
  /** The column a body may name the row by instead of its id ("name", "text", "email"). */
  nameColumn?: string;
  /** "Tag type": the start of "Tag type not found." */
  label: string;
  /** Rows belong to a project (else only to the organization). */
  projectScoped?: boolean;
  /** What a filter through the reference may read. */
  fields?: Fields;
}

export type RefValue = { id?: number | null; [k: string]: unknown } | null | undefined;

const col = (table: PgTable, name: string) => (table as unknown as Record<string, PgColumn>)[name];

function scope(target: RefTarget, organizationId: number, projectId: number | undefined): SQL | undefined {
  const org = eq(col(target.table, 'organization_id'), organizationId);
  return target.projectScoped !== false && projectId !== undefined ? and(org, eq(col(target.table, 'project_id'), projectId)) : org;
}

const notFound = (target: RefTarget, loc: Loc) => invalid(loc, `${target.label} not found.`, 'value_error.not_found');

/** The id a body reference names; undefined when the field was not sent, null when sent as null. */
export async function resolveRef(
  db: Executor,
  target: RefTarget,
  value: RefValue,
  loc: Loc,
  organizationId: number,
  projectId?: number,
): Promise<number | null | undefined> {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const [id] = await resolveRefs(db, target, [value], loc, organizationId, projectId, false);
  return id;
}

/** The ids of a list of references, in order; the first unknown one is a 422 at its index. */
export async function resolveRefs(
  db: Executor,
  target: RefTarget,
  values: NonNullable<RefValue>[],
  loc: Loc,
  organizationId: number,
  projectId?: number,
  indexed = true,
): Promise<number[]> {
  if (values.length === 0) return [];
  const nameCol = target.nameColumn ?? 'name';
  const ids = values.map((v) => v.id).filter((v): v is number => typeof v === 'number');
  const names = values
    .filter((v) => typeof v.id !== 'number')
    .map((v) => v[nameCol])
    .filter((v): v is string => typeof v === 'string');
  const where = scope(target, organizationId, projectId);
  const found = new Map<string, number>();
  if (ids.length) {
    const rows = await db
      .select({ id: col(target.table, 'id') })
      .from(target.table)
      .where(and(where, inArray(col(target.table, 'id'), ids)));
    for (const r of rows) found.set(`id:${r.id}`, r.id as number);
  }
  if (names.length) {
    const rows = await db
      .select({ id: col(target.table, 'id'), name: col(target.table, nameCol) })
      .from(target.table)
      .where(and(where, inArray(col(target.table, nameCol), names)));
    for (const r of rows) found.set(`name:${r.name}`, r.id as number);
  }
  return values.map((v, i) => {
    const key = typeof v.id === 'number' ? `id:${v.id}` : typeof v[nameCol] === 'string' ? `name:${v[nameCol]}` : undefined;
    const id = key && found.get(key);
    if (!id) throw notFound(target, indexed ? [...loc, i] : loc);
    return id;
  });
}

/**
 * Get-or-create: inserts the rows that references name by name (not by id) and that do not exist
 * yet, in the organization and project, so that resolveRefs then finds every one. Blank names are
 * left to resolveRefs to refuse; a row created meanwhile by another request is taken as found.
 */
export async function createNamed(db: Executor, target: RefTarget, values: NonNullable<RefValue>[], organizationId: number, projectId?: number): Promise<void> {
  const nameCol = target.nameColumn ?? 'name';
  const named = values.filter((v) => typeof v.id !== 'number').map((v) => v[nameCol]);
  const names = [...new Set(named.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))];
  if (names.length === 0) return;
  const rows = await db
    .select({ name: col(target.table, nameCol) })
    .from(target.table)
    .where(and(scope(target, organizationId, projectId), inArray(col(target.table, nameCol), names)));
  const known = new Set(rows.map((r) => r.name));
  const missing = names.filter((n) => !known.has(n));
  if (missing.length === 0) return;
  const owner = { organization_id: organizationId, ...(target.projectScoped !== false && projectId !== undefined ? { project_id: projectId } : {}) };
  await db
    .insert(target.table)
    .values(missing.map((n) => ({ ...owner, [nameCol]: n })))
    .onConflictDoNothing();
}

/**
 * Records named by id in a body list (`duplicates`, `related`, `cases`...): each must be a row of
 * `idColumn`'s table matching `visible` (the caller's organization and visibility) and not `except`
 * (the record itself); otherwise 422 on that item, `<label> not found.`. Returns the distinct ids.
 */
export async function resolveVisibleIds(
  tx: Executor,
  idColumn: PgColumn,
  visible: SQL,
  values: { id?: unknown }[],
  field: string,
  label: string,
  except?: number,
): Promise<number[]> {
  const wanted = values.map((v) => v.id).filter((id): id is number => typeof id === 'number');
  const rows = wanted.length
    ? await tx
        .select({ id: idColumn })
        .from(idColumn.table)
        .where(and(inArray(idColumn, wanted), except === undefined ? undefined : ne(idColumn, except), visible))
    : [];
  const found = new Set(rows.map((r) => r.id as number));
  values.forEach((v, i) => {
    if (typeof v.id !== 'number' || !found.has(v.id)) throw invalid([field, i], `${label} not found.`, 'value_error.not_found');
  });
  return [...found];
}
