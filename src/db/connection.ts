// One connection type for both databases: the embedded PGlite (a data directory, no set-up) and a
// PostgreSQL server reached through DATABASE_URL. Both speak the same SQL, so everything above this
// file is written once.
import type { PGlite, Results } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { type PgDatabase, type PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { type EmbeddedOptions, openPglite } from './embedded.ts';
import { drizzleEmbedded, NamingSession, runNamed } from './embedded-statements.ts';
import type { Settings } from '../config.ts';
import { pools, poolWaits, recordingMetrics } from '../lib/telemetry/metrics.ts';
import { tracedPglite } from './traced-pglite.ts';
import { statementSpan } from '../lib/telemetry/tracing.ts';

export type Db = NodePgDatabase;
/** A database handle or an open transaction: services accept either. */
export type Executor = PgDatabase<PgQueryResultHKT>;

/** Whether `db` is an open transaction, whose snapshot holds its own uncommitted changes, rather than the database. */
export const inTransaction = (db: object): boolean => db instanceof PgTransaction;

/** Whether `db` (or a transaction of it) is the embedded database, whose one connection runs every statement in turn. */
export const onEmbedded = (db: Executor): boolean => (db as unknown as { session?: unknown }).session instanceof NamingSession;

/**
 * What a query prepared with a name on `db` (drizzle's `.prepare(name)`) is bound to, so that it can
 * be prepared once for each and not once per handle: a transaction on a server is bound to its
 * client, which the pool lends to one transaction after another; on the embedded database every
 * transaction runs its named statements alike (NamingSession.home).
 */
export function statementHome(db: Executor): object {
  const session = (db as unknown as { session: unknown }).session;
  return session instanceof NamingSession ? session.home : (session as { client: object }).client;
}

export interface Database {
  kind: 'embedded' | 'postgres';
  db: Db;
  /**
   * Runs one SQL statement (PGlite accepts one per call) and returns its rows; with `name`, as a
   * statement prepared under that name, parsed and planned once per connection.
   */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<T[]>;
  /** The embedded instance, for its dump tool. */
  pglite?: PGlite;
  /** Where a server connection points, for pg_dump. */
  url?: string;
  close(): Promise<void>;
}

// Timestamps come back as Date on both drivers; bigint counts as numbers (they stay far below 2^53).
pg.types.setTypeParser(20, (v) => Number(v));

/** Bounds on what the server may make Muster wait for, in milliseconds (0: no bound). */
export interface PgTimeouts {
  /** Opening a connection, or waiting for a free one in the pool. */
  connect: number;
  /** One statement (PostgreSQL cancels it: 57014); the client also gives up on a server that does not answer at all. */
  statement: number;
  /** A transaction left open between statements (PostgreSQL ends the session: 25P03). */
  idleInTransaction: number;
}

export const DEFAULT_PG_TIMEOUTS: PgTimeouts = { connect: 10_000, statement: 30_000, idleInTransaction: 60_000 };

/** The timeouts the settings give; `maintenance` (migrations, restores) keeps only the connect timeout. */
export function pgTimeouts(settings: Settings, maintenance = false): PgTimeouts {
  const connect = settings.dbConnectTimeout;
  return maintenance
    ? { connect, statement: 0, idleInTransaction: 0 }
    : { connect, statement: settings.dbStatementTimeout, idleInTransaction: settings.dbIdleInTransactionTimeout };
}

/** Where a URL points, without its password: `host:port/database`. */
export function describeServer(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get('host') || 'localhost';
    return `${host}:${u.port || 5432}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    return 'the server in DATABASE_URL';
  }
}

/** A database that cannot be opened: the message names where and why. */
export class DatabaseOpenError extends Error {}

/**
 * A pg client that gives up on a server that does not answer a statement at all (a frozen host, a
 * dropped network), past the time PostgreSQL itself would have cancelled it: the connection is
 * destroyed, so the pool replaces it instead of queueing the next statement behind the lost one.
 */
function clientClass(): typeof pg.Client {
  return class BoundedClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query() has many overloads; this passes them all through.
    query(...args: any[]): any {
      const first = args[0] as string | { text?: string } | undefined;
      const traced = statementSpan(typeof first === 'string' ? first : (first?.text ?? ''));
      const lost = (err: unknown) => {
        traced?.(err);
        if ((err as Error | undefined)?.message === 'Query read timeout')
          (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      };
      const i = args.findIndex((a) => typeof a === 'function');
      if (i >= 0) {
        const cb = args[i];
        args[i] = (err: unknown, res: unknown) => {
          lost(err);
          cb(err, res);
        };
        return super.query(...(args as [never]));
      }
      const out = super.query(...(args as [never])) as unknown;
      if (out && typeof (out as Promise<unknown>).then === 'function') {
        return (out as Promise<unknown>).then(
          (res) => {
            traced?.();
            return res;
          },
          (err) => {
            lost(err);
            throw err;
          },
        );
      }
      // A submittable (a cursor, a stream) ends on its own events.
      traced?.();
      return out;
    }
  } as unknown as typeof pg.Client;
}

/** Why a connection could not be opened, in words an operator can act on. */
export function connectFailure(err: unknown, url: string, timeouts: Pick<PgTimeouts, 'connect'>): DatabaseOpenError {
  const e = err as { code?: string; message?: string };
  const where = `PostgreSQL at ${describeServer(url)}`;
  let cause: string;
  const message = e?.message ?? String(err);
  if (/connection timeout|timeout expired|timeout exceeded/i.test(message)) cause = `no answer within ${timeouts.connect} ms (MUSTER_DB_CONNECT_TIMEOUT)`;
  else if (e?.code === 'ECONNREFUSED') cause = 'connection refused (is the server running and listening there?)';
  else if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') cause = 'host name not found';
  else if (e?.code === 'ECONNRESET' || /terminated/i.test(message)) cause = 'the server closed the connection';
  else cause = message;
  return new DatabaseOpenError(`cannot connect to ${where}: ${cause}`);
}

/**
 * The session's settings: the URL's own `options`, JIT compilation off and generic plans for
 * prepared statements. Muster's statements are short; JIT pays off only for long analytic queries,
 * yet PostgreSQL's cost threshold sends a large read (a dashboard's 3,000 records) to a compilation
 * that takes seconds. Its prepared statements are its reads by id (crud/reader.ts): planned once,
 * where PostgreSQL would otherwise plan such a statement anew at every run whenever the plan for
 * the run's own values looks cheaper than the generic one (as for one id in an array of ids).
 */
function sessionOptions(url: string): string {
  let own = '';
  try {
    own = new URL(url).searchParams.get('options') ?? '';
  } catch {
    /* not a URL pg parses with options */
  }
  return `${own} -c jit=off -c plan_cache_mode=force_generic_plan`.trim();
}

export async function openPostgres(url: string, poolSize = 10, timeouts: PgTimeouts = DEFAULT_PG_TIMEOUTS): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: timeouts.connect || undefined,
    // Sent in the start-up packet; PostgreSQL applies them to every statement of the session.
    statement_timeout: timeouts.statement || undefined,
    idle_in_transaction_session_timeout: timeouts.idleInTransaction || undefined,
    options: sessionOptions(url),
    // A peer that vanished is noticed on idle connections too.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // The client's own bound, past the server's: for a server that does not answer at all.
    query_timeout: timeouts.statement ? timeouts.statement + Math.max(timeouts.connect, 5_000) : undefined,
    Client: clientClass(),
  });
  pool.on('error', () => {
    /* an idle client lost its server; the pool replaces it on the next query */
  });
  // A client lost while checked out (its session ended between two statements of a transaction:
  // an idle-in-transaction timeout, a server shutdown) emits 'error' with no listener of the pool's
  // attached, which would end the process. Its next statement fails instead, and the pool drops it.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  timeWaits(pool);
  const state = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  // Fail now, naming the server and the cause, rather than at the first request.
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw connectFailure(err, url, timeouts);
  }
  pools.add(state);
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool }),
    url,
    async query(text, params, name) {
      return (await pool.query({ name, text, values: params as unknown[] })).rows;
    },
    close: () => {
      pools.delete(state);
      return pool.end();
    },
  };
}

/** Times every wait for a connection of the pool (each statement outside a transaction, each transaction). */
function timeWaits(pool: pg.Pool) {
  const connect = pool.connect.bind(pool) as (cb: (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void) => void;
  type Callback = Parameters<typeof connect>[0];
  const timed = (cb: Callback) => {
    const end = recordingMetrics() ? poolWaits.startTimer() : undefined;
    connect((err, client, done) => {
      end?.();
      cb(err, client, done);
    });
  };
  // pg's own query() and connect() both come here with a callback; connect() without one wants a promise.
  pool.connect = ((cb?: Callback) => {
    if (cb) return timed(cb);
    return new Promise((resolve, reject) => timed((err, client) => (err ? reject(err) : resolve(client!))));
  }) as typeof pool.connect;
}

export async function openEmbedded(dataDir: string | undefined, loadDataDir?: Blob, opts: Omit<EmbeddedOptions, 'loadDataDir'> = {}): Promise<Database> {
  const { pglite, release } = await openPglite(dataDir, { ...opts, loadDataDir });
  const database = fromPglite(pglite);
  return {
    ...database,
    async close() {
      try {
        await database.close();
      } finally {
        release();
      }
    },
  };
}

export function fromPglite(pglite: PGlite): Database {
  return {
    kind: 'embedded',
    db: drizzleEmbedded(tracedPglite(pglite)) as unknown as Db,
    pglite,
    async query<T>(text: string, params?: unknown[], name?: string) {
      return ((name ? await runNamed(pglite, name, text, params ?? []) : await pglite.query<T>(text, params)) as Results<T>).rows;
    },
    close: () => pglite.close(),
  };
}

/**
 * The configured database. `maintenance` (schema changes, restores, the start-up upgrade) runs
 * without statement timeouts: a migration may rightly take longer than any API statement.
 */
export function openDatabase(settings: Settings, opts: { maintenance?: boolean } = {}): Promise<Database> {
  return settings.databaseUrl
    ? openPostgres(settings.databaseUrl, opts.maintenance ? 2 : settings.dbPoolSize, pgTimeouts(settings, opts.maintenance))
    : openEmbedded(settings.dataDir);
}
