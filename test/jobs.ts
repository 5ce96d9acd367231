// Running the background jobs of a test's database: the real workers (app/jobs.ts) started on it,
// until every job enqueued so far (and every job those enqueue) has finished or failed for good.
import type { Settings } from '../src/config.ts';
import type { Database } from '../src/db/connection.ts';
import { startJobWorkers } from '../src/app/jobs.ts';
import { listJobs } from '../src/jobs/admin.ts';

const quiet = { info() {}, warn() {}, error() {} };

/** Jobs not finished yet: waiting, retrying (their delay not yet passed included) or running. */
async function pending(database: Database): Promise<number> {
  const [row] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active')`);
  return row.n;
}

/**
 * Works the queues until nothing is pending (or `timeoutMs` passes: then throws, naming what is
 * left; the default is generous because a busy CI machine runs the jobs several times slower).
 * Retries wait their delay, so a test that expects retries passes short queues or a longer timeout,
 * or `retryNow`: every retry runs as soon as it is due to wait (a job that must fail for good gets
 * there without waiting out its back-off; a Retry-After is not honoured then).
 */
export async function drainJobs(database: Database, settings: Settings, timeoutMs = 60_000, opts: { retryNow?: boolean } = {}): Promise<void> {
  const queue = await startJobWorkers(database, settings, process.env.TEST_LOG ? console : (quiet as never), {
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
  });
  try {
    const until = Date.now() + timeoutMs;
    while ((await pending(database)) > 0) {
      if (opts.retryNow) await database.query(`UPDATE pgboss.job SET start_after = now() WHERE state = 'retry' AND start_after > now()`);
      if (Date.now() > until) {
        const left = (await listJobs(database, { limit: 20 })).filter((j) => ['created', 'retry', 'active'].includes(j.state));
        throw new Error(`jobs still pending after ${timeoutMs} ms: ${left.map((j) => `${j.name} ${j.state} (${JSON.stringify(j.output)})`).join('; ')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await queue.stop(2_000);
  }
}
