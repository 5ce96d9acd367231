// The one list engine: every list operation of Muster pages, searches, filters and sorts through
// here, against the fields its ListDefinition declares, inside the scope its caller passes
// (always at least the caller's organization).
import { and, desc, lt, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgSelect, type PgTable, type SelectedFields } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/connection.ts';
import type { RequestLog } from '../server/context.ts';
import type { ListQueryT } from '../server/shapes.ts';
import { termsOf, UNRESTRICTED, type Viewer } from '../server/viewer.ts';
import { type Kept, keepsTotals, keepTotal, keptTotal, tablesIn, versionedTables, versionOf } from './count-cache.ts';
import { column, own, type AnyListDefinition } from './definition.ts';
import { FilterCompiler, parseFilter } from './filter.ts';
import { fromMark, keptMarks, MARK_EVERY, markable, markFor, marksOf } from './page-marks.ts';
import { toTsQuery } from './search.ts';
import { type Prepared, preparedStatement } from './statements.ts';

export interface Page<T> {
  items: T[];
  itemsPerPage: number;
  page: number;
  total: number;
}

/** One key of an ORDER BY: reversed, it reads the same rows from the other end. */
interface SortKey {
  by: PgColumn | SQL;
  descending: boolean;
  /** NULLS FIRST/LAST only where there can be nulls: an index on a NOT NULL column then serves the sort. */
  nullable: boolean;
}

function orderBy(keys: SortKey[], reversed: boolean): SQL[] {
  return keys.map(({ by, descending, nullable }) => {
    const down = descending !== reversed;
    if (!nullable) return down ? sql`${by} DESC` : sql`${by} ASC`;
    return down ? sql`${by} DESC NULLS LAST` : sql`${by} ASC NULLS FIRST`;
  });
}

/**
 * ORDER BY for `sortBy[]`/`descending[]`. A sort the list cannot apply (a field or table it does not
 * declare, or a field of related records there are many of) is left out (`ignored`, noted at debug
 * level), as Dispatch 0.1.0 ignored it: the web UI sorts projects by `display_name` and the like.
 */
function sorting(def: AnyListDefinition, query: Pick<ListQueryT, 'sortBy[]' | 'descending[]'>, compiler: FilterCompiler, ignored: string[]): SortKey[] {
  const fields = query['sortBy[]'];
  const directions = query['descending[]'];
  const out: SortKey[] = [];
  // Dispatch pairs sortBy[i] with descending[i]; entries without a direction are not sorted on.
  for (let i = 0; i < Math.min(fields.length, directions.length); i++) {
    const parts = fields[i].split('.');
    const field = parts.at(-1)!;
    let col: PgColumn | SQL | undefined;
    let nullable = true;
    const computed = parts.length === 1 && def.sorts ? own(def.sorts, field) : undefined;
    if (computed) {
      col = computed;
      nullable = false;
    } else if (parts.length === 1 || parts.at(-2) === def.tableName) {
      if (own(def.fields, field)) {
        const ownColumn = column(def.table, field);
        col = compiler.field(def.table, field);
        nullable = col !== ownColumn || !ownColumn?.notNull;
      }
    } else {
      // A dotted field names a table by its snake_case name; only the last two segments count.
      const rel = def.relations?.find((r) => r.tableName === parts.at(-2));
      if (rel?.kind === 'one' && own(rel.fields, field)) col = compiler.relationField(rel, field);
    }
    if (!col) {
      ignored.push(fields[i]);
      continue;
    }
    out.push({ by: col, descending: directions[i], nullable });
  }
  return out;
}

/** The query's fields that decide a list's statements: all but the page and its size. */
type Shaped = Pick<ListQueryT, 'filter' | 'sortBy[]' | 'descending[]' | 'q'>;

/**
 * What a list query compiles to, whatever page it asks for: its conditions, joins and order, and
 * its statements, each built and prepared once (statements.ts). Pages of the same list (the same
 * filter, sort, search, scope and viewer) share one.
 */
interface ListPlan {
  where: SQL | undefined;
  /** The one-to-one relations the filter and sort read, each with its join condition. */
  joins: { table: PgTable; on: SQL }[];
  order: SortKey[];
  /** The `sortBy[]` fields the list cannot sort by, noted at every request. */
  ignored: string[];
  /** The count's key for count-cache.ts, and the tables it reads, when its total can be kept. */
  counted?: { key: string; tables: string[]; marked?: PgColumn[] };
  statements: Map<string, (db: Executor) => Prepared>;
}

