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
import { type Executor, inTransaction } from '../db/connection.ts';
import { runStatement } from '../db/statements.ts';
import type { Marks } from './page-marks.ts';

/** The tables whose changes are logged (revisions 0022, 0035 and 0036). A count or an answer that reads any other is not kept. */
export const VERSIONED: ReadonlySet<string> = new Set([
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
  // Revision 0035: what the dashboards read besides (list/kept-answers.ts).
  'incident_tag',
  'incident_duplicate',
  'incident_cost',
  'incident_cost_type',
  'tag',
  'tag_type',
  'participant_role',
  'document',
  'record_document',
  'case_tag',
  'case_duplicate',
  'case_related',
  'case_incident',
  // Revision 0036: what the case dashboard reads besides: what a case's costs are computed from
  // (domains/case/costs.ts), and a case type's on-call service.
  'event',
  'cost_model',
  'cost_model_activity',
  'plugin_event',
  'service',
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
  const tables = tablesIn(text);
  if (tables.length === 0 || tables.some((t) => !VERSIONED.has(t))) return undefined;
  return tables;
}

/**
 * The names after FROM or JOIN in a statement's text, subqueries included: its tables, and any
 * other name there (a function, a subquery's alias), which no table's version covers.
 */
export function tablesIn(text: string): string[] {
  const tables = new Set<string>();
  for (const m of text.matchAll(/\b(?:from|join)\s+("?)([A-Za-z_][\w$]*)\1/gi)) tables.add(m[2]);
  return [...tables].sort();
}

/** The version of `tables` in the snapshot of the statement this is a column of. */
export const versionOf = (tables: string[]): SQL =>
  sql`(SELECT COALESCE((SELECT sum(n) FROM muster_list_version WHERE tbl = ANY(${sql.param(tables)}::text[])), 0)
    + (SELECT count(*) FROM muster_list_change WHERE tbl = ANY(${sql.param(tables)}::text[])))::float8`;

/** The version of every versioned table that has changed, in one snapshot (the others are at 0). */
export async function tableVersions(db: Executor): Promise<Map<string, number>> {
  const rows = await runStatement<{ tbl: string; n: number }>(
    db,
    sql`SELECT tbl, sum(n)::float8 AS n FROM (SELECT tbl, n FROM muster_list_version UNION ALL SELECT tbl, count(*) FROM muster_list_change GROUP BY tbl) v GROUP BY tbl`,
  );
  return new Map(rows.map((r) => [r.tbl, Number(r.n)]));
}

/** The version of `tables` among `versions`: as versionOf would read it in the same snapshot. */
export const versionAmong = (versions: Map<string, number>, tables: readonly string[]): number =>
  tables.reduce((n, table) => n + (versions.get(table) ?? 0), 0);

/**
 * Whether totals are kept for reads on `db`: not inside a transaction, whose snapshot holds its own
 * uncommitted changes, and a version that may never be committed.
 */
export const keepsTotals = (db: object): boolean => !inTransaction(db);

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
