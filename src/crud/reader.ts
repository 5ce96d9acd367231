// Read objects of a group: the row's columns with its project, references, links and children nested.
// One prepared query reads the rows with, as JSON built by PostgreSQL, the small records they name
// (project, priority, type: see planOf) and the ids of their links and children; then each other
// reader with ids to read runs once per response (never once per row).
//
// Every read is on behalf of a viewer: the rows of a table with a visibility rule (incidents,
// cases: server/visibility.ts) that the viewer may not see are not read, at whatever depth they
// are nested (a reference to one reads null, a list leaves it out). Those tables are never built
// inside another's query, so that no nested object escapes the rule.
import { and, getTableName, sql, type SQL } from 'drizzle-orm';
import { PgTransaction, type PgColumn, type PgTable, type SelectedFields } from 'drizzle-orm/pg-core';
import type { Static, TSchema } from '@sinclair/typebox';
import type { Executor } from '../db/connection.ts';
import { readColumns } from '../db/columns.ts';
import { project } from '../domains/project/table.ts';
import { paramsOf, PLACEHOLDERS, termsOf, UNRESTRICTED, type Viewer, type ViewerTerms } from '../server/viewer.ts';
import { ruleOf } from '../server/visibility.ts';
import { column, type GroupDef, type Reader } from './group.ts';

type Rows = Record<string, unknown>[];

/** A transaction's one connection takes one query at a time and is short-lived. */
const inTransaction = (db: Executor) => db instanceof PgTransaction;

type Match = (col: PgColumn) => SQL;
type Prepared = { execute(p: Record<string, unknown>): Promise<unknown> };
/** Builds the query: `match` applied to the key column, and `terms` (a viewer) given to the table's visibility rule, if any. */
type Query = (db: Executor, match: Match, terms: ViewerTerms | undefined) => { prepare(name: string): Prepared } & PromiseLike<unknown>;

/**
 * Runs `query` (whose WHERE applies `match` to the key column) prepared once per database: nested
 * reads run on every response, and building the query each time costs more than running it. One
 * id has a statement of its own (`key = $1`): PostgreSQL then keeps one generic plan for it instead
 * of planning each run, as it does for `key = ANY($1)`, whose estimates depend on the array. Inside
 * a transaction (short-lived, one connection) it runs unprepared. With `restricted` (the table has a
 * visibility rule) a viewer other than UNRESTRICTED is given to the query, as placeholders.
 */
function preparedById(name: string, query: Query, restricted: boolean) {
  const statements = new Map<string, WeakMap<Executor, Prepared>>();
  const statement = (db: Executor, kind: 'one' | 'many', terms: ViewerTerms | undefined) => {
    const suffix = `${kind === 'one' ? '_1' : ''}${terms ? '_v' : ''}`;
    const byDb = statements.get(suffix) ?? new WeakMap<Executor, Prepared>();
    statements.set(suffix, byDb);
    const known = byDb.get(db);
    if (known) return known;
    const match: Match = kind === 'one' ? (col) => sql`${col} = ${sql.placeholder('id')}` : (col) => sql`${col} = ANY(${sql.placeholder('ids')})`;
    const prepared = query(db, match, terms).prepare(`${name}${suffix}`);
    byDb.set(db, prepared);
    return prepared;
  };
  return async (db: Executor, ids: number[], viewer: Viewer): Promise<Rows> => {
    if (ids.length === 0) return [];
    const narrowed = restricted && viewer !== UNRESTRICTED ? viewer : undefined;
    if (inTransaction(db))
      return (await query(
        db,
        (col) => (ids.length === 1 ? sql`${col} = ${ids[0]}` : sql`${col} = ANY(${sql.param(ids)})`),
        narrowed && termsOf(narrowed),
      )) as Rows;
    const params = narrowed ? paramsOf(narrowed) : {};
    if (ids.length === 1) return (await statement(db, 'one', narrowed && PLACEHOLDERS).execute({ id: ids[0], ...params })) as Rows;
    return (await statement(db, 'many', narrowed && PLACEHOLDERS).execute({ ids, ...params })) as Rows;
  };
}

