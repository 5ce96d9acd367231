// Read objects, one prepared statement per read: a read definition (ReadDef: the table, the records
// it names, the fields of its own) and a read shape (TypeBox) compile into one SELECT that returns
// each record as JSON built by PostgreSQL: every property of the shape, with the records it nests
// at any depth. Then JavaScript does what only it can, on the parsed objects: records read by a
// reader of their own (plugin instances) and the defs' afterRead hooks (costs that depend on the
// clock, defaults of empty fields). The route's serializer formats the answer, as for any object.
//
// Every read is on behalf of a viewer: rows of a table with a visibility rule (incidents, cases:
// server/visibility.ts) that the viewer may not see are left out at every depth (a reference to
// one reads null, a list leaves it out). A statement is made per kind of viewer (all, member, the
// service), so that no parameter decides which rules apply and PostgreSQL keeps one generic plan.
//
// A property of the shape with no source in the def (a column, the project, a reference, a link, a
// child, a field of the def's own or one its hook sets, or a default) fails the compile, and the
// compiled text of every read is kept in src/queries (crud/queries.test.ts).
import { and, getTableName, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Static, TSchema } from '@sinclair/typebox';
import { type Executor, statementHome } from '../db/connection.ts';
import { readColumns } from '../db/columns.ts';
import { project } from '../domains/project/table.ts';
import { atLeast } from '../server/context.ts';
import { paramsOf, PLACEHOLDERS, UNRESTRICTED, type Viewer, type ViewerTerms } from '../server/viewer.ts';
import { ruleOf } from '../server/visibility.ts';
import { column, type GroupDef, type LinkField, type Reader } from './group.ts';
import type { ReadParts, ReadWriter, Rows } from './read-def.ts';
import { tablesIn } from '../list/count-cache.ts';

type Shape = TSchema & { type?: string; nullable?: boolean; properties?: Record<string, Shape>; items?: Shape; default?: unknown; title?: string };

export type { OwnField } from './read-def.ts';

/** What a reader needs of a group: records that are not a CRUD group (participants, incidents) declare only this. */
export type ReadDef = Pick<GroupDef, 'table' | 'projectScoped' | 'refs' | 'links' | 'children' | 'hooks'> & ReadParts;

/** The service, a member seeing all their organization's records (Admins and above), or one seeing the Restricted ones they take part in. */
type Reading = 'service' | 'all' | 'member';
const TERMS: Record<Reading, ViewerTerms | undefined> = {
  service: undefined,
  all: { ...PLACEHOLDERS, all: true },
  member: { ...PLACEHOLDERS, all: false },
};
const readingOf = (viewer: Viewer): Reading => (viewer === UNRESTRICTED ? 'service' : atLeast(viewer.role, 'Admin') ? 'all' : 'member');

/** A record read by a reader of its own after the statement (a def-less reader: its rules are JavaScript). */
interface Deferred {
  field: string;
  read: Reader;
  many: boolean;
  /** The ids come from the link table, read once for all the objects (a shared link), not from the statement. */
  links?: (db: Executor, owners: number[]) => Promise<{ owner: number; other: number }[]>;
  /** The link table those pairs are read from. */
  linkTable?: PgTable;
  /** A list field of the same object to take the record from when it holds it (RefField.among). */
  among?: string;
}

/** Where the objects of one def sit in a read's JSON, for what JavaScript does once it has come back. */
interface Node {
  def: ReadDef;
  nested: { field: string; many: boolean; node: Node }[];
  deferred: Deferred[];
  /** Anything to do here or below. */
  active: boolean;
}

const q = (name: string) => sql.identifier(name);
const ISO = sql.raw(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);

/**
 * Column values the database driver reads as JSON.parse reads the value in a JSON object (text,
 * 32-bit integers, doubles, booleans, JSON): a statement that selects one column per field (`flat`)
 * selects these as they are and converts the rest (64-bit integers, numerics, fields of a def's own)
 * with to_json.
 */
const asJson = new WeakSet<SQL>();
const AS_JSON = /^(text|varchar.*|integer|serial|smallint|boolean|double precision|real|jsonb?|timestamp.*)$/;

