// Read objects as the JSON text of their response, built by PostgreSQL in one statement: the row,
// every record it nests at any depth, and the visibility rule of each restricted table it reaches,
// written in the read shape's property order exactly as the route's serializer would write the
// object the readers of reader.ts build. Muster sends that text as it is (server/json-text.ts).
//
// The text follows the shape (TypeBox, as fast-json-stringify reads it): properties in order, a
// null in a field that is not nullable written as that type's empty value, a property without a
// source left out (or its default written). What the statement cannot write byte for byte (a
// reader with rules in JavaScript, a JSON column with content, a number past the range where
// PostgreSQL and JavaScript print alike) it marks with SLOW, a byte no JSON text holds, and the
// caller reads that record through the readers instead. Most records never reach those.
import { and, getTableName, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { TSchema } from '@sinclair/typebox';
import { readColumns } from '../db/columns.ts';
import { projectDef, readDefOf, type DocumentWriter, type ReadDef, type SpliceSource } from './reader.ts';
import { column } from './group.ts';
import { ruleOf } from '../server/visibility.ts';
import type { Executor } from '../db/connection.ts';
import { atLeast, type Ctx } from '../server/context.ts';
import { jsonText } from '../server/json-text.ts';
import { includedShape } from '../list/include.ts';
import { paramsOf, PLACEHOLDERS, UNRESTRICTED, type Viewer, type ViewerTerms } from '../server/viewer.ts';

/** Marks text the statement could not write as the serializer would: control characters never stand bare in JSON. */
export const SLOW = '\u0001';
const slow = sql.raw(`chr(1)`);

// The JSON text of a field is built by concatenation: `||` with one NULL is NULL, so every
// nullable value is wrapped (orNull) before it is joined.
const lit = (text: string) => sql.raw(`'${text.replace(/'/g, "''")}'`);
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

type Shape = TSchema & {
  type?: string;
  nullable?: boolean;
  properties?: Record<string, Shape>;
  items?: Shape;
  required?: string[];
  default?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
  allOf?: unknown;
};

/** The empty value fast-json-stringify writes for a null in a field of this type that is not nullable. */
const EMPTY: Record<string, string> = { string: '""', integer: '0', number: '0', boolean: 'false' };

/** `value` (text, or NULL for SQL null) as the shape writes a null. */
function orNull(value: SQL, shape: Shape): SQL {
  if (shape.nullable) return sql`COALESCE(${value}, 'null')`;
  const empty = shape.type && EMPTY[shape.type];
  return empty ? sql`COALESCE(${value}, ${lit(empty)})` : sql`COALESCE(${value}, ${slow})`;
}

/**
 * A double precision value as JavaScript prints it: between 1e-4 and 1e15 PostgreSQL's shortest
 * form is JavaScript's too; outside, the exponent is written differently, so those are SLOW.
 */
export const numberText = (value: SQL) =>
  sql`CASE WHEN ${value} IS NULL THEN NULL WHEN ${value} = 0 THEN '0' WHEN abs(${value}) >= 1e-4 AND abs(${value}) < 1e15 THEN (${value})::float8::text ELSE ${slow} END`;

/** One column as the shape's type writes it (NULL for SQL null). */
function scalar(col: PgColumn, ref: SQL, shape: Shape): SQL {
  const type = col.getSQLType();
  if (shape.anyOf || shape.oneOf || shape.allOf) return slow;
  if (type.startsWith('timestamp')) {
    if (shape.type !== 'string') return slow;
    const utc = type.includes('with time zone') ? sql`${ref} AT TIME ZONE 'UTC'` : ref;
    return sql`('"' || to_char(${utc}, ${sql.raw(ISO)}) || '"')`;
  }
  if (type === 'jsonb' || type === 'json') return jsonColumnText(sql`(${ref})::jsonb`, shape);
  const numeric = type === 'integer' || type === 'serial' || type === 'smallint';
  switch (shape.type) {
    case 'string':
      return type === 'text' || type.startsWith('varchar') ? sql`to_json(${ref})::text` : sql`to_json((${ref})::text)::text`;
    case 'integer':
      return numeric ? sql`(${ref})::text` : slow;
    case 'number':
      if (numeric) return sql`(${ref})::text`;
      return type === 'double precision' || type === 'real' || type === 'numeric' ? numberText(sql`(${ref})::float8`) : slow;
    case 'boolean':
      return type === 'boolean' ? sql`(${ref})::text` : slow;
    default:
      return slow;
  }
}

/** A shape the serializer writes as JSON.stringify does: no type, or an object of any properties and no declared ones. */
const free = (shape: Shape) =>
  !shape.type ||
  (shape.type === 'object' && (shape as { additionalProperties?: unknown }).additionalProperties === true && !Object.keys(shape.properties ?? {}).length);

/** A jsonb value as the shape's serializer writes the object node-postgres parses from it (NULL for SQL null). */
function jsonColumnText(value: SQL, shape: Shape): SQL {
  if (shape.anyOf || shape.oneOf || shape.allOf) return slow;
  if (free(shape)) return sql`muster_json_text(${value})`;
  if (shape.type === 'object' && shape.properties) return jsonObject(value, shape);
  // Lists of typed objects are written only when empty.
  if (shape.type === 'array') return sql`CASE WHEN ${value} IS NULL THEN NULL WHEN ${value} = '[]'::jsonb THEN '[]' ELSE ${slow} END`;
  return sql`CASE WHEN ${value} IS NULL THEN NULL ELSE ${slow} END`;
}

/** One member of a jsonb object as a scalar of the shape's type; SLOW for what the serializer would convert otherwise. */
function jsonMember(member: SQL, shape: Shape): SQL {
  const isNull = shape.nullable ? `'null'` : shape.type ? (EMPTY[shape.type] && `'${EMPTY[shape.type]}'`) || 'chr(1)' : 'chr(1)';
  const kind = sql`jsonb_typeof(${member})`;
  switch (shape.type) {
    case 'string':
      return sql`CASE ${kind} WHEN 'string' THEN to_json(${member} #>> '{}')::text WHEN 'null' THEN ${sql.raw(isNull)} ELSE ${slow} END`;
    case 'boolean':
      return sql`CASE ${kind} WHEN 'boolean' THEN ${member} #>> '{}' WHEN 'null' THEN ${sql.raw(isNull)} ELSE ${slow} END`;
    case 'integer':
    case 'number':
      return sql`CASE ${kind} WHEN 'number' THEN muster_json_text(${member}) WHEN 'null' THEN ${sql.raw(isNull)} ELSE ${slow} END`;
    default:
      return free(shape) ? sql`muster_json_text(${member})` : slow;
  }
}

/**
 * A jsonb object as an object of the shape: its properties in the serializer's order, those the
 * value lacks left out (SLOW if required), the others dropped, as the serializer does.
 */
function jsonObject(value: SQL, shape: Shape): SQL {
  const required = new Set(shape.required ?? []);
  const keys = Object.keys(shape.properties ?? {});
  const members = [...keys.filter((k) => required.has(k)), ...keys.filter((k) => !required.has(k))].map((key) => {
    const prop = (shape.properties as Record<string, Shape>)[key];
    const member = sql`${value} -> ${lit(key)}`;
    return sql`CASE WHEN ${value} ? ${lit(key)} THEN ${lit(`,${JSON.stringify(key)}:`)} || ${jsonMember(member, prop)} ${required.has(key) ? sql`ELSE ${slow}` : sql``} END`;
  });
  if (!members.length) return sql`CASE WHEN ${value} IS NULL THEN NULL WHEN jsonb_typeof(${value}) = 'object' THEN '{}' ELSE ${slow} END`;
  // Each member brings its leading comma; the first one's is cut.
  return sql`CASE WHEN ${value} IS NULL THEN NULL WHEN jsonb_typeof(${value}) = 'object' THEN '{' || substr(concat(${sql.join(members, sql`, `)}), 2) || '}' ELSE ${slow} END`;
}

// Spliced fields: the statement writes a marker (STX name ETX id STX, bytes no JSON text holds) that
// fill() replaces with the text JavaScript writes, each source read once for all the markers of a response.
const splices = new Map<string, { source: SpliceSource<unknown>; text: (value: unknown) => string }>();
// biome-ignore lint/suspicious/noControlCharactersInRegex: the markers are control characters because JSON text never holds them bare.
const MARKER = /\u0002(s\d+)\u0003(\d+)\u0002/g;

/** `texts` with their spliced fields written. */
async function fill(db: Executor, texts: string[]): Promise<string[]> {
  if (!texts.some((t) => t.includes('\u0002'))) return texts;
  const wanted = new Map<SpliceSource<unknown>, Set<number>>();
  for (const text of texts)
    for (const [, name, id] of text.matchAll(MARKER)) {
      const { source } = splices.get(name)!;
      wanted.set(source, (wanted.get(source) ?? new Set()).add(Number(id)));
    }
  const read = new Map<SpliceSource<unknown>, Map<number, unknown>>();
  await Promise.all([...wanted].map(async ([source, ids]) => read.set(source, await source(db, [...ids]))));
  return texts.map((text) =>
    text.replace(MARKER, (_m, name: string, id: string) => {
      const { source, text: write } = splices.get(name)!;
      return write(read.get(source)!.get(Number(id)));
    }),
  );
}

/** Builds the statement's text for a def and a shape; `terms` are the viewer's (placeholders), or none when nothing is narrowed. */
export class DocumentBuilder implements DocumentWriter {
  private aliases = 0;
  /** How many lists the object being written sits in. */
  private lists = 0;
  constructor(private readonly terms: ViewerTerms | undefined) {}

  /** A fresh alias of `table`, for its row in a subquery. */
  alias(table: PgTable): PgTable {
    return alias(table, `d${++this.aliases}`);
  }

  /** `FROM table alias`: the alias's own name and the table's. */
  from(at: PgTable, table: PgTable): SQL {
    return sql`${sql.identifier(getTableName(table))} ${sql.identifier(getTableName(at))}`;
  }

  /** The viewer may see the row at `at` (of `table`): undefined when the table has no rule or nothing narrows. */
  visible(at: PgTable, table: PgTable): SQL | undefined {
    return this.terms && ruleOf(table) ? ruleOf(at)?.(this.terms) : undefined;
  }

  /** The object text of `def`'s row at `at` (NULL never: a row is there). */
  object(def: ReadDef, shape: Shape, at: PgTable): SQL {
    if (shape.type !== 'object' || !shape.properties) return slow;
    if (def.hooks?.afterRead && !def.document) return slow;
    const parts: SQL[] = [];
    // The serializer writes the required properties first, each group in the shape's order.
    const required = new Set(shape.required ?? []);
    const keys = Object.keys(shape.properties);
    const ordered = [...keys.filter((k) => required.has(k)), ...keys.filter((k) => !required.has(k))];
    for (const key of ordered) {
      const prop = shape.properties[key];
      const value = this.field(def, key, prop, at);
      if (value) parts.push(sql`${lit(`${parts.length ? ',' : ''}${JSON.stringify(key)}:`)} || ${value}`);
    }
    return parts.length ? sql`('{' || ${sql.join(parts, sql` || `)} || '}')` : sql`'{}'`;
  }

  /** One property's text, or undefined when the serializer would leave it out. */
  private field(def: ReadDef, key: string, prop: Shape, at: PgTable): SQL | undefined {
    const own = def.document?.[key];
    if (own) return own(at, this, prop);
    const cols = readColumns(def.table) as Record<string, PgColumn>;
    if (cols[key]) return orNull(scalar(cols[key], sql`${column(at, key)}`, prop), prop);
    if (key === 'project' && def.projectScoped !== false) return this.one(projectDef, prop, sql`${column(at, 'project_id')}`);
    const ref = def.refs?.[key];
    if (ref)
      return this.one(
        readDefOf(ref.read?.()) ?? { table: ref.target.table, projectScoped: false },
        prop,
        sql`${column(at, ref.column)}`,
        !!ref.read && !readDefOf(ref.read()),
      );
    const link = def.links?.[key];
    if (link) {
      const target = link.read ? readDefOf(link.read()) : { table: link.target.table, projectScoped: false };
      const l = this.alias(link.table);
      return this.many(target, link.target.table, prop, (t) => ({
        from: sql`${this.from(l, link.table)} JOIN ${this.from(t, link.target.table)} ON ${column(t, 'id')} = ${column(l, link.otherColumn)}`,
        where: sql`${column(l, link.ownerColumn)} = ${column(at, 'id')}`,
        order: sql`${column(l, link.otherColumn)}`,
      }));
    }
    const child = def.children?.[key];
    if (child) {
      const target = child.read ? readDefOf(child.read()) : { table: child.table, projectScoped: false };
      return this.many(target, child.table, prop, (t) => ({
        from: this.from(t, child.table),
        where: sql`${column(t, child.column)} = ${column(at, 'id')}`,
        order: sql`${column(t, 'id')}`,
      }));
    }
    if (def.computed?.[key]) return slow;
    return 'default' in prop ? lit(JSON.stringify(prop.default)) : undefined;
  }

  /** The record `fk` names, as an object (null when none, or when the viewer may not see it). */
  one(target: ReadDef | undefined, shape: Shape, fk: SQL, opaque = false): SQL {
    if (!target || opaque) return sql`CASE WHEN ${fk} IS NULL THEN ${lit(shape.nullable ? 'null' : '{}')} ELSE ${slow} END`;
    const t = this.alias(target.table);
    const found = sql`(SELECT ${this.object(target, shape, t)} FROM ${this.from(t, target.table)} WHERE ${and(sql`${column(t, 'id')} = ${fk}`, this.visible(t, target.table))})`;
    return orNull(found, shape);
  }

  /** The newest row of `table` that `where` picks (by `order`), as an object; null when none. */
  latest(target: ReadDef, shape: Shape, where: (t: PgTable) => SQL, order: (t: PgTable) => SQL): SQL {
    const t = this.alias(target.table);
    return orNull(sql`(SELECT ${this.object(target, shape, t)} FROM ${this.from(t, target.table)} WHERE ${where(t)} ORDER BY ${order(t)} LIMIT 1)`, shape);
  }

  splice<T>(at: PgTable, source: SpliceSource<T>, text: (value: T | undefined) => string): SQL {
    const name = `s${splices.size + 1}`;
    splices.set(name, { source: source as SpliceSource<unknown>, text: text as (value: unknown) => string });
    return sql`(chr(2) || ${lit(name)} || chr(3) || ${column(at, 'id')}::text || chr(2))`;
  }

  /** Rows as an array of objects, in `order`, those the viewer may not see left out. */
  many(target: ReadDef | undefined, table: PgTable, shape: Shape, rows: (t: PgTable) => { from: SQL; where: SQL; order: SQL }): SQL {
    const t = this.alias(table);
    const { from, where, order } = rows(t);
    const visible = this.visible(t, table);
    // Incidents and cases listed inside a listed record (a related case's incidents, a duplicate's
    // duplicates) are nearly always none, yet each level multiplies the statement, and PostgreSQL
    // sets up every subquery of it at every run: those lists are written only when empty.
    const nestedRecords = this.lists > 0 && !!ruleOf(table);
    if (!target || shape.type !== 'array' || !shape.items || nestedRecords)
      return sql`CASE WHEN EXISTS (SELECT 1 FROM ${from} WHERE ${and(where, visible)}) THEN ${slow} ELSE '[]' END`;
    this.lists++;
    const items = this.object(target, shape.items, t);
    this.lists--;
    return sql`COALESCE((SELECT '[' || string_agg(${items}, ',' ORDER BY ${order}) || ']' FROM ${from} WHERE ${and(where, visible)}), '[]')`;
  }
}

type Prepared = { execute(p: Record<string, unknown>): Promise<unknown> };

// Shapes are told apart by identity: a list's shapes cut to `include[]` are made once per set of paths.
const shapeIds = new WeakMap<TSchema, number>();
let shapes = 0;
const shapeKey = (shape: TSchema) => shapeIds.get(shape) ?? shapeIds.set(shape, ++shapes).get(shape)!;
const statements = new WeakMap<ReadDef, Map<string, WeakMap<Executor, Prepared>>>();
let names = 0;

/**
 * Who reads, as the statements are prepared: those who see every record of their organization
 * (`all`), those who see the Restricted ones they take part in (`member`), or the service itself.
 * Each kind has a statement of its own, so that no parameter decides which rules apply: PostgreSQL
 * then keeps one generic plan per statement instead of planning this large query at every run.
 */
type Reading = 'all' | 'member' | 'service';

const TERMS: Record<Reading, ViewerTerms | undefined> = {
  all: { ...PLACEHOLDERS, all: true },
  member: { ...PLACEHOLDERS, all: false },
  service: undefined,
};

const readingOf = (viewer: Viewer): Reading => (viewer === UNRESTRICTED ? 'service' : atLeast(viewer.role, 'Admin') ? 'all' : 'member');

/** The statement reading `def`'s row by id as the text of `shape`, for one kind of reader; `scoped`: within the reader's organization. */
function statement(def: ReadDef, shape: TSchema, db: Executor, reading: Reading, scoped: boolean): Prepared {
  let byKind = statements.get(def);
  if (!byKind) statements.set(def, (byKind = new Map()));
  const kind = `${reading}:${scoped}:${shapeKey(shape)}`;
  let byDb = byKind.get(kind);
  if (!byDb) byKind.set(kind, (byDb = new WeakMap()));
  let prepared = byDb.get(db);
  if (!prepared) {
    const terms = TERMS[reading];
    const build = new DocumentBuilder(terms);
    const table = def.table;
    prepared = db
      .select({ doc: sql<string>`${build.object(def, shape as Shape, table)}` })
      .from(table)
      .where(
        and(
          sql`${column(table, 'id')} = ${sql.placeholder('id')}`,
          scoped ? sql`${column(table, 'organization_id')} = ${PLACEHOLDERS.organization}` : undefined,
          terms ? ruleOf(table)?.(terms) : undefined,
        ),
      )
      .prepare(`muster_doc_${++names}_${reading}_${getTableName(table)}`.slice(0, 59));
    byDb.set(db, prepared);
  }
  return prepared;
}

/**
 * The record's response text, if the viewer may see it: undefined when there is none for them, and
 * text holding SLOW when the readers must build it. Outside a transaction only (a transaction reads
 * through the readers, which see its writes on its one connection alike).
 */
export async function readDocument(def: ReadDef, shape: TSchema, db: Executor, id: number, viewer: Viewer): Promise<string | undefined> {
  const reading = readingOf(viewer);
  // A table without a visibility rule is scoped here to the viewer's organization (the rule does that for the others).
  const scoped = viewer !== UNRESTRICTED && !ruleOf(def.table);
  const rows = (await statement(def, shape, db, reading, scoped).execute({ id, ...(viewer === UNRESTRICTED ? {} : paramsOf(viewer)) })) as {
    doc: string;
  }[];
  const doc = rows[0]?.doc;
  return doc === undefined || doc.includes(SLOW) ? doc : (await fill(db, [doc]))[0];
}

/** The statement reading rows by id (`ids`) as `shape`'s text: rows a list has selected within the viewer's scope, so only what they nest is narrowed. */
function rowsStatement(def: ReadDef, shape: TSchema, db: Executor, reading: Reading): Prepared {
  let byKind = statements.get(def);
  if (!byKind) statements.set(def, (byKind = new Map()));
  const kind = `rows:${reading}:${shapeKey(shape)}`;
  let byDb = byKind.get(kind);
  if (!byDb) byKind.set(kind, (byDb = new WeakMap()));
  let prepared = byDb.get(db);
  if (!prepared) {
    const build = new DocumentBuilder(TERMS[reading]);
    const table = def.table;
    prepared = db
      .select({ id: sql<number>`${column(table, 'id')}`, doc: sql<string>`${build.object(def, shape as Shape, table)}` })
      .from(table)
      // Not `= ANY($ids)`: the generic plan of that scans the table and looks each row up in the array.
      .where(sql`${column(table, 'id')} IN (SELECT unnest(${sql.placeholder('ids')}::int[]))`)
      .prepare(`muster_docs_${++names}_${reading}_${getTableName(table)}`.slice(0, 59));
    byDb.set(db, prepared);
  }
  return prepared;
}

/**
 * The texts of rows a list has selected (within the viewer's scope), in the order of `ids`; undefined
 * when any of them must be read through the readers.
 */
export async function readDocuments(def: ReadDef, shape: TSchema, db: Executor, ids: number[], viewer: Viewer): Promise<string[] | undefined> {
  if (ids.length === 0) return [];
  const rows = (await rowsStatement(def, shape, db, readingOf(viewer)).execute({ ids, ...(viewer === UNRESTRICTED ? {} : paramsOf(viewer)) })) as {
    id: number;
    doc: string;
  }[];
  const byId = new Map(rows.map((r) => [r.id, r.doc]));
  const texts = ids.map((id) => byId.get(id));
  if (!texts.every((t): t is string => t !== undefined && !t.includes(SLOW))) return undefined;
  return fill(db, texts);
}

/**
 * A list page's items as one text (`item`: the list's item shape, nothing required and no
 * defaults, as includeShape serializes it), cut to `include[]`, for rows the list found the viewer
 * may see; undefined when the readers must read them.
 */
export async function listItemsText(def: ReadDef, item: TSchema, db: Executor, ids: number[], viewer: Viewer, include: string[]): Promise<string | undefined> {
  const shape = include.length ? includedShape(item, include) : item;
  const texts = shape ? await readDocuments(def, shape, db, ids, viewer) : undefined;
  return texts && `[${texts.join(',')}]`;
}

/**
 * A GET's answer: the record's response text written by PostgreSQL, sent as it is, or what
 * `readers` answers when the statement cannot write it (or finds nothing, for the readers' 404).
 */
export async function documentResponse<T>(def: ReadDef, shape: TSchema, ctx: Ctx, id: number, readers: () => Promise<T>): Promise<T> {
  const text = await readDocument(def, shape, ctx.db, id, ctx);
  return text === undefined || text.includes(SLOW) ? readers() : jsonText<T>(text);
}