/** `SELECT <selection> FROM <table> WHERE <key> = ANY(ids)`, and the viewer may see the row. */
function selectWhereIn(table: PgTable, selection: SelectedFields, key: string): (db: Executor, ids: number[], viewer: Viewer) => Promise<Rows> {
  const name = `muster_${getTableName(table)}_by_${key}_${Object.keys(selection).length}`.slice(0, 59);
  const rule = ruleOf(table);
  return preparedById(
    name,
    (db, match, terms) =>
      db
        .select(selection)
        .from(table)
        .where(and(match(column(table, key)), terms && rule?.(terms))),
    !!rule,
  );
}

/** What a def's own fields (ReadDef.document) use of the one-statement read that document.ts builds. */
export interface DocumentWriter {
  /** `FROM table alias`. */
  from(at: PgTable, table: PgTable): SQL;
  /** Rows as an array of `shape`'s objects, in `order`, those the viewer may not see left out. */
  many(target: ReadDef | undefined, table: PgTable, shape: TSchema, rows: (t: PgTable) => { from: SQL; where: SQL; order: SQL }): SQL;
  /** The first row `where` picks in `order`, as `shape`'s object; null when none. */
  latest(target: ReadDef, shape: TSchema, where: (t: PgTable) => SQL, order: (t: PgTable) => SQL): SQL;
  /**
   * A field JavaScript computes once the statement has run (a cost that depends on the clock): `source`
   * reads what the field needs for the records of one response at once, `text` writes one record's.
   */
  splice<T>(at: PgTable, source: SpliceSource<T>, text: (value: T | undefined) => string): SQL;
}

/** What spliced fields read, for the ids of the records of one response; one call per response and source. */
export type SpliceSource<T> = (db: Executor, ids: number[]) => Promise<Map<number, T>>;

/** A field the one-statement read writes with the def's own SQL (JSON text), given the row's alias `at`; undefined leaves it out. */
export type DocumentField = (at: PgTable, doc: DocumentWriter, shape: TSchema) => SQL | undefined;

/** What a reader needs of a group: records that are not a CRUD group (participants, incidents) declare only this. */
export type ReadDef = Pick<GroupDef, 'table' | 'projectScoped' | 'refs' | 'links' | 'children' | 'hooks'> & {
  /**
   * Fields computed in the read's query: given the quoted alias of the row's table, a scalar SQL
   * expression of type json (`jsonColumns` writes a row's object as a read nests it).
   */
  computed?: Record<string, (alias: string) => string>;
  /**
   * How the one-statement read (document.ts) writes fields the def's hooks or computed fields make
   * in JavaScript. A def with an afterRead hook and no `document` is read through the readers.
   */
  document?: Record<string, DocumentField>;
};

/** What each reader made here reads: the one-query form is built from these. */
const readerDefs = new WeakMap<Reader, ReadDef>();
/** What every reader made here reads, selections included: the one-statement read (document.ts) writes only what the shape names. */
const documentDefs = new WeakMap<Reader, ReadDef>();

/** The def a reader made here reads; undefined for readers written by hand (their rules are JavaScript). */
export const readDefOf = (reader: Reader | undefined): ReadDef | undefined => (reader ? documentDefs.get(reader) : undefined);

/** The columns of the rows with these ids (or only `selection`, which holds `id`), nothing nested. */
export function shallowReader(table: PgTable, selection?: Record<string, PgColumn>): Reader {
  const select = selectWhereIn(table, selection ?? readColumns(table), 'id');
  const reader: Reader = async (db, ids, viewer) => new Map((await select(db, [...new Set(ids)], viewer)).map((r) => [r.id as number, r]));
  if (!selection) readerDefs.set(reader, { table, projectScoped: false });
  documentDefs.set(reader, { table, projectScoped: false });
  return reader;
}

export const projectReader = shallowReader(project);
export const projectDef: ReadDef = { table: project, projectScoped: false };

// Objects nested as JSON built by PostgreSQL write their timestamps as JavaScript writes dates
// (toISOString: UTC, milliseconds, "Z"), so responses are the same as with rows read by the driver.

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