/** One column as JSON: timestamps as JavaScript writes dates (toISOString), the rest as PostgreSQL converts them. */
function columnValue(col: PgColumn, ref: SQL): SQL {
  const type = col.getSQLType();
  const timestamp = type.startsWith('timestamp');
  if (type === 'date' || type.startsWith('interval') || (type.startsWith('time') && !timestamp)) throw new Error(`column type ${type} has no read form`);
  const value = timestamp ? sql`to_char(${type.includes('with time zone') ? sql`${ref} AT TIME ZONE 'UTC'` : ref}, ${ISO})` : ref;
  if (AS_JSON.test(type)) asJson.add(value);
  return value;
}

/**
 * `json_build_object` of (key, value) pairs, a pair a line at `depth` (the statements are read in
 * src/queries); it takes 100 arguments, so larger objects are joined as jsonb.
 */
function jsonObject(pairs: [string, SQL][], depth: number): SQL {
  const indent = `\n${'  '.repeat(depth + 1)}`;
  const chunk = (part: [string, SQL][]) =>
    sql`json_build_object(${sql.raw(indent)}${sql.join(
      part.map(([k, v]) => sql`${sql.raw(`'${k}'`)}, ${v}`),
      sql.raw(`,${indent}`),
    )})`;
  if (pairs.length <= 50) return chunk(pairs);
  const parts: SQL[] = [];
  for (let i = 0; i < pairs.length; i += 50) parts.push(sql`${chunk(pairs.slice(i, i + 50))}::jsonb`);
  return sql`(${sql.join(parts, sql` || `)})::json`;
}

/**
 * A table's columns as a def of their own, one per table: a def is what statements and readers are
 * kept for, so the same table must not make a new one at every compile.
 */
const tableDefs = new WeakMap<PgTable, ReadDef>();
function tableDef(table: PgTable): ReadDef {
  let def = tableDefs.get(table);
  if (!def) tableDefs.set(table, (def = { table, projectScoped: false }));
  return def;
}

const projectDef = tableDef(project);

/** The def a reader made here reads (readers written by hand have none). */
const defs = new WeakMap<Reader, ReadDef>();

/** A prepared query; `all()` (rows as the driver reads them, keyed by column names) is in drizzle's drivers but not its types. */
type Prepared = { execute(p: Record<string, unknown>): Promise<unknown>; all(p: Record<string, unknown>): Promise<unknown> };

/** A statement prepared once per connection (a pool, a server connection that transactions borrow, the embedded database), under `name`. */
function preparedPer(name: string, select: (db: Executor) => { prepare(name: string): unknown }): (db: Executor) => Prepared {
  const prepared = new WeakMap<object, Prepared>();
  return (db) => {
    const home = statementHome(db);
    let p = prepared.get(home);
    if (!p) prepared.set(home, (p = select(db).prepare(name) as unknown as Prepared));
    return p;
  };
}

/** A field the statement leaves out: JavaScript fills it in once the statement has run. */
const OUTSIDE = Symbol('outside the statement');

/**
 * The (owner, other) pairs of a link table for many owners, in the order a nested list reads them
 * (by the other id): one statement per answer, where a list nested in each row probes the link
 * table once per row. One prepared statement per link table and database.
 */
const linkStatements = new WeakMap<PgTable, Map<string, (db: Executor, owners: number[]) => Promise<{ owner: number; other: number }[]>>>();
let linkNames = 0;
function linkRows(link: LinkField) {
  let byColumns = linkStatements.get(link.table);
  if (!byColumns) linkStatements.set(link.table, (byColumns = new Map()));
  const key = `${link.ownerColumn}:${link.otherColumn}`;
  let rows = byColumns.get(key);
  if (rows) return rows;
  const owner = column(link.table, link.ownerColumn);
  const other = column(link.table, link.otherColumn);
  const name = `muster_links_${++linkNames}_${getTableName(link.table)}`.slice(0, 63);
  const query = preparedPer(name, (db) =>
    db
      .select({ owner, other })
      .from(link.table)
      .where(sql`${owner} = ANY(${sql.placeholder('owners')}::${idArray(link.table, link.ownerColumn)})`)
      .orderBy(owner, other),
  );
  rows = async (db, owners) => (await query(db).execute({ owners })) as { owner: number; other: number }[];
  byColumns.set(key, rows);
  return rows;
}

