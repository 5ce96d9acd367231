// The one list engine: every list operation of Muster pages, searches, filters and sorts through
// here, against the fields its ListDefinition declares, inside the scope its caller passes
// (always at least the caller's organization).
import { and, desc, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, SelectedFields } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/connection.ts';
import type { RequestLog } from '../server/context.ts';
import type { ListQueryT } from '../server/shapes.ts';
import { UNRESTRICTED, type Viewer } from '../server/viewer.ts';
import { type Kept, keepsTotals, keepTotal, keptTotal, tablesIn, versionedTables, versionOf } from './count-cache.ts';
import { column, own, type AnyListDefinition } from './definition.ts';
import { FilterCompiler, parseFilter } from './filter.ts';
import { fromMark, keptMarks, MARK_EVERY, markable, markFor, marksOf } from './page-marks.ts';
import { toTsQuery } from './search.ts';

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
 * declare, or a field of related records there are many of) is left out and noted at debug level,
 * as Dispatch 0.1.0 ignored it: the web UI sorts projects by `display_name` and the like.
 */
function sorting(def: AnyListDefinition, query: ListQueryT, compiler: FilterCompiler, log?: RequestLog): SortKey[] {
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
      log?.debug({ list: def.model, sortBy: fields[i] }, `sort ignored: ${def.model} lists cannot sort by '${fields[i]}'`);
      continue;
    }
    out.push({ by: col, descending: directions[i], nullable });
  }
  return out;
}

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
  const compiler = new FilterCompiler(def, viewer);
  const filterSql = compiler.compile(parseFilter(query.filter));
  const joins = compiler.joins;
  const order = sorting(def, query, compiler, log);

  const tsquery = def.searchVector ? toTsQuery(query.q) : null;
  const tsq = tsquery === null ? undefined : sql`to_tsquery('simple', ${tsquery})`;
  const searchSql = tsq ? sql`${def.searchVector} @@ ${tsq}` : undefined;
  if (tsq && order.length === 0) order.push({ by: sql`ts_rank_cd(${def.searchVector}, ${tsq})`, descending: true, nullable: false });
  order.push({ by: def.idColumn, descending: false, nullable: false });

  const where = and(scope, extra, filterSql, searchSql);
  const page = Math.max(query.page, 1);
  const size = query.itemsPerPage;
  const unlimited = size < 0;
  const offset = (page - 1) * size;

  const withJoins = <Q extends PgSelect>(q: Q): Q => {
    for (const rel of joins) q = q.leftJoin(rel.table, compiler.joinOn(rel)) as unknown as Q;
    return q;
  };

  const n = sql<number>`count(*)::int`;
  const countQuery = (columns: SelectedFields = { n }) => withJoins(db.select(columns).from(def.table).$dynamic()).where(where);
  const count = async () => {
    const [counted] = await countQuery();
    return Number(counted?.n ?? 0);
  };
  /**
   * The page's rows. Given the total, a page past the middle is read from the other end, reversed:
   * an OFFSET walks every row it skips, and from there it skips fewer.
   */
  const pageOf = async (columns: SelectedFields, total?: number) => {
    const reversed = !unlimited && total !== undefined && offset < total && offset > total / 2;
    let q = withJoins(db.select(columns).from(def.table).$dynamic())
      .where(where)
      .orderBy(...orderBy(order, reversed));
    if (reversed) q = q.limit(Math.min(size, total - offset)).offset(Math.max(total - offset - size, 0));
    else if (!unlimited) q = q.limit(Math.max(size, 1)).offset(offset);
    const rows = (await q) as Record<string, unknown>[];
    return reversed ? rows.reverse() : rows;
  };

  /** The page's rows from a mark of the kept count on: a seek, then fewer than MARK_EVERY skipped. */
  const markedPage = async (columns: SelectedFields, from: { mark: unknown[]; skip: number }) =>
    (await withJoins(db.select(columns).from(def.table).$dynamic())
      .where(and(where, fromMark(order, from.mark)))
      .orderBy(...orderBy(order, false))
      .limit(Math.max(size, 1))
      .offset(from.skip)) as Record<string, unknown>[];

  let items: Record<string, unknown>[] | undefined;
  let total = 0;
  if (def.separateCount && unlimited) {
    // Every row (a dashboard's): they are the total, in the same snapshot.
    items = await pageOf(def.columns);
    total = items.length;
  } else if (def.separateCount) {
    // Large tables: the page can follow an index with LIMIT, and the count runs beside it, or not at
    // all while the tables it reads have not changed (count-cache.ts); with the count, where deep
    // pages of this order start (page-marks.ts).
    const { sql: text, params } = countQuery().toSQL();
    const tables = keepsTotals(db) ? versionedTables(text) : undefined;
    const marked = tables && !unlimited ? markable(order, def.table) : undefined;
    const sortKey = marked ? `\n${marked.map((c, i) => `${c.name} ${order[i].descending ? 'desc' : 'asc'}`).join(', ')}` : '';
    const key = `${text}\n${JSON.stringify(params)}${sortKey}`;
    /** The page at the version `kept` was counted at, with its total; undefined if the page's snapshot has another. */
    const atVersion = async (kept: Kept) => {
      const columns = { ...def.columns, __version: versionOf(tables!) };
      const from = markFor(kept.marks, offset);
      const rows = from ? await markedPage(columns, from) : await pageOf(columns, kept.total);
      if (!rows.length || rows[0].__version !== kept.version) return undefined;
      return { items: rows.map(({ __version: _v, ...item }) => item), total: kept.total };
    };
    const counted = async (mark: boolean) => {
      if (!tables) return count();
      if (!marked || !mark) {
        const [row] = await countQuery({ n, version: versionOf(tables) });
        keepTotal(db, key, Number(row.version), Number(row.n));
        return Number(row.n);
      }
      // One walk of the rows in the page's order both counts them and marks every MARK_EVERY-th.
      const numbered = withJoins(
        db
          .select({
            rn: sql<number>`row_number() OVER (ORDER BY ${sql.join(orderBy(order, false), sql`, `)}) - 1`.as('rn'),
            ...Object.fromEntries(marked.map((c, i) => [`k${i}`, sql`${c}`.as(`k${i}`)])),
          })
          .from(def.table)
          .$dynamic(),
      )
        .where(where)
        .as('numbered');
      const keys = marked.map((_, i) => sql.raw(`"numbered"."k${i}"`));
      const [row] = await db.select({ n, version: versionOf(tables), marks: marksOf(keys, sql.raw('"numbered"."rn"')) }).from(numbered);
      keepTotal(db, key, Number(row.version), Number(row.n), keptMarks(row.marks as unknown[][] | null));
      return Number(row.n);
    };
    // Marking costs about a second count: only a deep page asks for it, the first pages count plainly.
    const deep = !!marked && size !== 0 && offset >= MARK_EVERY;
    const known = tables && size !== 0 ? keptTotal(db, key) : undefined;
    let read = known && (known.marks || !deep) ? await atVersion(known) : undefined;
    if (!read && deep) {
      // Count and mark first, then seek, rather than walk the OFFSET beside the count. A page past
      // the end is empty in the count's own snapshot.
      await counted(true);
      const kept = keptTotal(db, key);
      read = kept && (offset >= kept.total ? { items: [], total: kept.total } : await atVersion(kept));
    }
    if (read) ({ items, total } = read);
    else [items, total] = await Promise.all([size === 0 ? Promise.resolve([]) : pageOf(def.columns), counted(false)]);
  } else {
    // One round trip: the page and the total together. A page past the end has no row to carry
    // the total, so only then is it counted on its own.
    const rows = await pageOf({ ...def.columns, __total: sql<number>`count(*) OVER ()` });
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
  sorting(def, query, compiler); // for the joins its sorts add
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
