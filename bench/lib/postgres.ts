// The PostgreSQL server of a benchmark: a throw-away cluster (initdb into a temporary directory,
// started with pg_ctl on a free port, stopped and deleted on exit), or an existing server named by
// BENCH_DATABASE_URL. Either way each benchmark works in databases of its own, made fresh per run.
import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { readConfig } from './config.ts';
import { onCleanup } from './cleanup.ts';
import { freePort, tail } from './servers.ts';

const exec = promisify(execFile);

export interface PostgresServer {
  /** URL of the server's `postgres` database, for administration. */
  url: string;
  /** Where it runs, for the report: "temporary cluster (PostgreSQL 15.x)" or the host. */
  label: string;
  version: string;
  stop(): Promise<void>;
}

/** The directory of initdb and pg_ctl: BENCH_PG_BIN, else the newest /usr/lib/postgresql/N/bin, else PATH. */
export function postgresBinDir(): string | undefined {
  if (process.env.BENCH_PG_BIN) return process.env.BENCH_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` OS user. */
function asPostgres(binDir: string | undefined, tool: string, args: string[]): [string, string[]] {
  const path = binDir ? join(binDir, tool) : tool;
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

async function runTool(binDir: string | undefined, tool: string, args: string[]) {
  const [cmd, argv] = asPostgres(binDir, tool, args);
  try {
    return await exec(cmd, argv, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as Error & { stderr?: string; stdout?: string };
    throw new Error(`${tool} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

/**
 * A new cluster in `dir` (which must not exist yet or be empty): initdb with trust auth, then
 * pg_ctl start on 127.0.0.1 and a free port, its socket in `dir`, fsync off. Superuser `postgres`.
 */
export async function startTempCluster(dir: string, binDir = postgresBinDir()): Promise<PostgresServer> {
  mkdirSync(dir, { recursive: true });
  if (isRoot()) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (owner.status !== 0) throw new Error('running as root needs the OS user "postgres" to run PostgreSQL');
    chownSync(dir, Number(owner.stdout.trim()), Number(gid.stdout.trim()));
  }
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const port = await freePort();

  let started = false;
  const pgCtlStop = (mode: 'fast' | 'immediate') => asPostgres(binDir, 'pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  const stop = async () => {
    if (started) {
      const [cmd, argv] = pgCtlStop('fast');
      await exec(cmd, argv).catch(() => undefined);
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const unregister = onCleanup('stop temporary PostgreSQL', stop, () => {
    if (started) {
      const [cmd, argv] = pgCtlStop('immediate');
      spawnSync(cmd, argv, { stdio: 'ignore' });
    }
    rmSync(dir, { recursive: true, force: true });
  });

  try {
    await runTool(binDir, 'initdb', ['-D', data, '--auth=trust', '--no-sync', '-U', 'postgres', '-E', 'UTF8', '--locale=C']);
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`;
    started = true; // from here on a stop is due even if start fails half-way
    await runTool(binDir, 'pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', '-t', '60', 'start']).catch((err: Error) => {
      throw new Error(`${err.message}\n${tail(log)}`);
    });
  } catch (err) {
    await unregister();
    throw err;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const version = await serverVersion(url);
  return { url, version, label: `temporary cluster, PostgreSQL ${version}, fsync off`, stop: unregister };
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return rows[0].v.split(' ')[0];
  } finally {
    await client.end();
  }
}

/** An existing server at `url`; nothing to start or stop. */
export async function existingServer(url: string): Promise<PostgresServer> {
  const version = await serverVersion(url);
  const u = new URL(url);
  return { url, version, label: `existing server ${u.hostname}:${u.port || 5432}, PostgreSQL ${version}`, stop: async () => {} };
}

/** BENCH_DATABASE_URL when set, else a temporary cluster in `dir` (deleted with it; unused otherwise). */
export function benchPostgres(dir: string): Promise<PostgresServer> {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    rmSync(dir, { recursive: true, force: true });
    return existingServer(url);
  }
  return startTempCluster(dir);
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database named `<prefix>_<random>`, dropped on cleanup. */
export async function createDatabase(server: PostgresServer, prefix: string): Promise<BenchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  // BENCH_KEEP_TEMP keeps the database too (on BENCH_DATABASE_URL's server), to look at what a run left.
  if (readConfig().keepTemp) {
    console.error(`[bench] keeping database ${name}`);
    return { name, url: withDatabase(server.url, name), drop: async () => {} };
  }
  const drop = onCleanup(`drop database ${name}`, () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  return { name, url: withDatabase(server.url, name), drop };
}