/** Builds one read's statement: the object of a def's row for a shape, what it nests, and the tree of what JavaScript completes. */
export class ReadBuilder implements ReadWriter {
  private aliases = 0;
  /** How deep the object being written is nested, for the statement's layout. */
  private depth = 0;
  constructor(private readonly terms: ViewerTerms | undefined) {}

  /** A fresh alias of `table`, for its row in a subquery. */
  private alias(table: PgTable): PgTable {
    return alias(table, `r${++this.aliases}`);
  }

  /** `table alias`, for a FROM. */
  from(at: PgTable, table: PgTable): SQL {
    return sql`${q(getTableName(table))} ${q(getTableName(at))}`;
  }

  /** The viewer may see the row at `at` (of `table`): undefined when the table has no rule or nothing narrows. */
  visible(at: PgTable, table: PgTable): SQL | undefined {
    return this.terms && ruleOf(table) ? ruleOf(at)?.(this.terms) : undefined;
  }

  /** The JSON object of `def`'s row at `at`, for `shape`, and where what it nests sits. */
  object(def: ReadDef, shape: TSchema, at: PgTable): { sql: SQL; node: Node } {
    const { pairs, node } = this.fields(def, shape, at);
    return { sql: jsonObject(pairs, this.depth), node };
  }

  /** The (key, value) pairs of the JSON object of `def`'s row at `at`, for `shape`, and where what it nests sits. */
  fields(def: ReadDef, shape: TSchema, at: PgTable): { pairs: [string, SQL][]; node: Node } {
    const s = shape as Shape;
    const name = getTableName(def.table);
    if (s.type !== 'object' || !s.properties) throw new Error(`${name}: a read shape is an object with properties`);
    const node: Node = { def, nested: [], deferred: [], active: !!def.hooks?.afterRead };
    const cols = readColumns(def.table) as Record<string, PgColumn>;
    const pairs: [string, SQL][] = [];
    const add = (key: string, value: SQL) => pairs.push([key, value]);
    this.depth++;
    for (const [key, prop] of Object.entries(s.properties)) {
      const value = this.field(def, key, prop, at, node, cols, s.properties);
      if (value === OUTSIDE) continue;
      if (value) add(key, value);
      else if (!def.hooked?.includes(key) && !def.absent?.includes(key) && !('default' in prop))
        throw new Error(`${name}.${key}: the read shape has it, the read definition gives no source for it`);
    }
    this.depth--;
    // An object that takes more properties than it lists gets the row's other columns too, as a row read whole would give them.
    if ((s as { additionalProperties?: unknown }).additionalProperties)
      for (const [key, col] of Object.entries(cols)) if (!s.properties[key]) add(key, columnValue(col, sql`${column(at, key)}`));
    // Hooks find their row by id, and read what they need of it: a column, or a field of the def's own.
    for (const key of ['id', ...(def.hookReads ?? [])]) {
      if (s.properties[key] || pairs.some(([k]) => k === key)) continue;
      if (cols[key]) add(key, columnValue(cols[key], sql`${column(at, key)}`));
      else if (def.own?.[key]) add(key, def.own[key](at, this, {} as TSchema));
    }
    node.active ||= node.deferred.length > 0 || node.nested.some((n) => n.node.active);
    return { pairs, node };
  }