/** The most list plans kept per list; past it the least recently used go. */
const MOST_PLANS = 100;
const plans = new WeakMap<AnyListDefinition, Map<string, ListPlan>>();
const dialect = new PgDialect();

/** The plan of a list query: kept while it is in use, compiled otherwise (a 422 for a filter it cannot take). */
function planOf(db: Executor, viewer: Viewer, def: AnyListDefinition, query: Shaped, scope: SQL, extra: SQL | undefined): ListPlan {
  const narrowed = dialect.sqlToQuery(and(scope, extra)!);
  const key = JSON.stringify([
    narrowed.sql,
    narrowed.params,
    viewer === UNRESTRICTED ? null : termsOf(viewer),
    query.filter ?? null,
    query['sortBy[]'],
    query['descending[]'],
    query.q ?? null,
    keepsTotals(db),
  ]);
  let byKey = plans.get(def);
  if (!byKey) plans.set(def, (byKey = new Map()));
  const known = byKey.get(key);
  if (known) {
    // Most recently used last.
    byKey.delete(key);
    byKey.set(key, known);
    return known;
  }
  const plan = compilePlan(db, viewer, def, query, scope, extra);
  if (byKey.size >= MOST_PLANS) byKey.delete(byKey.keys().next().value!);
  byKey.set(key, plan);
  return plan;
}

function compilePlan(db: Executor, viewer: Viewer, def: AnyListDefinition, query: Shaped, scope: SQL, extra: SQL | undefined): ListPlan {
  const compiler = new FilterCompiler(def, viewer);
  const filterSql = compiler.compile(parseFilter(query.filter));
  const ignored: string[] = [];
  const order = sorting(def, query, compiler, ignored);

  const tsquery = def.searchVector ? toTsQuery(query.q) : null;
  const tsq = tsquery === null ? undefined : sql`to_tsquery('simple', ${tsquery})`;
  const searchSql = tsq ? sql`${def.searchVector} @@ ${tsq}` : undefined;
  if (tsq && order.length === 0) order.push({ by: sql`ts_rank_cd(${def.searchVector}, ${tsq})`, descending: true, nullable: false });
  order.push({ by: def.idColumn, descending: false, nullable: false });

  const joins = [...compiler.joins].map((rel) => ({ table: rel.table, on: compiler.joinOn(rel) }));
  const plan: ListPlan = { where: and(scope, extra, filterSql, searchSql), joins, order, ignored, statements: new Map() };
  if (def.separateCount && keepsTotals(db)) {
    const { sql: text, params } = rowsOf(db, def, plan, { n: COUNT }).toSQL();
    const tables = versionedTables(text);
    if (tables) {
      const marked = markable(order, def.table);
      const sortKey = marked ? `\n${marked.map((c, i) => `${c.name} ${order[i].descending ? 'desc' : 'asc'}`).join(', ')}` : '';
      plan.counted = { key: `${text}\n${JSON.stringify(params)}${sortKey}`, tables, marked };
    }
  }
  return plan;
}

const COUNT = sql<number>`count(*)::int`;

/** The plan's rows (`columns`) from the listed table and its joins, within its conditions. */
function rowsOf(db: Executor, def: AnyListDefinition, plan: ListPlan, columns: SelectedFields, where = plan.where) {
  let q = db.select(columns).from(def.table).$dynamic();
  for (const { table, on } of plan.joins) q = q.leftJoin(table, on);
  return q.where(where);
}

/** The plan's statement named `kind`, built by `build` the first time, prepared per connection. */
function statementOf(db: Executor, plan: ListPlan, kind: string, build: (db: Executor) => PgSelect): Prepared {
  let statement = plan.statements.get(kind);
  if (!statement) plan.statements.set(kind, (statement = preparedStatement(build)));
  return statement(db);
}

const LIMIT = sql.placeholder('limit');
const OFFSET = sql.placeholder('offset');

/**
 * One page of `def`'s rows within `scope`, with the total the filter matches. `extra` narrows
 * further (visibility rules, a parent record). `viewer` is who lists: filters and sorts through
 * related incidents and cases see only those they may see. `log` notes what was tolerated (the
 * viewer's request log by default).
 */
