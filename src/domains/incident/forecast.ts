// The incident forecast (`GET /{organization}/incidents/metric/forecast`): incidents per month,
// forecast a year ahead by Holt-Winters (holt-winters.ts), as Dispatch's chart shows it.
//
// For k = 4, 3, 2, 1 months ago, the history is the monthly count of incidents reported up to the
// end of that month, from the first month with an incident on (months without any count 0). With
// two full seasons (24 months) of history the model forecasts the 12 months after it; windows
// k = 4, 3, 2 contribute their first forecast month (a forecast of a month now past, to set against
// what happened), k = 1 all twelve. Actuals are the counts of the months k = 3, 2, 1. Incidents of
// types marked `exclude_from_metrics` do not count, nor restricted incidents the caller may not see.
//
// Unlike Dispatch, each history runs to the end of its month even when its last months had no
// incident (Dispatch stopped at the last incident, so forecast labels could repeat or skip), and a
// month's last day counts whole (Dispatch compared with its midnight).
import { and, lt, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/connection.ts';
import type { Viewer } from '../../server/viewer.ts';
import type { AnyListDefinition } from '../../list/definition.ts';
import { FilterCompiler, parseFilter } from '../../list/filter.ts';
import { incidentType } from '../incident_type/table.ts';
import { fitHoltWinters, forecast } from './holt-winters.ts';
import { incident } from '../lifecycle/table.ts';

export const SEASON = 12;
export const HORIZON = 12;
const WINDOWS = [4, 3, 2, 1];

export interface Forecast {
  categories: string[];
  series: [{ name: 'Predicted'; data: number[] }, { name: 'Actual'; data: number[] }];
}

/** Months counted from year 0: 2024-03 is 2024 * 12 + 2. */
export const monthIndex = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
export const monthLabel = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/**
 * A forecast value as a count: rounded up, never negative. Values within a millionth of a whole
 * number count as that number, so that float noise (30.000000000004) does not add an incident.
 */
export const toCount = (x: number) => Math.max(Math.ceil(Math.round(x * 1e6) / 1e6), 0);

const empty = (): Forecast => ({
  categories: [],
  series: [
    { name: 'Predicted', data: [] },
    { name: 'Actual', data: [] },
  ],
});

/** The forecast from incident counts per month (`YYYY-MM` -> count), as of `now`. */
export function forecastFromCounts(counts: Map<string, number>, now: Date): Forecast {
  const byIndex = new Map<number, number>();
  for (const [label, n] of counts) {
    const [year, month] = label.split('-').map(Number);
    if (n > 0) byIndex.set(year * 12 + month - 1, n);
  }
  const current = monthIndex(now);
  const categories: string[] = [];
  const predicted: number[] = [];
  for (const k of WINDOWS) {
    const end = current - k;
    const months = [...byIndex.keys()].filter((m) => m <= end);
    if (months.length === 0) continue;
    const history: number[] = [];
    for (let m = Math.min(...months); m <= end; m++) history.push(byIndex.get(m) ?? 0);
    const fit = fitHoltWinters(history, SEASON);
    if (!fit) continue;
    const values = forecast(fit, HORIZON).map(toCount);
    const taken = k === 1 ? HORIZON : 1;
    for (let h = 0; h < taken; h++) {
      categories.push(monthLabel(end + 1 + h));
      predicted.push(values[h]);
    }
  }
  if (predicted.length === 0) return empty();
  const actual = [3, 2, 1].map((k) => byIndex.get(current - k) ?? 0);
  return {
    categories,
    series: [
      { name: 'Predicted', data: predicted },
      { name: 'Actual', data: actual },
    ],
  };
}

/**
 * Counts per month (`YYYY-MM`, UTC) of the incidents `list`'s `filter` selects within `scope`,
 * reported before the current month, types excluded from metrics left out.
 */
export async function monthlyCounts(
  db: Executor,
  viewer: Viewer,
  list: AnyListDefinition,
  filter: string | undefined,
  scope: SQL,
  now: Date,
): Promise<Map<string, number>> {
  const compiler = new FilterCompiler(list, viewer);
  const filterSql = compiler.compile(parseFilter(filter));
  const startOfMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const month = sql<string>`to_char(${incident.reported_at} AT TIME ZONE 'UTC', 'YYYY-MM')`;
  // A correlated subquery rather than a join: the filter may join incident types itself.
  const counted = sql`NOT EXISTS (SELECT 1 FROM ${incidentType} WHERE ${incidentType.id} = ${incident.incident_type_id} AND ${incidentType.exclude_from_metrics})`;
  let q = db
    .select({ month, n: sql<number>`count(DISTINCT ${incident.id})::int` })
    .from(incident)
    .$dynamic() as PgSelect;
  for (const rel of compiler.joins) q = q.leftJoin(rel.table, compiler.joinOn(rel)) as unknown as PgSelect;
  const rows = (await q.where(and(scope, filterSql, lt(incident.reported_at, startOfMonth), counted)).groupBy(month)) as unknown as {
    month: string;
    n: number;
  }[];
  return new Map(rows.map((r) => [r.month, Number(r.n)]));
}

/** The forecast of the incidents `scope` lets the caller see, narrowed by the list `filter`. */
export async function incidentForecast(
  db: Executor,
  viewer: Viewer,
  list: AnyListDefinition,
  filter: string | undefined,
  scope: SQL,
  now = new Date(),
): Promise<Forecast> {
  return forecastFromCounts(await monthlyCounts(db, viewer, list, filter, scope, now), now);
}