  /** One property's JSON, OUTSIDE when JavaScript fills it in without the statement, or null when the def has no source for it. */
  private field(
    def: ReadDef,
    key: string,
    prop: Shape,
    at: PgTable,
    node: Node,
    cols: Record<string, PgColumn>,
    props: Record<string, Shape>,
  ): SQL | typeof OUTSIDE | null {
    const own = def.own?.[key];
    if (own) return own(at, this, prop);
    if (def.hooked?.includes(key) || def.absent?.includes(key)) return null;
    if (cols[key]) return columnValue(cols[key], sql`${column(at, key)}`);
    if (key === 'project' && def.projectScoped !== false) {
      const fk = columnValue(cols.project_id, sql`${column(at, 'project_id')}`);
      if (def.shared?.includes(key)) return this.defer(node, { field: key, read: this.apartReader(projectDef, prop), many: false }, fk);
      return this.one(projectDef, prop, fk, key, node);
    }
    const ref = def.refs?.[key];
    if (ref) {
      const fk = columnValue(cols[ref.column], sql`${column(at, ref.column)}`);
      const reader = ref.read?.();
      const target = reader ? defs.get(reader) : tableDef(ref.target.table);
      if (!target) return this.defer(node, { field: key, read: reader!, many: false }, fk);
      if (this.apart(target) || def.shared?.includes(key)) return this.defer(node, { field: key, read: this.apartReader(target, prop), many: false }, fk);
      if (reader && this.foundAmong(def, ref.among, reader, prop, props))
        return this.defer(node, { field: key, read: reader, many: false, among: ref.among }, fk);
      return this.one(target, prop, fk, key, node);
    }
    const link = def.links?.[key];
    if (link) {
      const reader = link.read?.();
      const target = reader ? defs.get(reader) : tableDef(link.target.table);
      if (def.shared?.includes(key)) {
        const read = target ? this.apartReader(target, prop.items!) : reader!;
        node.deferred.push({ field: key, read, many: true, links: linkRows(link), linkTable: link.table });
        return OUTSIDE;
      }
      const l = this.alias(link.table);
      if (target && !this.apart(target, prop.items) && !(this.terms && ruleOf(link.target.table)))
        return this.nest(node, key, true, this.linked(target, prop, link, l, at));
      const rows = (t: PgTable) => ({
        from: sql`${this.from(l, link.table)} JOIN ${this.from(t, link.target.table)} ON ${column(t, 'id')} = ${column(l, link.otherColumn)}`,
        where: sql`${column(l, link.ownerColumn)} = ${column(at, 'id')}`,
        order: sql`${column(l, link.otherColumn)}`,
      });
      if (!target || this.apart(target, prop.items)) return this.deferLinked(node, key, target ? this.apartReader(target, prop.items!) : reader!, link, l, at);
      return this.nest(node, key, true, this.many(target, link.target.table, prop, rows));
    }
    const child = def.children?.[key];
    if (child) {
      const reader = child.read?.();
      const target = reader ? defs.get(reader) : tableDef(child.table);
      const rows = (t: PgTable) => ({
        from: this.from(t, child.table),
        where: sql`${column(t, child.column)} = ${column(at, 'id')}`,
        order: sql`${column(t, 'id')}`,
      });
      if (!target || this.apart(target, prop.items))
        return this.deferMany(node, key, target ? this.apartReader(target, prop.items!) : reader!, child.table, rows);
      return this.nest(node, key, true, this.many(target, child.table, prop, rows));
    }
    return null;
  }

  /**
   * Whether records of `target` nested here are read by a statement of their own: incidents and cases
   * inside a record that is itself nested, or in a list (a record's duplicates, related cases, linked
   * incidents) whose objects nest other records (`items`). Such lists are nearly always empty, and
   * then no statement runs, while built in place they were most of a record's statement (a case's
   * three lists, 87 of its 237 plan nodes, all started on every run). A reference to one, or a list
   * of their names, is read in place at the top: often there, and small.
   */
  private apart(target: ReadDef, items?: Shape): boolean {
    const nests = !!items && Object.values(items.properties ?? {}).some((p) => p.type === 'object' || p.type === 'array');
    return (nests || this.depth >= 2) && !!ruleOf(target.table);
  }

  /**
   * Whether a reference can be taken from the list `among` of the same object (RefField.among): the
   * shape has the list, built in this statement by the same reader, its items the reference's own
   * properties, so that the object taken is the one the statement would have built in its place.
   */
  private foundAmong(def: ReadDef, among: string | undefined, reader: Reader, prop: Shape, props: Record<string, Shape>): boolean {
    if (!among || def.shared?.includes(among)) return false;
    const list = def.children?.[among] ?? def.links?.[among];
    return !!list && list.read?.() === reader && props[among]?.items?.properties === prop.properties;
  }

  /** The reader of records read apart, declared so that its statement is kept with the others. */
  private apartReader(target: ReadDef, shape: TSchema): Reader {
    declareRead(target, shape);
    return groupReader(target, shape) as Reader;
  }

  private nest(node: Node, field: string, many: boolean, built: { sql: SQL; node: Node }): SQL {
    node.nested.push({ field, many, node: built.node });
    return built.sql;
  }

  private one(target: ReadDef, shape: TSchema, fk: SQL, field: string, node: Node): SQL {
    return this.nest(
      node,
      field,
      false,
      this.objectWhere(target, shape, (t) => sql`${column(t, 'id')} = ${fk}`),
    );
  }