class Unsupported extends Error {}

/** One column of `alias` as its JSON value: timestamps as toISOString writes them, the rest as they are. */
function jsonValue(alias: string, col: PgColumn): string {
  const ref = `${alias}.${q(col.name)}`;
  const type = col.getSQLType();
  if (type.startsWith('timestamp')) {
    return type.includes('with time zone') ? `to_char(${ref} AT TIME ZONE 'UTC', ${ISO})` : `to_char(${ref}, ${ISO})`;
  }
  if (type === 'date' || type.startsWith('interval') || type.startsWith('time') || type === 'numeric' || type === 'bigint')
    throw new Unsupported(`column type ${type}`);
  return ref;
}

/** `expression AS "key"` for each read column of `table` at `alias`, in the table's order. */
function jsonFields(table: PgTable, alias: string): string[] {
  return Object.entries(readColumns(table) as Record<string, PgColumn>).map(([key, col]) => `${jsonValue(alias, col)} AS ${q(key)}`);
}

/** A row of `table` at `alias` as a JSON object of its read columns, as a read nests it (for `computed` fields). */
export function jsonColumns(table: PgTable, alias: string): string {
  return `(SELECT row_to_json(c) FROM (SELECT ${jsonFields(table, alias).join(', ')}) c)`;
}

/** Where the objects nested in the query sit, for their hooks to run once it has come back. */
interface Node {
  def: ReadDef;
  nested: { field: string; node: Node }[];
}

// Objects built inside the query: records with nothing to nest but a project and references of
// the same kind, a few levels deep (priorities, types, projects). Records with links or children
// (participants, tags, tasks) come from their own readers, and only when there are any.
const MAX_DEPTH = 3;
let aliases = 0;

/** `def`'s row at `alias` as one JSON object with its project and references; Unsupported if it has more to nest. */
function inlineObject(def: ReadDef | undefined, alias: string, depth: number): { sql: string; node: Node } {
  if (!def || depth > MAX_DEPTH || def.links || def.children || def.computed || ruleOf(def.table)) throw new Unsupported('not nested in the query');
  const node: Node = { def, nested: [] };
  const fields = jsonFields(def.table, alias);
  for (const [field, fk, read] of oneFields(def)) {
    const inner = inlineRef(readerDefs.get(read), def, alias, fk, depth + 1);
    node.nested.push({ field, node: inner.node });
    fields.push(`${inner.sql} AS ${q(field)}`);
  }
  const x = `x${++aliases}`;
  return { sql: `(SELECT row_to_json(${x}) FROM (SELECT ${fields.join(', ')}) ${x})`, node };
}

/** The record `owner.fk` names, as a JSON object (null when none). */
function inlineRef(def: ReadDef | undefined, owner: ReadDef, ownerAlias: string, fk: string, depth: number) {
  const a = `m${++aliases}`;
  const obj = inlineObject(def, a, depth);
  return {
    sql: `(SELECT ${obj.sql} FROM ${q(getTableName(def!.table))} ${a} WHERE ${a}."id" = ${ownerAlias}.${q(column(owner.table, fk).name)})`,
    node: obj.node,
  };
}

/** The project and references of a def: (field, column key, reader). */
function oneFields(def: ReadDef): [string, string, Reader][] {
  const out: [string, string, Reader][] = [];
  if (def.projectScoped !== false) out.push(['project', 'project_id', projectReader]);
  for (const [field, ref] of Object.entries(def.refs ?? {})) out.push([field, ref.column, ref.read?.() ?? shallowReader(ref.target.table)]);
  return out;
}

/** Runs the hooks of every level, the innermost first (as reading one kind at a time does). */
async function runHooks(db: Executor, node: Node, items: Rows) {
  for (const { field, node: inner } of node.nested) {
    const nested = items.map((item) => item[field]).filter((v): v is Record<string, unknown> => !!v);
    if (nested.length) await runHooks(db, inner, nested);
  }
  if (items.length) await node.def.hooks?.afterRead?.(db, items);
}

let statements = 0;

