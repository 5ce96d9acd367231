// Where deep pages start. An OFFSET walks every row it skips: page 2,000 of a table 25 rows a page
// reads 50,000 index entries to return 25. The first deep page of a version counts the list
// (count-cache.ts) by walking its rows in the page's order, and notes the sort key of every
// MARK_EVERY-th row on the way; a later page of that version starts at the mark before it (a seek
// in the index) and skips fewer than MARK_EVERY rows. The marks are kept and checked with the
// total: the page statement reads the version of its snapshot, and only the version the marks were
// taken at uses them. The first pages need no marks and count plainly (about half the cost).
import { Column, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** Rows between two marks: the most a marked page skips. */
export const MARK_EVERY = 100;

/** A key of the sort, as the engine orders by it. */
export interface MarkedKey {
  by: PgColumn | SQL;
  descending: boolean;
  nullable: boolean;
}

/**
 * The columns of a sort that marks can follow: every key a column of the listed table that is never
 * null (a mark is then a plain row comparison an index serves); undefined otherwise.
 */
export function markable(keys: MarkedKey[], table: object): PgColumn[] | undefined {
  const columns: PgColumn[] = [];
  for (const k of keys) {
    if (k.nullable || !(k.by instanceof Column) || k.by.table !== table) return undefined;
    columns.push(k.by as PgColumn);
  }
  return columns;
}

/** The sort key of every MARK_EVERY-th row (0-based row number `rn`), in order: one JSON array per mark. */
export const marksOf = (keys: SQL[], rn: SQL): SQL =>
  sql`json_agg(json_build_array(${sql.join(keys, sql`, `)}) ORDER BY ${rn}) FILTER (WHERE ${rn} % ${sql.raw(String(MARK_EVERY))} = 0)`;

/**
 * The rows at or after `mark` in the order of `keys`: for keys k1..kn, k1 past its mark, or equal and
 * k2 past, ..., or all equal. The first key's bound stands alone too, so that the index seeks to it.
 */
export function fromMark(keys: MarkedKey[], mark: unknown[]): SQL {
  const past = (i: number) => (keys[i].descending ? sql`${keys[i].by} < ${mark[i]}` : sql`${keys[i].by} > ${mark[i]}`);
  const equal = (i: number) => sql`${keys[i].by} = ${mark[i]}`;
  const branches: SQL[] = [];
  for (let i = 0; i <= keys.length; i++) {
    const same = keys.slice(0, i).map((_, j) => equal(j));
    branches.push(sql.join(i < keys.length ? [...same, past(i)] : same, sql` AND `));
  }
  const first = keys[0].descending ? sql`${keys[0].by} <= ${mark[0]}` : sql`${keys[0].by} >= ${mark[0]}`;
  return sql`(${first} AND (${or(...branches.map((b) => sql`(${b})`))}))`;
}

/** The most marks kept for one count: a count of millions of rows keeps every few, not all. */
export const MOST_MARKS = 500;

/** Marks as kept: the sort keys of every `every`-th row, from the first. */
export interface Marks {
  every: number;
  keys: unknown[][];
}

/** The marks a count took (none for an empty list), thinned to at most MOST_MARKS. */
export function keptMarks(keys: unknown[][] | null): Marks {
  if (!keys?.length) return { every: MARK_EVERY, keys: [] };
  const step = Math.ceil(keys.length / MOST_MARKS);
  return { every: MARK_EVERY * step, keys: step === 1 ? keys : keys.filter((_, i) => i % step === 0) };
}

/** The mark a page at `offset` starts from and the rows it still skips; none before the second mark. */
export function markFor(marks: Marks | undefined, offset: number): { mark: unknown[]; skip: number } | undefined {
  if (!marks?.keys.length || offset < marks.every) return undefined;
  const i = Math.min(Math.floor(offset / marks.every), marks.keys.length - 1);
  return { mark: marks.keys[i], skip: offset - i * marks.every };
}