  private objectWhere(target: ReadDef, shape: TSchema, where: (t: PgTable) => SQL, order?: (t: PgTable) => SQL) {
    const t = this.alias(target.table);
    const obj = this.object(target, shape, t);
    const ordered = order ? sql` ORDER BY ${order(t)} LIMIT 1` : sql``;
    return { sql: sql`(SELECT ${obj.sql} FROM ${this.from(t, target.table)} WHERE ${and(where(t), this.visible(t, target.table))}${ordered})`, node: obj.node };
  }

  /** The first row of `target` that `where` picks in `order`, as an object; null when none. For a def's own fields. */
  latest(target: ReadDef, shape: TSchema, where: (t: PgTable) => SQL, order: (t: PgTable) => SQL): SQL {
    return this.objectWhere(target, shape, where, order).sql;
  }

  /** Rows as an array of objects, in `order`, those the viewer may not see left out. */
  many(target: ReadDef, table: PgTable, shape: TSchema, rows: Rows): { sql: SQL; node: Node } {
    const s = shape as Shape;
    if (s.type !== 'array' || !s.items) throw new Error(`${getTableName(table)}: a list field's shape is an array of objects`);
    const t = this.alias(table);
    const { from, where, order } = rows(t);
    const items = this.object(target, s.items, t);
    return {
      sql: sql`COALESCE((SELECT json_agg(${items.sql} ORDER BY ${order}) FROM ${from} WHERE ${and(where, this.visible(t, table))}), '[]'::json)`,
      node: items.node,
    };
  }

  /**
   * The records a link table names for the row at `at`, in the order of their ids, as objects: each
   * read by its id from the link's row. Only for records every viewer may see: PostgreSQL starts
   * and runs this for less than a join of the link table and the records' table, which it planned
   * as a hash join over the whole (small) table, three plan nodes more per list.
   */
  private linked(target: ReadDef, shape: Shape, link: LinkField, l: PgTable, at: PgTable): { sql: SQL; node: Node } {
    if (shape.type !== 'array' || !shape.items) throw new Error(`${getTableName(link.target.table)}: a list field's shape is an array of objects`);
    const other = column(l, link.otherColumn);
    const item = this.objectWhere(target, shape.items, (t) => sql`${column(t, 'id')} = ${other}`);
    return {
      sql: sql`COALESCE((SELECT json_agg(${item.sql} ORDER BY ${other}) FROM ${this.from(l, link.table)} WHERE ${column(l, link.ownerColumn)} = ${column(at, 'id')}), '[]'::json)`,
      node: item.node,
    };
  }

  /** A list of rows of the def's own, for its fields (`many` without the tree: their defs have no hooks). */
  list(target: ReadDef, table: PgTable, shape: TSchema, rows: Rows): SQL {
    return this.many(target, table, shape, rows).sql;
  }

  /** A reference read by a hand-written reader: the statement gives its id, JavaScript the object. */
  private defer(node: Node, deferred: Deferred, id: SQL): SQL {
    node.deferred.push(deferred);
    return id;
  }

  /**
   * The ids a link table names for the row at `at`, those the viewer may not see left out, read
   * apart. The link's rows are found by its owner column and each record checked by its id: a join
   * of the two was planned, on a connection that prepared it while the tables were small, as a walk
   * over every record of the organization probing the link for each, and a prepared statement keeps
   * its plan (a new case's read in an ingestion answer touched 120 blocks per case for two empty lists).
   */
  private deferLinked(node: Node, field: string, read: Reader, link: LinkField, l: PgTable, at: PgTable): SQL {
    const t = this.alias(link.target.table);
    const other = column(l, link.otherColumn);
    const seen = sql`(SELECT ${this.visible(t, link.target.table) ?? sql`TRUE`} FROM ${this.from(t, link.target.table)} WHERE ${column(t, 'id')} = ${other})`;
    const ids = sql`COALESCE((SELECT json_agg(${other} ORDER BY ${other}) FROM ${this.from(l, link.table)} WHERE ${column(l, link.ownerColumn)} = ${column(at, 'id')} AND ${seen}), '[]'::json)`;
    return this.defer(node, { field, read, many: true }, ids);
  }