export async function runList<T = Record<string, unknown>>(
  db: Executor,
  viewer: Viewer,
  def: AnyListDefinition,
  query: ListQueryT,
  scope: SQL,
  extra?: SQL,
  log: RequestLog | undefined = viewer === UNRESTRICTED ? undefined : viewer.log,
): Promise<Page<T>> {
  const plan = planOf(db, viewer, def, query, scope, extra);
  for (const field of plan.ignored) log?.debug({ list: def.model, sortBy: field }, `sort ignored: ${def.model} lists cannot sort by '${field}'`);
  const { order } = plan;

  const page = Math.max(query.page, 1);
  const size = query.itemsPerPage;
  const unlimited = size < 0;
  const offset = (page - 1) * size;

  const run = async (kind: string, build: (db: Executor) => PgSelect, values?: Record<string, unknown>) =>
    (await statementOf(db, plan, kind, build).execute(values)) as Record<string, unknown>[];

  const count = async () => {
    const [counted] = await run('count', (d) => rowsOf(d, def, plan, { n: COUNT }) as unknown as PgSelect);
    return Number(counted?.n ?? 0);
  };
  /**
   * The page's rows (`columns`, named `kind`). Given the total, a page past the middle is read from
   * the other end, reversed: an OFFSET walks every row it skips, and from there it skips fewer.
   */
  const pageOf = async (kind: string, columns: () => SelectedFields, total?: number) => {
    const reversed = !unlimited && total !== undefined && offset < total && offset > total / 2;
    const build = (d: Executor) => {
      const q = rowsOf(d, def, plan, columns()).orderBy(...orderBy(order, reversed));
      return (unlimited ? q : q.limit(LIMIT).offset(OFFSET)) as unknown as PgSelect;
    };
    const values = reversed ? { limit: Math.min(size, total - offset), offset: Math.max(total - offset - size, 0) } : { limit: Math.max(size, 1), offset };
    const rows = await run(`${kind}${unlimited ? ':all' : reversed ? ':reversed' : ''}`, build, unlimited ? undefined : values);
    return reversed ? rows.reverse() : rows;
  };

  let items: Record<string, unknown>[] | undefined;
  let total = 0;
  if (def.separateCount && unlimited) {
    // Every row (a dashboard's): they are the total, in the same snapshot.
    items = await pageOf('page', () => def.columns);
    total = items.length;
  } else if (def.separateCount) {
    // Large tables: the page can follow an index with LIMIT, and the count runs beside it, or not at
    // all while the tables it reads have not changed (count-cache.ts); with the count, where deep
    // pages of this order start (page-marks.ts).
    const counting = plan.counted;
    const marked = counting && !unlimited ? counting.marked : undefined;
    const versioned = () => ({ ...def.columns, __version: versionOf(counting!.tables) });
    /** The page from a mark of the kept count on: a seek to the mark, then fewer than MARK_EVERY rows skipped. */
    const markedRows = (d: Executor) => {
      const from = fromMark(
        order,
        marked!.map((_, i) => sql.placeholder(`m${i}`)),
      );
      return rowsOf(d, def, plan, versioned(), and(plan.where, from))
        .orderBy(...orderBy(order, false))
        .limit(LIMIT)
        .offset(OFFSET) as unknown as PgSelect;
    };
    /** The page at the version `kept` was counted at, with its total; undefined if the page's snapshot has another. */
    const atVersion = async (kept: Kept) => {
      const from = markFor(kept.marks, offset);
      const rows = from
        ? await run('marked', markedRows, { limit: Math.max(size, 1), offset: from.skip, ...Object.fromEntries(from.mark.map((v, i) => [`m${i}`, v])) })
        : await pageOf('versioned', versioned, kept.total);
      if (!rows.length || rows[0].__version !== kept.version) return undefined;
      return { items: rows.map(({ __version: _v, ...item }) => item), total: kept.total };
    };
    const counted = async (mark: boolean) => {
      if (!counting) return count();
      const { key, tables } = counting;
      if (!marked || !mark) {
        const [row] = await run('count:versioned', (d) => rowsOf(d, def, plan, { n: COUNT, version: versionOf(tables) }) as unknown as PgSelect);
        keepTotal(db, key, Number(row.version), Number(row.n));
        return Number(row.n);
      }
      // One walk of the rows in the page's order both counts them and marks every MARK_EVERY-th.
      const [row] = await run('count:marks', (d) => {
        const numbered = rowsOf(d, def, plan, {
          rn: sql<number>`row_number() OVER (ORDER BY ${sql.join(orderBy(order, false), sql`, `)}) - 1`.as('rn'),
          ...Object.fromEntries(marked.map((c, i) => [`k${i}`, sql`${c}`.as(`k${i}`)])),
        }).as('numbered');
        const keys = marked.map((_, i) => sql.raw(`"numbered"."k${i}"`));
        return d
          .select({ n: COUNT, version: versionOf(tables), marks: marksOf(keys, sql.raw('"numbered"."rn"')) })
          .from(numbered)
          .$dynamic() as unknown as PgSelect;
      });
      keepTotal(db, key, Number(row.version), Number(row.n), keptMarks(row.marks as unknown[][] | null));
      return Number(row.n);
    };
    // Marking costs about a second count: only a deep page asks for it, the first pages count plainly.
    const deep = !!marked && size !== 0 && offset >= MARK_EVERY;
    const known = counting && size !== 0 ? keptTotal(db, counting.key) : undefined;
    let read = known && (known.marks || !deep) ? await atVersion(known) : undefined;
    if (!read && deep) {
      // Count and mark first, then seek, rather than walk the OFFSET beside the count. A page past
      // the end is empty in the count's own snapshot.
      await counted(true);
      const kept = keptTotal(db, counting!.key);
      read = kept && (offset >= kept.total ? { items: [], total: kept.total } : await atVersion(kept));
    }
    if (read) ({ items, total } = read);
    else [items, total] = await Promise.all([size === 0 ? Promise.resolve([]) : pageOf('page', () => def.columns), counted(false)]);
  } else {
    // One round trip: the page and the total together. A page past the end has no row to carry
    // the total, so only then is it counted on its own.
    const rows = await pageOf('totaled', () => ({ ...def.columns, __total: sql<number>`count(*) OVER ()` }));
    total = rows.length ? Number(rows[0].__total) : page > 1 ? await count() : 0;
    items = size === 0 ? [] : rows.map(({ __total: _t, ...item }) => item);
  }
  const itemsPerPage = unlimited ? total : total > 0 && size > total ? total : size;
  return { items: items as T[], itemsPerPage, page, total };
}

