// End-to-end helpers for the `muster` program: run it as a child process in a temporary working
// directory against a temporary embedded data directory or a fresh database on the PostgreSQL
// server named by DATABASE_URL, start `muster server start` on a free port, and call it over HTTP.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { openEmbedded } from '../src/db/connection.ts';
import { withDatabaseName } from './db-url.ts';
import { TEST_PASSWORD_COST } from './password-cost.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(ROOT, 'bin', 'muster.js');
/** Runs a TypeScript entry point (a test fixture process) through the binary's loader. */
export const BIN_TS = join(ROOT, 'bin', 'run-ts.js');

/** Secrets a server-backed `muster` needs; any value serves a test. */
export const SERVER_SECRETS = { MUSTER_JWT_SECRET: 'cli-test-jwt-secret', MUSTER_ENCRYPTION_KEY: 'cli-test-encryption-key' };

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  bin?: string;
  timeoutMs?: number;
  /** Run as this user and group (a test running as root checking what an ordinary user meets). */
  uid?: number;
  gid?: number;
}

/**
 * The environment of a child `muster`: this process's, without any Muster setting or database URL
 * (the test run itself may have DATABASE_URL set), plus the tests' password cost and the given variables.
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === 'DATABASE_URL' || k === 'LOG_LEVEL' || k.startsWith('MUSTER_')) continue;
    env[k] = v;
  }
  env.MUSTER_PASSWORD_COST = String(TEST_PASSWORD_COST);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/**
 * Node options of a command run to completion: V8's baseline WebAssembly compiler only. Such a
 * command on the embedded database lives a second or two, and optimising PGlite's code as it warms
 * up (on threads of its own) costs it more CPU than the faster code saves: `token list` 2.2 CPU-s
 * against 1.4, `database init` 11.5 against 9.0 (Node 24). Servers keep V8's defaults.
 */
const COMMAND_NODE_OPTIONS = ['--liftoff-only'];

/** Runs `muster ARGS...` to completion with stdin closed (not a TTY). */
export function muster(args: string[], opts: RunOptions): Promise<RunResult> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [...COMMAND_NODE_OPTIONS, opts.bin ?? BIN, ...args], {
      cwd: opts.cwd,
      env: childEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      uid: opts.uid,
      gid: opts.gid,
    });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 150_000);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      ok({ code, signal, stdout, stderr });
    });
  });
}

/** Like `muster`, but fails with the program's output when it exits non-zero. */
export async function musterOk(args: string[], opts: RunOptions): Promise<RunResult> {
  const r = await muster(args, opts);
  if (r.code !== 0) throw new Error(`muster ${args.join(' ')} exited ${r.code ?? r.signal}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  return r;
}

export function tempDir(prefix = 'muster-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The PostgreSQL server, when DATABASE_URL names one that answers.

async function reachable(url: string | undefined): Promise<string | undefined> {
  if (!url) return undefined;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The admin URL of the PostgreSQL server the server half of the tests uses, if one answers. */
export const SERVER_URL = await reachable(process.env.DATABASE_URL);

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Targets: where a `muster` process keeps its data.

export type Query = <T = Record<string, unknown>>(text: string) => Promise<T[]>;

export interface Target {
  kind: 'embedded' | 'postgres';
  /** Environment naming the database (plus the secrets a server needs). */
  env: Record<string, string>;
  /** Runs one statement on the database, from this process (no `muster` may be running on an embedded one). */
  query<T = Record<string, unknown>>(text: string): Promise<T[]>;
  /** Runs fn with one connection (an embedded database is opened once for all its queries). */
  connected<T>(fn: (query: Query) => Promise<T>): Promise<T>;
  /** Names of the tables in schema public, and the applied revisions (none without the table). */
  state(): Promise<{ tables: string[]; applied: string[] }>;
  cleanup(): Promise<void>;
}

/** How a target starts: empty (as a new install finds it), or as `muster database init` leaves it. */
export interface TargetOptions {
  migrated?: boolean;
}

/** A fresh embedded data directory, its cluster copied from the run's empty (or migrated) one when there is one. */

export function embeddedTarget({ migrated = false }: TargetOptions = {}): Target {
  const dir = tempDir('muster-cli-data-');
  const cluster = inject(migrated ? 'migratedCluster' : 'emptyCluster');
  if (cluster) cpSync(cluster, join(dir, 'pgdata'), { recursive: true });
  const target: Target = {
    kind: 'embedded',
    env: { MUSTER_DATA_DIR: dir },
    query: (text) => target.connected((q) => q(text)),
    async connected(fn) {
      const db = await openEmbedded(dir);
      try {
        return await fn((text) => db.query(text));
      } finally {
        await db.close();
      }
    },
    state: () => stateOf(target),
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return target;
}

/** A fresh, empty database with a random name on the PostgreSQL server; dropped by cleanup(). */
export async function postgresTarget({ migrated = false }: TargetOptions = {}): Promise<Target> {
  if (!SERVER_URL) throw new Error('no PostgreSQL server (DATABASE_URL) is reachable');
  const name = `muster_cli_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(migrated ? `CREATE DATABASE ${name} TEMPLATE ${inject('migratedTemplate')}` : `CREATE DATABASE ${name}`));
  const url = withDatabaseName(SERVER_URL, name);
  const target: Target = {
    kind: 'postgres',
    env: { DATABASE_URL: url, ...SERVER_SECRETS },
    query: (text) => target.connected((q) => q(text)),
    async connected(fn) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await fn(async (text) => (await client.query(text)).rows);
      } finally {
        await client.end();
      }
    },
    state: () => stateOf(target),
    async cleanup() {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
  return target;
}

