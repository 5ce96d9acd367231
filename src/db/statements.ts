// Raw statements (sql`...`) that hot paths run many times a second. On PostgreSQL each runs as a
// named prepared statement, named after a hash of its text, so that every connection parses and
// plans it once instead of on every run (the texts are fixed; only parameters change); on the embedded
// database too, inside a transaction as outside (db/embedded-statements.ts). A statement whose SQL would otherwise be built on every request is built
// once for its shape, with placeholders, and run by `statementOf`.
import { createHash } from 'node:crypto';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Executor } from './connection.ts';
import { NamingSession } from './embedded-statements.ts';

/** The rows of a result, whichever driver produced it. */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];

interface Internals {
  session?: { client?: unknown };
  dialect?: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

// As drizzle's own raw statements: dates, times and intervals come back as PostgreSQL's text.
const AS_TEXT = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const types = {
  getTypeParser: (id: number, format?: string) => (AS_TEXT.has(id) ? (v: string) => v : pg.types.getTypeParser(id, format as 'text')),
};

const names = new Map<string, string>();
const NAMES_MAX = 5000;

/** The name a statement of this text is prepared under. */
export function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `muster_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (names.size >= NAMES_MAX) names.clear();
    names.set(text, name);
  }
  return name;
}

/** Runs `query` (prepared once per connection on PostgreSQL) and returns its rows. */
export async function runStatement<T = Record<string, unknown>>(db: Executor, query: SQL): Promise<T[]> {
  // A drizzle database or transaction over node-postgres holds the pool or the transaction's client.
  const { session, dialect } = db as unknown as Internals;
  const client = session?.client;
  if (dialect && (client instanceof pg.Pool || client instanceof pg.Client)) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const result = await (client as pg.Pool).query({ name: nameOf(text), text, values: params as unknown[], types } as pg.QueryConfig);
    return result.rows as T[];
  }
  // The embedded database's session runs a statement prepared with a name under that name.
  const embedded = session as unknown;
  if (dialect && embedded instanceof NamingSession) {
    const compiled = dialect.sqlToQuery(query);
    return rowsOf<T>(await embedded.prepareQuery(compiled, undefined, nameOf(compiled.sql), false).execute());
  }
  return rowsOf<T>(await db.execute(query));
}

/**
 * Runs SQL text with positional values on `db` (a handle or an open transaction) as a statement
 * prepared under a name of its text, with the driver's own type parsers: for fixed texts written by
 * a library (the job queue's), run inside the caller's transaction.
 */
export async function runText<T = Record<string, unknown>>(db: Executor, text: string, values: unknown[]): Promise<T[]> {
  const session = (db as unknown as Internals).session as unknown;
  const client = (session as Internals['session'])?.client;
  if (client instanceof pg.Pool || client instanceof pg.Client) return (await client.query({ name: nameOf(text), text, values })).rows as T[];
  if (session instanceof NamingSession) return (await session.runNamed(nameOf(text), text, values)).rows as T[];
  throw new Error('runText needs a database or transaction of the PostgreSQL or PGlite driver');
}

/** A statement built once, run with the values of its placeholders (`sql.placeholder(name)`). */
export type Statement<T> = (db: Executor, values: Record<string, unknown>) => Promise<T[]>;

interface Session {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string | undefined,
    arrayMode: boolean,
  ): { execute(values: Record<string, unknown>): Promise<unknown> };
}

/**
 * `query`, whose SQL is built once for its shape with placeholders for what changes per run, turned
 * into text on first use and then run as `runStatement` runs its statements (prepared once per
 * connection on PostgreSQL): no SQL is built on the request's path.
 */
export function statementOf<T = Record<string, unknown>>(query: SQL): Statement<T> {
  let compiled: { sql: string; params: unknown[] } | undefined;
  return async (db, values) => {
    const { session, dialect } = db as unknown as Internals & { session?: Session };
    compiled ??= dialect!.sqlToQuery(query);
    const client = (session as Internals['session'])?.client;
    if (client instanceof pg.Pool || client instanceof pg.Client) {
      const params = fillPlaceholders(compiled.params, values);
      const result = await (client as pg.Pool).query({ name: nameOf(compiled.sql), text: compiled.sql, values: params, types } as pg.QueryConfig);
      return result.rows as T[];
    }
    // The embedded database runs it under its name too (db/embedded-statements.ts).
    return rowsOf<T>(await session!.prepareQuery(compiled, undefined, nameOf(compiled.sql), false).execute(values));
  };
}
