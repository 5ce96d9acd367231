// What the filters of a batch's instances decide, before they are stored. One statement evaluates every
// live filter for every instance of the batch: whether the instance matches the filter's expression
// (over the batch's rows as they will be stored) and, for a deduplicate
// filter, the earliest earlier instance of the same definition and fingerprint in the window that
// matches too and was not snoozed. Then, in order of creation, each instance meets its filters in
// their order: the first active one that hits decides (snooze; or deduplicate, joining the case of
// that earliest instance), monitor ones only record what they would have done. An instance of the
// same batch counts as an earlier instance just as a stored one does, so a batch decides exactly
// what its instances would have decided one after another.
import { sql, type SQL } from 'drizzle-orm';
import { runStatement } from '../../db/statements.ts';
import type { Executor } from '../../db/connection.ts';
import type { Definition, FilterDef } from './definitions.ts';
import { compileExpression, type Matcher } from './filters.ts';
import type { FilterAction } from './schema.ts';
import { signalInstance } from './table.ts';

// Compiled expressions, keyed by filter id and its updated_at (read with the definition in the same
// request, so a changed filter is never run stale on any node).
const compiled = new Map<string, Matcher | null>();
const COMPILED_MAX = 1000;

/** The filter's compiled expression (null: it matches every instance); a 422 when it cannot compile. */
export function matcherOf(f: FilterDef): Matcher | null {
  const key = `${f.id}@${f.updated_at}`;
  let m = compiled.get(key);
  if (m === undefined) {
    m = compileExpression(f.expression) ?? null;
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(key, m);
  }
  return m;
}

/** Filters that can act on an instance created at `at`: active or monitoring, snoozes not expired. */
export function liveFilters(def: Definition, at: Date): FilterDef[] {
  return def.filters.filter((f) => {
    if (f.mode !== 'active' && f.mode !== 'monitor') return false;
    if (f.action === 'snooze' && f.expiration !== null && Date.parse(f.expiration) <= at.getTime()) return false;
    return f.action === 'snooze' || f.action === 'deduplicate';
  });
}

export interface Pending {
  id: string;
  fingerprint: string;
  at: Date;
  def: Definition;
  filters: FilterDef[];
}

/** Where a decided instance's case comes from: a stored instance's case, or the case of an instance of the batch. */
export type CaseSource = { caseId: number | null } | { of: Pending };

export interface MonitorHit {
  signal_filter_id: number;
  name: string;
  action: FilterAction;
  source: CaseSource;
}

export interface Decision {
  filterAction: FilterAction | null;
  /** Set when an active filter decided: the case the instance joins (none for a snooze). */
  source: CaseSource | null;
  monitor: MonitorHit[];
}

interface Evaluated {
  m: boolean;
  /** The earliest stored candidate: [id, case id, created_at in ms]. */
  c: [string, number | null, number] | null;
}

const windowStart = (at: Date, seconds: number) => {
  const from = at.getTime() - seconds * 1000;
  // A window reaching past what a date can hold looks back without bound.
  return Math.abs(from) < 8.64e15 ? new Date(from) : new Date(-8.64e15);
};

/** Instances of the batch as the rows they will be stored as (store.ts batchRows), `raw` carried when asked. */
export type BatchRows<P extends Pending> = (items: P[], withRaw: boolean) => { instances: SQL; links: SQL };