  private deferMany(node: Node, field: string, read: Reader, table: PgTable, rows: Rows): SQL {
    const t = this.alias(table);
    const { from, where, order } = rows(t);
    const ids = sql`COALESCE((SELECT json_agg(${column(t, 'id')} ORDER BY ${order}) FROM ${from} WHERE ${and(where, this.visible(t, table))}), '[]'::json)`;
    return this.defer(node, { field, read, many: true }, ids);
  }
}

type Row = Record<string, unknown>;

/** Sets the record `item[field]` names (an id) to the object of `list` with that id, if there is one; whether it did. */
function takeFrom(item: Row, field: string, list: Row[] | undefined): boolean {
  const id = item[field];
  if (id == null) return false;
  const found = list?.find((other) => other.id === id);
  if (found) item[field] = found;
  return !!found;
}

/** Completes the objects of one node of the tree (and below): deferred records, then the hooks, the innermost first. */
async function complete(db: Executor, node: Node, items: Row[], viewer: Viewer) {
  if (!node.active || items.length === 0) return;
  for (const { field, many, node: inner } of node.nested) {
    const nested = items.flatMap((item) => {
      const v = item[field];
      return many ? ((v as Row[] | null) ?? []) : v ? [v as Row] : [];
    });
    await complete(db, inner, nested, viewer);
  }
  for (const { field, read, many, links, among } of node.deferred) {
    // A reference found in a list of its object is that list's object; the others are read.
    const pending = among ? items.filter((item) => !takeFrom(item, field, item[among] as Row[] | undefined)) : items;
    if (links) {
      const others = new Map<number, number[]>();
      for (const { owner, other } of await links(db, [...new Set(pending.map((item) => item.id as number))])) {
        const list = others.get(owner);
        if (list) list.push(other);
        else others.set(owner, [other]);
      }
      for (const item of pending) item[field] = others.get(item.id as number) ?? [];
    }
    const ids = pending.flatMap((item) => (many ? (item[field] as number[]) : item[field] == null ? [] : [item[field] as number]));
    const found = ids.length ? await read(db, [...new Set(ids)], viewer) : new Map();
    for (const item of pending) {
      const v = item[field];
      item[field] = many ? (v as number[]).map((id) => found.get(id)).filter((x) => x !== undefined) : v == null ? null : (found.get(v as number) ?? null);
    }
  }
  await node.def.hooks?.afterRead?.(db, items, viewer);
}

/** The SQL type of an array of the table's ids (or of another column's values). */
const idArray = (table: PgTable, name = 'id') => {
  const type = column(table, name).getSQLType();
  return sql.raw(type === 'serial' || type === 'integer' ? 'int[]' : `${type}[]`);
};

/** One compiled read: its statement on each database it has run on, and the tree of what JavaScript completes. */
interface Compiled {
  query: (db: Executor) => Prepared;
  node: Node;
  text: (db: Executor) => string;
  /** Its rows are the objects (a column per field), not `{doc}`. */
  flat: boolean;
}

/** `checked`: the caller has found the rows visible (or has just written them); `visible`: the statement narrows them to the viewer's. */
export type Scope = 'checked' | 'visible';

let statements = 0;

/** Compiles `def` for `shape`, a kind of reader and a scope. */
export function compileRead(def: ReadDef, shape: TSchema, reading: Reading, scope: Scope): Compiled {
  const terms = TERMS[reading];
  const build = new ReadBuilder(terms);
  const table = def.table;
  const { pairs, node } = build.fields(def, shape, table);
  const narrow = scope === 'visible' && terms;
  // `= ANY`, not `IN (SELECT unnest(...))`: with the visibility rule beside it, the generic plan of
  // the latter read every row of the table (a hash semi join) for a Member's read of one incident.
  const where = and(
    sql`${column(table, 'id')} = ANY(${sql.placeholder('ids')}::${idArray(table)})`,
    narrow && column(table, 'organization_id') ? sql`${column(table, 'organization_id')} = ${PLACEHOLDERS.organization}` : undefined,
    narrow ? ruleOf(table)?.(terms) : undefined,
  );
  const name = `muster_read_${++statements}_${reading}_${getTableName(table)}`.slice(0, 63);
  // Flat: a column per field, so that PostgreSQL builds no JSON object per row (a dashboard's thousands).
  const columns = def.flat
    ? Object.fromEntries(pairs.map(([key, value]) => [key, sql`${sql.raw('\n  ')}${asJson.has(value) ? value : sql`to_json(${value})`} AS ${q(key)}`]))
    : { doc: jsonObject(pairs, 0) };
  const select = (db: Executor) => db.select(columns).from(table).where(where);
  return { node, query: preparedPer(name, select), text: (db) => select(db).toSQL().sql, flat: !!def.flat };
}

