// Dispatch databases for the importer's tests, on a real PostgreSQL: the server the run was given
// (DATABASE_URL), or a throw-away cluster of the test's own when the run is on the embedded database.
// The sample is Dispatch's own (../shared/reference/dispatch-sample-data.sql, or DISPATCH_SAMPLE).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createCluster, type Cluster } from './pg-cluster.ts';
import { withDatabaseName } from './db-url.ts';
import { freePort, ROOT } from './cli-helpers.ts';

/** psql of the newest PostgreSQL installed, else the one on the PATH. */
const PSQL =
  ['/usr/lib/postgresql']
    .filter(existsSync)
    .flatMap((root) => readdirSync(root).map((v) => join(root, v, 'bin', 'psql')))
    .filter(existsSync)
    .sort()
    .pop() ?? 'psql';

export const SAMPLE = process.env.DISPATCH_SAMPLE ?? join(ROOT, '..', 'shared', 'reference', 'dispatch-sample-data.sql');

export interface DispatchServer {
  /** A database on it holding a restored copy of `sql`, fresh for each call. */
  restore(name: string, sql: string): string;
  /** Runs more of a dump into a database made by restore. */
  restoreInto(url: string, sql: string): void;
  close(): void;
}

/** `server`: the PostgreSQL to use (default: the one the test project was given, if any). */
export async function dispatchServer(server?: string): Promise<DispatchServer> {
  let cluster: Cluster | undefined;
  let admin = server ?? inject('serverUrl');
  if (!admin) {
    cluster = createCluster(await freePort());
    admin = cluster.url;
  }
  const made: string[] = [];
  const psql = (url: string, args: string[], input?: string) =>
    execFileSync(PSQL, ['-X', '-q', '-v', 'ON_ERROR_STOP=0', '-d', url, ...args], { input, stdio: ['pipe', 'ignore', 'ignore'] });
  return {
    restore(name, sql) {
      const db = `dispatch_src_${name}_${process.pid}`;
      psql(admin, ['-c', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`, '-c', `CREATE DATABASE ${db}`]);
      made.push(db);
      const url = withDatabaseName(admin, db);
      psql(url, ['-f', '-'], sql);
      return url;
    },
    restoreInto: (url, sql) => psql(url, ['-f', '-'], sql),
    close() {
      if (cluster) cluster.destroy();
      else for (const db of made) psql(admin, ['-c', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`]);
    },
  };
}

export const sampleSql = () => {
  if (!existsSync(SAMPLE)) throw new Error(`Dispatch's sample database is not at ${SAMPLE} (set DISPATCH_SAMPLE)`);
  return readFileSync(SAMPLE, 'utf8');
};

/** Runs statements on a Dispatch database; returns the last one's rows. */
export async function onSource<T = Record<string, unknown>>(url: string, ...statements: string[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let rows: T[] = [];
    for (const s of statements) rows = (await client.query(s)).rows as T[];
    return rows;
  } finally {
    await client.end();
  }
}

/** What Dispatch's releases after the sample add to an organization schema, up to its last (2025-09-02). */
export function lastReleaseSchema(schema: string): string[] {
  const s = `"${schema}"`;
  return [
    `ALTER TABLE ${s}.tag_type ADD COLUMN genai_suggestions boolean`,
    `ALTER TABLE ${s}."case" ADD COLUMN stable_at timestamp`,
    `ALTER TABLE ${s}.incident_type ADD COLUMN generate_read_in_summary boolean`,
    `ALTER TABLE ${s}.case_type ADD COLUMN generate_read_in_summary boolean`,
    `ALTER TABLE ${s}.case_priority ADD COLUMN disable_delayed_message_warning boolean`,
    `CREATE TABLE ${s}.case_notes (id serial PRIMARY KEY, content text, case_id integer REFERENCES ${s}."case"(id), last_updated_by_id integer REFERENCES ${s}.individual_contact(id), created_at timestamp, updated_at timestamp)`,
    `CREATE TABLE ${s}.prompt (id serial PRIMARY KEY, genai_type integer, genai_prompt text, genai_system_message text, enabled boolean, project_id integer, created_at timestamp, updated_at timestamp)`,
    `ALTER TABLE ${s}."case" ADD COLUMN resolved_by_id integer REFERENCES dispatch_core.dispatch_user(id)`,
    `ALTER TABLE ${s}.project ADD COLUMN suggest_security_event_over_incident boolean`,
    `CREATE TABLE ${s}.canvas (id serial PRIMARY KEY, canvas_id varchar NOT NULL, incident_id integer, case_id integer, type varchar NOT NULL, created_at timestamp, updated_at timestamp)`,
    `UPDATE ${s}.alembic_version SET version_num = 'ff08d822ef2c'`,
  ];
}