/**
 * The names of the tables runList reads for the same arguments (count-cache.ts, tablesIn): what an
 * answer kept with their versions (kept-answers.ts) depends on besides the records it reads.
 */
export function listTables(db: Executor, viewer: Viewer, def: AnyListDefinition, query: ListQueryT, scope: SQL, extra?: SQL): string[] {
  const compiler = new FilterCompiler(def, viewer);
  const filterSql = compiler.compile(parseFilter(query.filter));
  sorting(def, query, compiler, []); // for the joins its sorts add
  let q = db.select({ n: sql`1` }).from(def.table).$dynamic();
  for (const rel of compiler.joins) q = q.leftJoin(rel.table, compiler.joinOn(rel));
  return tablesIn(q.where(and(scope, extra, filterSql)).toSQL().sql);
}

/**
 * Every row of `def` within `scope` that the query's `filter` selects, newest (highest id) first, in
 * batches of `size`: keyset pages on the id column, so an export of any length holds no transaction
 * open and reads each row once. The filter is checked here, before the first batch is asked for (a
 * 422 can still be answered). Rows appended meanwhile are read unless `extra` bounds the id; given
 * as a function, `extra` is made when the first batch is read (after the caller has done what the
 * checked query allows).
 */
export function listBatches<T = Record<string, unknown>>(
  db: Executor,
  viewer: Viewer,
  def: AnyListDefinition,
  query: Pick<ListQueryT, 'filter'>,
  scope: SQL,
  extra?: SQL | (() => SQL | undefined),
  size = 500,
): AsyncGenerator<T[]> {
  const compiler = new FilterCompiler(def, viewer);
  const filterSql = compiler.compile(parseFilter(query.filter));
  const idKey = Object.entries(def.columns).find(([, c]) => c === def.idColumn)?.[0];
  if (!idKey) throw new Error(`list ${def.model}: its columns do not select its id column`);
  return (async function* () {
    const narrow = typeof extra === 'function' ? extra() : extra;
    let before: unknown;
    for (;;) {
      let q = db.select(def.columns).from(def.table).$dynamic();
      for (const rel of compiler.joins) q = q.leftJoin(rel.table, compiler.joinOn(rel));
      const rows = (await q
        .where(and(scope, narrow, filterSql, before === undefined ? undefined : lt(def.idColumn, before)))
        .orderBy(desc(def.idColumn))
        .limit(size)) as Record<string, unknown>[];
      if (rows.length) yield rows as T[];
      if (rows.length < size) return;
      before = rows.at(-1)![idKey];
    }
  })();
}