async function stateOf(t: Target): Promise<{ tables: string[]; applied: string[] }> {
  return t.connected(async (q) => {
    const tables = (await q<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`)).map(
      (r) => r.table_name,
    );
    const applied = tables.includes('muster_revision')
      ? (await q<{ version_num: string }>('SELECT version_num FROM muster_revision ORDER BY 1')).map((r) => r.version_num)
      : [];
    return { tables, applied };
  });
}

// ---------------------------------------------------------------------------------------------
// A running `muster server start`.

export interface RunningServer {
  port: number;
  base: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<RunResult>;
}

const running = new Set<ChildProcess>();
// A test process that ends early (a failed hook, a timeout) leaves no server behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills every server a test left running (call from afterAll). */
export async function stopAllServers() {
  await Promise.all([...running].map((c) => stopChild(c)));
}

function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) return ok();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('close', () => {
      clearTimeout(timer);
      ok();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `muster server start --port P EXTRA...` and waits until its healthcheck answers. Fails
 * with the server's output when it exits or does not answer in time.
 */
export async function startServer(opts: RunOptions & { args?: string[]; port?: number; readyWhen?: (output: string) => boolean }): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const args = ['server', 'start', '--port', String(port), '--log-level', 'warn', ...(opts.args ?? [])];
  const child = spawn(process.execPath, [opts.bin ?? BIN, ...args], { cwd: opts.cwd, env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<RunResult>((ok) =>
    child.on('close', (code, signal) => {
      running.delete(child);
      ok({ code, signal, stdout, stderr });
    }),
  );
  const base = `http://127.0.0.1:${port}/api/v1`;
  const output = () => `--- stdout\n${stdout}\n--- stderr\n${stderr}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 150_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await closed;
      throw new Error(`muster ${args.join(' ')} exited ${child.exitCode ?? child.signalCode} before serving\n${output()}`);
    }
    const res = await fetch(`${base}/healthcheck`).catch(() => undefined);
    if (res?.status === 200 && (!opts.readyWhen || opts.readyWhen(stdout))) break;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`muster ${args.join(' ')} did not answer on port ${port} in time\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    base,
    child,
    output,
    async stop() {
      await stopChild(child);
      return closed;
    },
  };
}

export interface HttpResult<T = any> {
  status: number;
  body: T;
}

/** Calls the API of a running server, JSON in and out. */
export async function http<T = any>(base: string, method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: body as T };
}

// ---------------------------------------------------------------------------------------------
// A throw-away copy of the project, for commands that write into src/db/revisions.

/** Whether dist/ holds a current build of src/ (bin/built.js), which `muster` then runs. */
const { builtModule } = (await import(pathToFileURL(join(ROOT, 'bin', 'built.js')).href)) as { builtModule(name: string): string | undefined };
const DIST_CURRENT = builtModule('cli/main') !== undefined;

export interface ProjectCopy {
  dir: string;
  bin: string;
  revisionsDir: string;
  /** Builds the copy's dist/ again (npm run build), so that its `muster` runs an edited source from the build. */
  build(): void;
  cleanup(): void;
}

export function copyProject(): ProjectCopy {
  const dir = tempDir('muster-cli-project-');
  // A current dist/ comes along, copied last so that it is newer than the copied sources: the copy
  // then runs JavaScript until a test edits a source.
  for (const name of ['bin', 'src', 'package.json', 'tsconfig.json', ...(DIST_CURRENT ? ['dist'] : [])]) {
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return {
    dir,
    bin: join(dir, 'bin', 'muster.js'),
    revisionsDir: join(dir, 'src', 'db', 'revisions'),
    build: () => execFileSync(process.execPath, [join(dir, 'bin', 'build.js')], { cwd: dir, stdio: 'inherit' }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
