// Nodes starting together against one new database would each create the job queue's schema and
// seed the default organization at the same moment (unique violations on pg_namespace, deadlocks).
// Start-up therefore holds one session-level advisory lock for its whole length, on a connection
// of its own: a pooled connection may be closed while idle, which would release the lock early.
// The embedded database belongs to one process and needs none.
import pg from 'pg';
import type { Database } from './connection.ts';

const STARTUP_LOCK = 7_357_114; // any constant, next to the migrations' own (db/migrate.ts)

/** Runs `work` while no other node runs its start-up against the same server database. */
export async function oneStartupAtATime<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.kind !== 'postgres' || !database.url) return work();
  const client = new pg.Client({ connectionString: database.url });
  client.on('error', () => {}); // a lost session has released the lock; `work` meets the outage itself
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
    return await work();
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => {});
  }
}