const compiled = new WeakMap<ReadDef, Map<string, Compiled>>();
const shapeIds = new WeakMap<TSchema, number>();
let shapes = 0;
const shapeKey = (shape: TSchema) => shapeIds.get(shape) ?? shapeIds.set(shape, ++shapes).get(shape)!;

function compiledFor(def: ReadDef, shape: TSchema, reading: Reading, scope: Scope): Compiled {
  let byKey = compiled.get(def);
  if (!byKey) compiled.set(def, (byKey = new Map()));
  const key = `${shapeKey(shape)}:${reading}:${scope}`;
  let c = byKey.get(key);
  if (!c) byKey.set(key, (c = compileRead(def, shape, reading, scope)));
  return c;
}

/**
 * A flat statement's row as a plain object. The driver's row objects are copies of a template with
 * no prototype, which V8 reads and extends slowly: the work on a dashboard's rows after the statement
 * (the shared records set in, include[], the serializer) took a third more CPU on them. (Its rows
 * come from drizzle's `all()`, keyed by the columns' names; drizzle's own mapping of a row, field
 * by field, cost more than the statement.)
 */
function plainObject(row: Row): Row {
  const object: Row = {};
  for (const key in row) object[key] = row[key];
  return object;
}

/** Reads `def`'s rows with these ids as `shape`'s objects, on behalf of `viewer`, in no particular order. */
export async function readObjects(db: Executor, def: ReadDef, shape: TSchema, ids: (number | string)[], viewer: Viewer, scope: Scope): Promise<Row[]> {
  if (ids.length === 0) return [];
  const reading = readingOf(viewer);
  const { query, node, flat } = compiledFor(def, shape, reading, scope);
  const params = { ids: [...new Set(ids)], ...(viewer === UNRESTRICTED ? {} : paramsOf(viewer)) };
  const items = flat ? ((await query(db).all(params)) as Row[]).map(plainObject) : ((await query(db).execute(params)) as { doc: Row }[]).map((r) => r.doc);
  await complete(db, node, items, viewer);
  return items;
}

/**
 * The names of the tables a read of `def` as `shape` for `viewer` reads: its statement's, those of
 * the records read after it (shared and apart), the link tables and what the hooks say they read.
 * Undefined when a part cannot say: a hand-written reader, or a hook that does not say what it reads.
 */
export function readTables(db: Executor, def: ReadDef, shape: TSchema, viewer: Viewer): string[] | undefined {
  const reading = readingOf(viewer);
  const tables = new Set<string>();
  const seen = new Set<Compiled>();
  const visit = (def: ReadDef, shape: TSchema, scope: Scope): boolean => {
    const read = compiledFor(def, shape, reading, scope);
    if (seen.has(read)) return true;
    seen.add(read);
    for (const name of tablesIn(read.text(db))) tables.add(name);
    return walk(read.node);
  };
  const walk = (node: Node): boolean => {
    if (node.def.hooks?.afterRead) {
      if (!node.def.hookTables) return false;
      for (const table of node.def.hookTables) tables.add(getTableName(table));
    }
    if (!node.nested.every((n) => walk(n.node))) return false;
    return node.deferred.every(({ read, linkTable }) => {
      if (linkTable) tables.add(getTableName(linkTable));
      const inner = defs.get(read);
      const innerShape = shapesOf.get(read);
      return !!inner && !!innerShape && visit(inner, innerShape, 'visible');
    });
  };
  return visit(def, shape, 'checked') ? [...tables].sort() : undefined;
}

/** Every read declared (by groupReader or declareRead), by name: the statements kept in src/queries. */
export const declaredReads = new Map<string, { def: ReadDef; shape: TSchema }>();

