// A list's total, counted once per version of the tables its count reads. Counting 100,000 rows on
// every page of a table costs more than the page itself, and the total changes only when a row
// does. Every statement that changes a versioned table appends to a change log (revision 0022,
// muster_list_change); a table's version is how many such statements a snapshot sees. The total
// is read with the version of its snapshot, and each page reads the version of its own: the same
// version means no change committed in between, so the total kept is exact for that page. Any
// other version (a write, a process that has not counted yet) counts anew. A version only grows
// with what commits, so an equal one is the same committed state; a transaction's snapshot, which
// sees its own uncommitted changes, neither uses nor keeps totals. Nothing is shared between
// processes: each keeps its own totals, per database, checked against it at every use.
import { sql, type SQL } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Marks } from './page-marks.ts';

/** The tables whose changes are logged (revision 0022's triggers). A count that reads any other is not kept. */
const VERSIONED = new Set([
  'incident',
  'case',
  'participant',
  'individual_contact',
  'project',
  'incident_priority',
  'incident_severity',
  'incident_type',
  'case_priority',
  'case_severity',
  'case_type',
]);

/** The most totals kept; past it the oldest go. */
const MAX_KEPT = 1000;

/** Per database: a process that opens several (tests) keeps each one's totals apart. */
const kept = new WeakMap<object, Map<string, Kept>>();

/** A total, the version it was counted at, and where deep pages of that version start (page-marks.ts). */
export interface Kept {
  version: number;
  total: number;
  marks?: Marks;
}

/**
 * The tables a count's text reads (after FROM or JOIN, subqueries included), when all of them are
 * versioned; otherwise undefined, and the count is not kept.
 */
export function versionedTables(text: string): string[] | undefined {
  const tables = new Set<string>();
  for (const m of text.matchAll(/\b(?:from|join)\s+("?)([A-Za-z_][\w$]*)\1/gi)) tables.add(m[2]);
  if (tables.size === 0 || [...tables].some((t) => !VERSIONED.has(t))) return undefined;
  return [...tables].sort();
}

/** The version of `tables` in the snapshot of the statement this is a column of. */
export const versionOf = (tables: string[]): SQL =>
  sql`(SELECT COALESCE((SELECT sum(n) FROM muster_list_version WHERE tbl = ANY(${sql.param(tables)}::text[])), 0)
    + (SELECT count(*) FROM muster_list_change WHERE tbl = ANY(${sql.param(tables)}::text[])))::float8`;

/**
 * Whether totals are kept for reads on `db`: not inside a transaction, whose snapshot holds its own
 * uncommitted changes, and a version that may never be committed.
 */
export const keepsTotals = (db: object): boolean => !(db instanceof PgTransaction);

/** The total kept on `db` for a count (its text and parameters), with the version it was counted at. */
export function keptTotal(db: object, key: string): Kept | undefined {
  return kept.get(db)?.get(key);
}

export function keepTotal(db: object, key: string, version: number, total: number, marks?: Marks): void {
  let totals = kept.get(db);
  if (!totals) kept.set(db, (totals = new Map()));
  totals.delete(key);
  if (totals.size >= MAX_KEPT) totals.delete(totals.keys().next().value!);
  totals.set(key, { version, total, marks });
}
