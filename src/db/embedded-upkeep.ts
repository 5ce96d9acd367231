// What autovacuum does on a server, for the embedded database. PGlite runs PostgreSQL inside this
// process without its background workers, so nothing would ever ANALYZE or VACUUM a table: the
// planner would keep planning for the empty tables it saw when they were created (a case read then
// walks every case of the organization to find one case's related cases, slower with each case
// stored), and the rows the job queue updates would stay dead in its tables. Every period the tables
// past autovacuum's own thresholds are vacuumed or analyzed, one table per statement, each taking
// the one connection for as long as that table needs.
import type { Database } from './connection.ts';

export interface UpkeepLog {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** autovacuum's defaults: a table is analyzed past 50 + 10% of its rows changed, vacuumed past 50 + 20% dead (or 1,000 + 20% inserted). */
const DUE = `
SELECT format('%I.%I', s.schemaname, s.relname) AS name,
  (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) AS vacuum,
  (s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) OR (c.reltuples < 0 AND pg_relation_size(c.oid) > 0)) AS analyze
FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid`;

export interface UpkeepOptions {
  /** Milliseconds between checks (default 15 s; a check that finds nothing due reads one view). */
  periodMs?: number;
  log?: UpkeepLog;
}

/** Vacuums and analyzes the tables that need it now; returns what it did, table by table. */
export async function upkeep(database: Database, log?: UpkeepLog): Promise<{ table: string; did: string; ms: number }[]> {
  const due = await database.query<{ name: string; vacuum: boolean; analyze: boolean }>(DUE);
  const done: { table: string; did: string; ms: number }[] = [];
  for (const t of due) {
    // Tables never analyzed that hold rows count too: statistics are lost when the process ends without closing the database.
    const did = t.vacuum && t.analyze ? 'VACUUM (ANALYZE)' : t.vacuum ? 'VACUUM' : t.analyze ? 'ANALYZE' : undefined;
    if (!did) continue;
    const started = performance.now();
    try {
      await database.query(`${did} ${t.name}`);
    } catch (err) {
      log?.warn({ table: t.name, err: (err as Error).message }, 'embedded database upkeep failed');
      continue;
    }
    done.push({ table: t.name, did, ms: Math.round(performance.now() - started) });
  }
  if (done.length) log?.debug({ upkeep: done }, 'embedded database upkeep');
  return done;
}

/** Runs upkeep every period (the first soon after start) until stopped; only for the embedded database. */
export function startUpkeep(database: Database, opts: UpkeepOptions = {}): { stop(): Promise<void> } {
  if (database.kind !== 'embedded') return { stop: async () => {} };
  const period = opts.periodMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const run = () => {
    running = upkeep(database, opts.log)
      .catch((err) => opts.log?.warn({ err: (err as Error).message }, 'embedded database upkeep failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(run, period).unref();
      });
  };
  timer = setTimeout(run, Math.min(period, 5_000)).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