/** Declares that `def` is read as `shape` at the top of a read (its statements are kept in src/queries under `name`). */
export function declareRead(def: ReadDef, shape: TSchema, name?: string): void {
  const same = (r: { def: ReadDef; shape: TSchema } | undefined) => r?.def === def && r.shape === shape;
  if (name) {
    // A group registered again (another app in the same process) declares its read again: same table and shape.
    const known = declaredReads.get(name);
    if (known && (known.def.table !== def.table || known.shape !== shape)) throw new Error(`two reads are named ${name}`);
    declaredReads.set(name, { def, shape });
    return;
  }
  if ([...declaredReads.values()].some(same)) return;
  // Reads declared without a name (records read apart) are named by their table and shape, numbered past the first.
  const base = `${getTableName(def.table)}.${(shape as Shape).title ?? 'read'}`;
  let n = 1;
  while (declaredReads.has(n === 1 ? base : `${base}.${n}`)) n++;
  declaredReads.set(n === 1 ? base : `${base}.${n}`, { def, shape });
}

/**
 * The reader of `def` as `shape` (a group's read shape by default): rows the viewer may not see are
 * left out. Given the shape, its objects are typed as its static type: the compiler cannot follow
 * JSON built by PostgreSQL, so this is where that is stated, once for every reader; the compile
 * checks that the def gives every property of the shape a source.
 */
export function groupReader(def: ReadDef | GroupDef): Reader;
export function groupReader<S extends TSchema>(def: ReadDef, shape: S): Reader<Static<S>>;
export function groupReader(def: ReadDef | GroupDef, given?: TSchema): Reader {
  const shape = given ?? (def as GroupDef).shapes?.read;
  const known = readers.get(def)?.get(shape);
  if (known) return known;
  const reader: Reader = async (db, ids, viewer) => {
    if (!shape) throw new Error(`${getTableName(def.table)}: a reader without a shape is only nested`);
    return new Map((await readObjects(db, def, shape, ids as number[], viewer, 'visible')).map((r) => [r.id as number, r]));
  };
  let byShape = readers.get(def);
  if (!byShape) readers.set(def, (byShape = new Map()));
  byShape.set(shape, reader);
  defs.set(reader, def);
  shapesOf.set(reader, shape);
  return reader;
}
const readers = new WeakMap<ReadDef, Map<TSchema | undefined, Reader>>();
const shapesOf = new WeakMap<Reader, TSchema | undefined>();

/** A reader of the table's columns (only nested: the shape of the field it fills says which). */
export function shallowReader(table: PgTable): Reader {
  return groupReader(tableDef(table));
}

/**
 * What `reader` (a group reader) reads, for rows the caller has already found `viewer` may see, or
 * has just written for them: the rows themselves are read as they are, what they nest is narrowed.
 */
export async function readChecked<T>(reader: Reader<T>, db: Executor, ids: number[], viewer: Viewer): Promise<Map<number, T>> {
  const def = defs.get(reader as Reader);
  const shape = shapesOf.get(reader as Reader);
  if (!def || !shape) throw new Error('readChecked takes a group reader with a shape');
  // The one typed boundary (groupReader): the reader's def reads as its shape.
  return new Map((await readObjects(db, def, shape, ids, viewer, 'checked')).map((r) => [r.id as number, r as T]));
}

/** Read objects of a group for rows a list has selected (within the viewer's scope), in their order. */
export async function readRows(db: Executor, def: GroupDef, rows: { id: number }[], viewer: Viewer): Promise<Row[]> {
  const byId = await readChecked(
    groupReader(def),
    db,
    rows.map((r) => r.id),
    viewer,
  );
  return rows.map((r) => byId.get(r.id)).filter((x): x is Row => !!x);
}

/**
 * The object of `reader`'s record (a group reader's def and shape) at `at`, for a statement of the
 * caller's that has found the row and checked that the viewer (given as terms) may see it: a search
 * reads its hits' objects in the statement that ranks them, one round trip instead of one per kind.
 * `complete` does, on the objects once parsed, what readObjects does after its statement.
 */
export function objectWithin(
  reader: Reader<unknown>,
  at: PgTable,
  terms: ViewerTerms,
): { sql: SQL; complete: (db: Executor, items: Row[], viewer: Viewer) => Promise<void> } {
  const def = defs.get(reader as Reader);
  const shape = shapesOf.get(reader as Reader);
  if (!def || !shape) throw new Error('objectWithin takes a group reader with a shape');
  const { sql: object, node } = new ReadBuilder(terms).object(def, shape, at);
  return { sql: object, complete: (db, items, viewer) => complete(db, node, items, viewer) };
}
