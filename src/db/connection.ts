// One connection type for both databases: the embedded PGlite (a data directory, no set-up) and a
// PostgreSQL server reached through DATABASE_URL. Both speak the same SQL, so everything above this
// file is written once.
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Settings } from '../config.ts';

export type Db = NodePgDatabase;
/** A database handle or an open transaction: services accept either. */
export type Executor = PgDatabase<PgQueryResultHKT>;

export interface Database {
  kind: 'embedded' | 'postgres';
  db: Db;
  /** Runs one SQL statement (PGlite accepts one per call) and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** The embedded instance, for its dump tool. */
  pglite?: PGlite;
  /** Where a server connection points, for pg_dump. */
  url?: string;
  close(): Promise<void>;
}

// Timestamps come back as Date on both drivers; bigint counts as numbers (they stay far below 2^53).
pg.types.setTypeParser(20, (v) => Number(v));

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {
    /* an idle client lost its server; the pool replaces it on the next query */
  });
  // Fail now, with the server's message, rather than at the first request.
  const client = await pool.connect();
  client.release();
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool }),
    url,
    async query(text, params) {
      return (await pool.query(text, params as unknown[])).rows;
    },
    close: () => pool.end(),
  };
}

export async function openEmbedded(dataDir: string | undefined, loadDataDir?: Blob): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create({ dataDir: dataDir ? `${dataDir}/pgdata` : undefined, loadDataDir });
  return fromPglite(pglite);
}

export function fromPglite(pglite: PGlite): Database {
  return {
    kind: 'embedded',
    db: drizzlePglite({ client: pglite }) as unknown as Db,
    pglite,
    async query<T>(text: string, params?: unknown[]) {
      return (await pglite.query<T>(text, params)).rows;
    },
    close: () => pglite.close(),
  };
}

export function openDatabase(settings: Settings): Promise<Database> {
  return settings.databaseUrl ? openPostgres(settings.databaseUrl, settings.dbPoolSize) : openEmbedded(settings.dataDir);
}
