// A plain record group (priorities, tags, documents, ...) declared once: its table, shapes, the
// fields lists may filter and sort on, the references and links its bodies carry, and the few
// rules that are its own. The CRUD mechanism (crud/service.ts, crud/routes.ts) does the rest.
import { eq, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { TSchema } from '@sinclair/typebox';
import type { Executor } from '../db/connection.ts';
import { readColumns } from '../db/columns.ts';
import type { Fields, ListDefinition, Relation } from '../list/definition.ts';
import type { Ctx, Permission } from '../server/context.ts';
import type { Viewer } from '../server/viewer.ts';
import type { RefTarget } from './refs.ts';
import type { ReadParts } from './read-def.ts';
import { project } from '../domains/project/table.ts';

export type Operation = 'list' | 'create' | 'get' | 'update' | 'delete';
export type WriteOperation = 'create' | 'update' | 'delete';
export type Row = Record<string, unknown> & { id: number };

/** A read object whose shape the compiler does not know (a group's, whose shapes are any TSchema). */
export type ReadObject = Record<string, unknown>;

/**
 * Loads read objects by id, on behalf of `viewer`: a group's own reader, or a shallow one for nested
 * lists. Rows of incidents and cases the viewer may not see are left out, at every depth. `T` is the
 * read shape's static type, where stated (groupReader).
 */
export type Reader<T = ReadObject> = (db: Executor, ids: number[], viewer: Viewer) => Promise<Map<number, T>>;

/** A body field naming one other record, stored in `column`. */
export interface RefField {
  column: string;
  target: RefTarget;
  /** What the read shape nests for it; defaults to the target's columns. */
  read?: () => Reader;
  /**
   * A list field of the same record that nearly always holds the one named here, read by the same
   * reader (an incident's commander among its participants): where the read shape has that list,
   * the object is taken from it, and read by a statement of its own only when it is not there.
   */
  among?: string;
}

/** A body field naming many other records, stored in a link table. */
export interface LinkField {
  table: PgTable;
  ownerColumn: string;
  otherColumn: string;
  target: RefTarget;
  read?: () => Reader;
  /** Names not found are created in the record's project (get-or-create by name, as Dispatch does for terms). */
  create?: boolean;
}

/** A body field listing the records of another table that point at this one through `column`. */
export interface ChildField {
  table: PgTable;
  /** The column of `table` holding this record's id. */
  column: string;
  /**
   * Given, a body may name the children (by id or name): the named ones point here, the others no
   * longer do (so `column` must be nullable). Absent, the field is read-only.
   */
  target?: RefTarget;
  read?: () => Reader;
}

export interface Hooks {
  /** Domain rules on the values about to be written (on create the whole row, project included; `existing` on update). Throw to refuse. */
  beforeWrite?: (tx: Executor, ctx: Ctx, values: Record<string, unknown>, existing?: Row) => Promise<void> | void;
  /** Writes of the group's own after the row and its links (same transaction): `body` as sent (project left out on update). */
  afterWrite?: (tx: Executor, ctx: Ctx, row: Row, body: Record<string, unknown>, existing?: Row) => Promise<void> | void;
  beforeDelete?: (tx: Executor, ctx: Ctx, existing: Row) => Promise<void> | void;
  /** Derived read fields (e.g. counts), or fields cut for the viewer; runs on the read objects of one response. */
  afterRead?: (db: Executor, items: Record<string, unknown>[], viewer: Viewer) => Promise<void> | void;
}

export interface GroupDef extends ReadParts {
  /** URL below /{organization}: "tag_types", "data/sources/dataFormats". */
  path: string;
  /** OpenAPI tag(s), as the contract writes them. */
  tags: string[];
  /** Path parameter of one record: "tag_type_id". */
  idParam: string;
  /** The record in prose, with its article: "A tag type", "An individual". */
  thing: string;
  model: string;
  tableName: string;
  table: PgTable;
  shapes: { create: TSchema; update: TSchema; read: TSchema; pagination: TSchema };
  /** Filterable and sortable fields of the list. */
  fields: Fields;
  relations?: Relation[];
  /** Defaults to every operation. */
  operations?: Operation[];
  /** Permission class of writes (reads need membership only): one for all, or per operation. */
  writePermission?: Permission | Partial<Record<WriteOperation, Permission>>;
  /** Belongs to a project (default) or only to the organization. */
  projectScoped?: boolean;
  refs?: Record<string, RefField>;
  links?: Record<string, LinkField>;
  children?: Record<string, ChildField>;
  /** Unique index name -> the field a duplicate is reported on. */
  unique?: Record<string, string>;
  /**
   * Narrows the records the caller may see beyond their organization (records of restricted
   * incidents): lists leave the others out, and get, update and delete answer 404 for them.
   */
  visibleTo?: (ctx: Ctx) => SQL | undefined;
  /** At most one row per project has `default` set. */
  oneDefault?: boolean;
  /** Fields holding colours, stored as #rrggbb. */
  colors?: string[];
  hooks?: Hooks;
}

/**
 * For a group's beforeWrite: a null sent for a column with a default (Dispatch's "unset") is the
 * default on create and leaves the stored value on update.
 */
export function nullMeansDefault(values: Record<string, unknown>, field: string, fallback: unknown, existing?: Row): void {
  if (values[field] !== null) return;
  if (existing) delete values[field];
  else values[field] = fallback;
}

/** The permission class an operation of the group needs, if any. */
export const permissionOf = (def: GroupDef, op: WriteOperation): Permission | undefined =>
  typeof def.writePermission === 'string' ? def.writePermission : def.writePermission?.[op];

export const column = (table: PgTable, name: string) => (table as unknown as Record<string, PgColumn>)[name];

/** The list definition the list engine runs: the group's fields plus its project, references and links. */
export function listDefinition(def: GroupDef): ListDefinition {
  const relations: Relation[] = [...(def.relations ?? [])];
  const has = (model: string) => relations.some((r) => r.model === model);
  if (def.projectScoped !== false && !has('Project')) {
    relations.push({
      kind: 'one',
      model: 'Project',
      tableName: 'project',
      table: project,
      on: eq(project.id, column(def.table, 'project_id')),
      local: { id: column(def.table, 'project_id') },
      fields: { id: 'int', name: 'text' },
    });
  }
  for (const [field, ref] of Object.entries(def.refs ?? {})) {
    if (has(ref.target.model)) continue;
    const joined = alias(ref.target.table, field);
    relations.push({
      kind: 'one',
      model: ref.target.model,
      tableName: field,
      table: joined,
      on: eq(column(joined, 'id'), column(def.table, ref.column)),
      fields: ref.target.fields ?? { id: 'int', [ref.target.nameColumn ?? 'name']: 'text' },
    });
  }
  for (const link of Object.values(def.links ?? {})) {
    if (has(link.target.model)) continue;
    const t = link.target;
    relations.push({
      kind: 'many',
      model: t.model,
      tableName: t.model,
      table: t.table,
      fields: t.fields ?? { id: 'int', [t.nameColumn ?? 'name']: 'text' },
      exists: (condition) => existsThroughLink(def, link, condition),
    });
  }
  const table = def.table as PgTable & { id: PgColumn; search_vector?: PgColumn };
  return {
    model: def.model,
    tableName: def.tableName,
    table: def.table,
    columns: readColumns(def.table) as Record<string, PgColumn>,
    idColumn: table.id,
    searchVector: table.search_vector,
    fields: def.fields,
    relations,
  };
}

function existsThroughLink(def: GroupDef, link: LinkField, condition: SQL): SQL {
  const t = link.target.table;
  return sql`EXISTS (SELECT 1 FROM ${link.table} JOIN ${t} ON ${column(t, 'id')} = ${column(link.table, link.otherColumn)} WHERE ${column(link.table, link.ownerColumn)} = ${column(def.table, 'id')} AND ${condition})`;
}
