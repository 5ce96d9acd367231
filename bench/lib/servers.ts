// Servers under test run as child processes, so the load generator never shares their event loop.
// Each gets a free port, a log file, a readiness wait on an HTTP path, and a registered teardown.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { onCleanup } from './cleanup.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUN_TS = join(REPO_ROOT, 'bin', 'run-ts.js');
const MUSTER_BIN = join(REPO_ROOT, 'bin', 'muster.js');

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', fail);
    srv.listen({ host, port: 0 }, () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

export interface ServerProcess {
  name: string;
  /** http://127.0.0.1:PORT, without a trailing slash. */
  origin: string;
  port: number;
  pid: number;
  logFile: string;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
  stop(): Promise<void>;
}

export interface SpawnServerOptions {
  name: string;
  command: string;
  args: string[];
  port: number;
  /** Path answered with a 2xx once the server is ready, e.g. /healthcheck. */
  readyPath: string;
  /** Variables added to (or, when undefined, removed from) this process's environment. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  logDir: string;
  /** Opens an IPC channel, so a child that watches for 'disconnect' dies with the benchmark. */
  ipc?: boolean;
  readyTimeoutMs?: number;
}

/** The last lines of a log file, for error messages. */
export function tail(file: string, lines = 30): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => child.once('exit', () => ok()));
}

/** Starts a server process and waits until `readyPath` answers 2xx. */
export async function spawnServer(opts: SpawnServerOptions): Promise<ServerProcess> {
  mkdirSync(opts.logDir, { recursive: true });
  const logFile = join(opts.logDir, `${opts.name}.log`);
  const fd = openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = spawn(opts.command, opts.args, {
    cwd: opts.cwd ?? REPO_ROOT,
    env,
    stdio: opts.ipc ? ['ignore', fd, fd, 'ipc'] : ['ignore', fd, fd],
  });
  closeSync(fd);
  const origin = `http://127.0.0.1:${opts.port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited(child);
    clearTimeout(timer);
  };
  const unregister = onCleanup(`stop ${opts.name}`, stop, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (spawnError || child.exitCode !== null || child.signalCode !== null) {
      await unregister();
      const why = spawnError ? spawnError.message : `exited with ${child.exitCode ?? child.signalCode}`;
      throw new Error(`${opts.name} ${why} before it was ready. Log ${logFile}:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(origin + opts.readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await unregister();
      throw new Error(`${opts.name} was not ready at ${origin}${opts.readyPath} in time. Log ${logFile}:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name: opts.name, origin, port: opts.port, pid: child.pid!, logFile, stop: unregister };
}

/** Runs a TypeScript entry point (a baseline server) under the repository's loader. */
export async function startTsServer(name: string, entry: string, opts: { logDir: string; env?: Record<string, string | undefined>; readyPath?: string }) {
  const port = await freePort();
  return spawnServer({
    name,
    command: process.execPath,
    args: [RUN_TS, resolve(REPO_ROOT, entry)],
    port,
    readyPath: opts.readyPath ?? '/healthcheck',
    env: { ...opts.env, PORT: String(port) },
    logDir: opts.logDir,
    ipc: true,
  });
}

export interface MusterProcess extends ServerProcess {
  /** http://127.0.0.1:PORT/api/v1 */
  api: string;
}

export interface MusterOptions {
  name: string;
  /** PostgreSQL URL; omitted: the embedded database in `dataDir`. */
  databaseUrl?: string;
  /** Data directory (also the working directory, so no `.env` of the checkout leaks in). */
  dataDir: string;
  logDir: string;
  logLevel?: string;
  /** More settings, e.g. MUSTER_DB_POOL_SIZE. */
  env?: Record<string, string | undefined>;
}

/** `muster server start` on a free port, against PostgreSQL or the embedded database. */
export async function startMuster(opts: MusterOptions): Promise<MusterProcess> {
  mkdirSync(opts.dataDir, { recursive: true });
  const port = await freePort();
  const secret = () => randomBytes(32).toString('base64url');
  const server = await spawnServer({
    name: opts.name,
    command: process.execPath,
    // BENCH_MUSTER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles Muster (only) under load.
    args: [
      ...(process.env.BENCH_MUSTER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      MUSTER_BIN,
      'server',
      'start',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    port,
    readyPath: '/api/v1/healthcheck',
    // The embedded database migrates inside the server's process: minutes on a busy machine.
    readyTimeoutMs: opts.databaseUrl ? undefined : 300_000,
    cwd: opts.dataDir,
    env: {
      DATABASE_URL: opts.databaseUrl,
      MUSTER_DATA_DIR: opts.dataDir,
      MUSTER_JWT_SECRET: opts.databaseUrl ? secret() : undefined,
      MUSTER_ENCRYPTION_KEY: opts.databaseUrl ? secret() : undefined,
      LOG_LEVEL: opts.logLevel ?? 'warn',
      ...opts.env,
    },
    logDir: opts.logDir,
  });
  return { ...server, api: `${server.origin}/api/v1` };
}
