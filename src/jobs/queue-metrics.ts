// The job queues' depth, age and failures for GET /metrics: read from pg-boss's table at each
// scrape, so every node reports the same figures whichever of them ran the jobs.
import type { Database } from '../db/connection.ts';
import { type QueueState, queueReaders } from '../lib/telemetry/metrics.ts';
import { JOB_SCHEMA } from './queue.ts';

const STATES = `SELECT name AS queue, state::text AS state, count(*)::int AS jobs,
    COALESCE(EXTRACT(EPOCH FROM now() - min(created_on)), 0)::float8 AS "oldestSeconds"
  FROM ${JOB_SCHEMA}.job WHERE state IN ('created', 'retry', 'active', 'failed') GROUP BY name, state`;

/** Reports the queues of `database` at each scrape until the returned function is called. */
export function watchQueues(database: Database): () => void {
  const read = () => database.query<QueueState>(STATES);
  queueReaders.add(read);
  return () => queueReaders.delete(read);
}