/**
 * How `def` reads: one prepared query `SELECT <columns>, json_build_array(<nested>) FROM table
 * WHERE id = ANY(ids)` whose JSON holds the objects built in the query, the computed fields and,
 * for each link and child field, the ids to read; then one query per other reader that has ids to
 * read, side by side on the pool. Also the nested-only variant for rows already selected (list pages).
 */
function planOf(def: ReadDef) {
  const table = def.table;
  const own = q(getTableName(table));
  const exprs: string[] = [];
  const inline: { field: string; node: Node }[] = [];
  const computed: string[] = [];
  const refs: { field: string; fk: string; read: Reader }[] = [];
  const many: { field: string; read: Reader }[] = [];
  for (const [field, fk, read] of oneFields(def)) {
    try {
      const obj = inlineRef(readerDefs.get(read), def, own, fk, 1);
      exprs.push(obj.sql);
      inline.push({ field, node: obj.node });
    } catch (err) {
      if (!(err instanceof Unsupported)) throw err;
      refs.push({ field, fk, read });
    }
  }
  for (const [field, expr] of Object.entries(def.computed ?? {})) {
    exprs.push(expr(own));
    computed.push(field);
  }
  const ids = (from: string, other: string, owner: string) =>
    `COALESCE((SELECT json_agg(${other} ORDER BY ${other}) ${from} WHERE ${owner} = ${own}."id"), '[]'::json)`;
  for (const [field, link] of Object.entries(def.links ?? {})) {
    const l = `l${++aliases}`;
    exprs.push(
      ids(
        `FROM ${q(getTableName(link.table))} ${l}`,
        `${l}.${q(column(link.table, link.otherColumn).name)}`,
        `${l}.${q(column(link.table, link.ownerColumn).name)}`,
      ),
    );
    many.push({ field, read: link.read?.() ?? shallowReader(link.target.table) });
  }
  for (const [field, child] of Object.entries(def.children ?? {})) {
    const c = `c${++aliases}`;
    exprs.push(ids(`FROM ${q(getTableName(child.table))} ${c}`, `${c}."id"`, `${c}.${q(column(child.table, child.column).name)}`));
    many.push({ field, read: child.read?.() ?? shallowReader(child.table) });
  }
  if (exprs.length > 100) throw new Error(`${getTableName(table)}: more nested fields than json_build_array takes`);

  const id = column(table, 'id');
  const nestedSql = sql`json_build_array(${sql.raw(exprs.join(', '))})`;
  const n = ++statements;
  const rule = ruleOf(table);
  const full = preparedById(
    `muster_read_${n}_${getTableName(table)}`.slice(0, 59),
    (db, match, terms) =>
      db
        .select({ ...readColumns(table), __nested: nestedSql })
        .from(table)
        .where(and(match(id), terms && rule?.(terms))),
    !!rule,
  );
  // Rows a list has selected already, within the scope its caller gave: only what they nest is narrowed.
  const nestedOnly = preparedById(
    `muster_nest_${n}_${getTableName(table)}`.slice(0, 59),
    (db, match) => db.select({ __id: id, __nested: nestedSql }).from(table).where(match(id)),
    false,
  );

  /** Fills the nested fields of `items` (own columns present) from the query's JSON, `values[i]` for `items[i]`. */
  async function complete(db: Executor, items: Rows, values: unknown[][], viewer: Viewer) {
    const idLists: number[][][] = many.map(() => []);
    items.forEach((item, i) => {
      let k = 0;
      for (const { field } of inline) item[field] = values[i][k++];
      for (const field of computed) item[field] = values[i][k++];
      for (let m = 0; m < many.length; m++) idLists[m].push(values[i][k++] as number[]);
    });
    const steps: (() => Promise<void>)[] = [];
    for (const { field, fk, read } of refs) {
      const wanted = items.map((i) => i[fk]).filter((v): v is number => typeof v === 'number');
      for (const item of items) item[field] = null;
      if (wanted.length)
        steps.push(async () => {
          const found = await read(db, wanted, viewer);
          for (const item of items) if (typeof item[fk] === 'number') item[field] = found.get(item[fk] as number) ?? null;
        });
    }
    many.forEach(({ field, read }, m) => {
      const wanted = idLists[m].flat();
      for (const [i, item] of items.entries()) item[field] = wanted.length ? idLists[m][i] : [];
      if (wanted.length)
        steps.push(async () => {
          const found = await read(db, wanted, viewer);
          for (const [i, item] of items.entries()) item[field] = idLists[m][i].map((x) => found.get(x)).filter((x) => x !== undefined);
        });
    });
    // On the pool the readers run side by side; a transaction's one connection takes them in turn.
    if (inTransaction(db)) for (const step of steps) await step();
    else await Promise.all(steps.map((step) => step()));
    await runHooks(db, { def, nested: inline }, items);
  }

  return {
    /** `checked`: the caller has found the rows themselves visible (or written them): only what they nest is narrowed. */
    async read(db: Executor, ids: number[], viewer: Viewer, checked = false) {
      const rows = await full(db, [...new Set(ids)], checked ? UNRESTRICTED : viewer);
      const values = rows.map((row) => {
        const v = row.__nested as unknown[];
        delete row.__nested;
        return v;
      });
      await complete(db, rows, values, viewer);
      return new Map(rows.map((r) => [r.id as number, r]));
    },
    async nestInto(db: Executor, rows: Map<number, Record<string, unknown>>, viewer: Viewer) {
      const found = await nestedOnly(db, [...rows.keys()], viewer);
      const items = found.map((r) => rows.get(r.__id as number)!);
      await complete(
        db,
        items,
        found.map((r) => r.__nested as unknown[]),
        viewer,
      );
    },
  };
}

