// Databases of a test run on the PostgreSQL server: their URLs, names and removal.
import { randomBytes } from 'node:crypto';
import { openPostgres } from '../src/db/connection.ts';

/** The same server URL pointing at another database. */
export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A name for a template database that is this test run's own: runs started at the same time on one
 * server (two checkouts, or two `vitest` commands) would otherwise drop each other's template mid-run.
 */
export function runDatabaseName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
}

/** Drops a database of this run's on the server at `url`. */
export async function dropDatabase(url: string, database: string): Promise<void> {
  const admin = await openPostgres(url, 1);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}