/** Every live filter of every instance evaluated in one statement, keyed `${instance id}:${filter id}`. */
async function evaluate<P extends Pending>(tx: Executor, items: P[], batchRows: BatchRows<P>): Promise<Map<string, Evaluated>> {
  const out = new Map<string, Evaluated>();
  const batchIds = sql.param(items.map((i) => i.id));
  const parts: SQL[] = [];
  const byDefinition = new Map<number, P[]>();
  for (const item of items) {
    if (item.filters.length === 0) continue;
    const group = byDefinition.get(item.def.id) ?? [];
    byDefinition.set(item.def.id, group);
    group.push(item);
  }
  for (const [defId, group] of byDefinition) {
    const filters = [...new Map(group.flatMap((i) => i.filters).map((f) => [f.id, f])).values()];
    for (const f of filters) {
      const members = group.filter((i) => i.filters.some((g) => g.id === f.id));
      const rows = JSON.stringify(members.map((i) => ({ id: i.id, fingerprint: i.fingerprint, since: windowStart(i.at, f.window).toISOString() })));
      const m = matcherOf(f);
      // The new instances are matched as the rows they will be stored as, all at once; the stored candidates one by one.
      let matchesNew = sql`TRUE`;
      if (m) {
        const batch = batchRows(members, m.readsRaw);
        matchesNew = sql`x.id IN (${m.batch(batch.instances, batch.links)})`;
      }
      const candidate =
        f.action !== 'deduplicate'
          ? sql`NULL::json`
          : sql`(
        SELECT json_build_array(c.id, c.case_id, extract(epoch FROM c.created_at) * 1000) FROM ${signalInstance} c
        WHERE c.signal_id = ${defId} AND c.fingerprint = x.fingerprint AND c.created_at >= x.since
          AND c.id <> ALL(${batchIds}::uuid[]) AND c.filter_action IS DISTINCT FROM 'snooze'${m ? sql` AND ${m.stored(sql`c.id`)}` : sql``}
        ORDER BY c.created_at, c.id LIMIT 1)`;
      parts.push(sql`SELECT x.id::text AS id, ${f.id}::int AS filter, ${matchesNew} AS m, ${candidate} AS c
        FROM json_to_recordset(${rows}::json) AS x(id uuid, fingerprint text, since timestamptz)`);
    }
  }
  if (parts.length === 0) return out;
  const rows = await runStatement<{ id: string; filter: number; m: boolean; c: Evaluated['c'] }>(tx, sql.join(parts, sql` UNION ALL `));
  for (const r of rows) out.set(`${r.id}:${r.filter}`, { m: r.m === true, c: r.c ? [r.c[0], r.c[1], Number(r.c[2])] : null });
  return out;
}

const before = (a: [number, string], b: [number, string]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** The decisions of the batch's instances, by id. */
export async function decide<P extends Pending>(tx: Executor, items: P[], batchRows: BatchRows<P>): Promise<Map<string, Decision>> {
  const evaluated = await evaluate(tx, items, batchRows);
  const decisions = new Map<string, Decision>();
  const ordered = [...items].sort((a, b) => (before([a.at.getTime(), a.id], [b.at.getTime(), b.id]) ? -1 : 1));
  const done: Pending[] = [];
  for (const item of ordered) {
    const decision: Decision = { filterAction: null, source: null, monitor: [] };
    for (const f of item.filters) {
      const e = evaluated.get(`${item.id}:${f.id}`);
      if (!e?.m) continue;
      let source: CaseSource = { caseId: null };
      if (f.action === 'deduplicate') {
        let best: { key: [number, string]; source: CaseSource } | undefined = e.c ? { key: [e.c[2], e.c[0]], source: { caseId: e.c[1] } } : undefined;
        const since = windowStart(item.at, f.window).getTime();
        for (const s of done) {
          if (s.fingerprint !== item.fingerprint || s.at.getTime() < since || decisions.get(s.id)!.filterAction === 'snooze') continue;
          if (!evaluated.get(`${s.id}:${f.id}`)?.m) continue;
          const key: [number, string] = [s.at.getTime(), s.id];
          if (!best || before(key, best.key)) best = { key, source: { of: s } };
        }
        if (!best) continue;
        source = best.source;
      }
      if (f.mode === 'monitor') {
        decision.monitor.push({ signal_filter_id: f.id, name: f.name, action: f.action, source });
        continue;
      }
      decision.filterAction = f.action;
      decision.source = source;
      break;
    }
    decisions.set(item.id, decision);
    done.push(item);
  }
  return decisions;
}