const readers = new WeakMap<ReadDef, Reader>();
const groupDefs = new WeakMap<object, ReadDef>();
const plans = new WeakMap<ReadDef, ReturnType<typeof planOf>>();

/** Built on first use: the readers a def names are functions of defs that may not be declared yet at import. */
function plan(def: ReadDef) {
  let p = plans.get(def);
  if (!p) plans.set(def, (p = planOf(def)));
  return p;
}

/**
 * The group's full reader: what its get, list, create and update answer with. Given the read shape,
 * its objects are typed as that shape's static type. This is where that is stated, once for every
 * reader: the objects are built from the row's columns, JSON made by PostgreSQL and hooks, which the
 * compiler cannot follow, so the def and the shape are kept in step by the tests of each domain.
 * Two liberties: the row's own timestamps are Date objects where the shape says string (the
 * serializer writes both alike), and the row's other columns (its foreign keys) come along unlisted.
 */
export function groupReader(def: ReadDef): Reader;
export function groupReader<S extends TSchema>(def: ReadDef, shape: S): Reader<Static<S>>;
export function groupReader(def: ReadDef, _shape?: TSchema): Reader {
  const known = readers.get(def);
  if (known) return known;
  const reader: Reader = (db, ids, viewer) => (ids.length ? plan(def).read(db, ids, viewer) : Promise.resolve(new Map()));
  readers.set(def, reader);
  readerDefs.set(reader, def);
  documentDefs.set(reader, def);
  groupDefs.set(reader, def);
  return reader;
}

/**
 * What `reader` (a group reader) reads, for rows the caller has already found `viewer` may see, or
 * has just written for them: the rows themselves are read as they are, what they nest is narrowed.
 */
export function readChecked<T>(reader: Reader<T>, db: Executor, ids: number[], viewer: Viewer): Promise<Map<number, T>> {
  const def = groupDefs.get(reader);
  if (!def) throw new Error('readChecked takes a group reader');
  // The one typed boundary (groupReader): the reader's def reads as its shape.
  return (ids.length ? plan(def).read(db, ids, viewer, true) : Promise.resolve(new Map())) as Promise<Map<number, T>>;
}

/** Read objects for rows already selected with the group's columns (a list page, within the viewer's scope), in their order. */
export async function readRows(db: Executor, def: ReadDef, rows: { id: number }[], viewer: Viewer) {
  if (rows.length) await plan(def).nestInto(db, new Map(rows.map((r) => [r.id, r as Record<string, unknown>])), viewer);
  return rows as Record<string, unknown>[];
}
