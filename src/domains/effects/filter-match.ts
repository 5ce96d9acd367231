// Whether a saved search filter matches an incident or a case (BEHAVIOR §10.2): its expression,
// compiled by the list engine's own filter compiler against the kind's list, run on the record's
// row. The service applies saved rules on the organization's behalf, so nothing is narrowed to a
// viewer. Used by routing (contacts, teams, services) and by notifications.
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import { FilterCompiler, tableRef } from '../../list/filter.ts';
import { ApiError } from '../../server/errors.ts';
import { UNRESTRICTED } from '../../server/viewer.ts';
import type { RecordKind } from '../lifecycle/kind.ts';

export interface SavedFilter {
  id: number;
  expression: unknown;
}

/**
 * The SELECT of the ids among `ids` whose record matches `expression`, or undefined when the
 * expression no longer compiles (a field it names was removed): such a filter matches nothing.
 */
function matchingIds(kind: RecordKind, expression: unknown, ids: number[], label: SQL): SQL | undefined {
  if (!kind.list) throw new Error(`the ${kind.name} kind declares no list to match filters against`);
  const compiler = new FilterCompiler(kind.list, UNRESTRICTED);
  let condition: SQL | undefined;
  try {
    condition = compiler.compile(expression);
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 422) return undefined;
    throw err;
  }
  const table = kind.table;
  let from = sql`${table}`;
  for (const rel of compiler.joins) from = sql`${from} LEFT JOIN ${tableRef(rel.table)} ON ${compiler.joinOn(rel)}`;
  // An empty expression is no condition at all: it matches every record.
  return sql`SELECT ${label} AS filter_id, ${table.id} AS record_id FROM ${from}
    WHERE ${table.id} = ANY(${sql.param(ids)}::int[])${condition ? sql` AND (${condition})` : sql``}`;
}

/**
 * Which of the records (ids of `kind`) each filter matches, in one statement: filter id -> the ids
 * of the records it matches (filters matching none are absent).
 */
export async function matchFilters(tx: Executor, kind: RecordKind, recordIds: number[], filters: SavedFilter[]): Promise<Map<number, Set<number>>> {
  const out = new Map<number, Set<number>>();
  if (recordIds.length === 0 || filters.length === 0) return out;
  const ids = [...new Set(recordIds)];
  const parts = [...new Map(filters.map((f) => [f.id, f])).values()]
    .map((f) => matchingIds(kind, f.expression, ids, sql`${f.id}::int`))
    .filter((p): p is SQL => p !== undefined);
  if (parts.length === 0) return out;
  const rows = await runStatement<{ filter_id: number; record_id: number }>(tx, sql.join(parts, sql` UNION ALL `));
  for (const r of rows) {
    let set = out.get(r.filter_id);
    if (!set) out.set(r.filter_id, (set = new Set()));
    set.add(r.record_id);
  }
  return out;
}

/** Whether a filter's expression matches one record of `kind`. */
export async function filterMatches(tx: Executor, kind: RecordKind, recordId: number, expression: unknown): Promise<boolean> {
  const matched = await matchFilters(tx, kind, [recordId], [{ id: 0, expression }]);
  return matched.get(0)?.has(recordId) ?? false;
}
