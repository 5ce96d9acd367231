// `muster server`: start, develop, routes, config, shell.
import cluster from 'node:cluster';
import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { ConfigError, describeSettings, loadSettings, readSettings, type Settings } from '../config.ts';
import { openReady } from '../app/bootstrap.ts';
import { loadPluginPackages } from '../plugins/registry.ts';
import { builtInUi, checkStaticDir } from '../server/static-files.ts';
import { formatTable } from './table.ts';
import { metricsMode } from '../lib/telemetry/metrics.ts';
import { clusterMetrics, type MetricsSource, serveMetrics } from '../server/observability/metrics-routes.ts';

// The application (every domain's routes) loads only for the commands that serve or list it.
const loadApp = () => import('../app/app.ts');

// The sources, also when this runs from their build in dist/ (which has the same depth).
const SRC_DIR = fileURLToPath(new URL('../../src', import.meta.url));
const BIN = resolve(SRC_DIR, '..', 'bin', 'muster.js');

interface StartOptions {
  host: string;
  port: number;
  uds?: string;
  fd?: number;
  reload?: boolean;
  reloadDir?: string[];
  workers: number;
  proxyHeaders?: boolean;
  logLevel?: string;
  /** Run the background job workers in this process (--no-jobs: an API-only node). */
  jobs: boolean;
  /** Run the periodic tasks in this process: by default on the embedded database only. */
  scheduler?: boolean;
  /** Hold the connections of Slack apps in Socket Mode (--no-slack-socket: leave them to other nodes). */
  slackSocket?: boolean;
  /** A built web UI to serve at / (MUSTER_STATIC_DIR). */
  staticDir?: string;
}

/** Set in the one worker of --workers that holds the Slack Socket Mode connections: one per node, not one per worker. */
const SLACK_SOCKET_HOLDER = 'MUSTER_SLACK_SOCKET_HOLDER';

const int = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a whole number: ${v}`);
  return n;
};
const collect = (v: string, prev: string[] = []) => [...prev, v];

/**
 * The settings with the command line's overrides: --log-level, --static-dir (checked here, before the
 * database is opened). Without a static directory, Muster's own web UI is served at /.
 */
function withOptions(settings: Settings, opts: Pick<StartOptions, 'logLevel' | 'staticDir' | 'proxyHeaders'>): Settings {
  const level = opts.logLevel?.toLowerCase();
  const staticDir = opts.staticDir ?? settings.staticDir ?? builtInUi();
  return {
    ...settings,
    ...(level ? { logLevel: level === 'warning' ? 'warn' : level } : {}),
    staticDir: staticDir ? checkStaticDir(staticDir) : undefined,
    // --proxy-headers without a list of proxies: the one proxy directly in front.
    ...(opts.proxyHeaders && !settings.trustedProxies ? { trustedProxies: '1' } : {}),
  };
}

/** Why the address cannot be listened on, in words an operator can act on. */
function listenFailure(err: NodeJS.ErrnoException, where: string): Error {
  switch (err.code) {
    case 'EADDRINUSE':
      return new Error(`${where} is already in use (another server is listening there); stop it or choose another with --port or --uds`);
    case 'EACCES':
      return new Error(`permission denied to listen on ${where} (ports below 1024 need privileges)`);
    case 'EADDRNOTAVAIL':
      return new Error(`cannot listen on ${where}: no such address on this machine (see --host)`);
    default:
      return new Error(`cannot listen on ${where}: ${err.message}`);
  }
}

/**
 * Checks that the address can be listened on (binds it and lets it go), so that a taken port fails
 * at once instead of after the database is created and upgraded. The server binds it again once it
 * is ready: meanwhile a client is refused rather than left waiting.
 */
async function checkAddress(opts: StartOptions): Promise<void> {
  if (opts.fd !== undefined) return;
  const probe = createNetServer();
  await new Promise<void>((ok, fail) => {
    probe.once('error', (err) => fail(listenFailure(err, addressOf(opts))));
    probe.listen(opts.uds ? { path: opts.uds } : { host: opts.host, port: opts.port }, ok);
  });
  await new Promise((r) => probe.close(r));
}

const addressOf = (opts: StartOptions) => (opts.uds ? `socket ${opts.uds}` : `port ${opts.port} on ${opts.host}`);

/** Serves the API in this process until SIGINT/SIGTERM, then drains (see server/drain.ts). */
async function serve(opts: StartOptions) {
  // First the address (in a worker of --workers the primary checked it), then the settings and
  // the database: a taken port fails before a data directory is created. Settings are read (and a
  // server's required secrets checked) before anything: that touches no disk.
  if (readSettings().databaseUrl) loadSettings();
  if (!cluster.isWorker) await checkAddress(opts);
  const settings = withOptions(loadSettings(), opts);
  const runsScheduler = opts.scheduler ?? !settings.databaseUrl;
  if (runsScheduler) (await import('../app/tasks.ts')).checkSchedulerSettings(settings);
  // Sign-in settings that cannot work (header sign-in without trusted proxies, an issuer without a client id) stop start-up here, before the database opens.
  (await loadApp()).checkSignInSettings(settings);
  await loadPluginPackages(settings.plugins);
  const database = await openReady(settings, (m) => console.log(m));
  const { API_PREFIX, buildApp } = await loadApp();
  const { drainable } = await import('../server/drain.ts');
  const app = await buildApp({ settings, database });
  const drainer = drainable(app.server);
  const jobs = opts.jobs ? await (await import('../app/jobs.ts')).startJobWorkers(database, settings, app.log) : undefined;
  // The embedded database is this process's alone, so it runs the schedule too unless told not to.
  const scheduler =
    (opts.scheduler ?? database.kind === 'embedded') ? (await import('../app/tasks.ts')).createScheduler(database, settings, app.log) : undefined;
  scheduler?.start();
  // Nothing else analyzes or vacuums the embedded database's tables (no autovacuum in PGlite).
  const upkeep = (await import('../db/embedded-upkeep.ts')).startUpkeep(database, { log: app.log });
  // Slack apps in Socket Mode: a process that runs jobs holds them, one per node (docs/chat.md).
  const holdsSockets = opts.jobs && opts.slackSocket !== false && (!cluster.isWorker || process.env[SLACK_SOCKET_HOLDER] === '1');
  const sockets = holdsSockets ? (await import('../chat/socket-mode.ts')).startSlackSockets({ db: database.db, settings }, app.log) : undefined;
  let where: string;
  try {
    if (opts.fd !== undefined) {
      await new Promise<void>((ok, fail) => app.server.once('error', fail).listen({ fd: opts.fd }, ok));
      where = `file descriptor ${opts.fd}`;
    } else if (opts.uds) {
      await app.listen({ path: opts.uds });
      where = `unix:${opts.uds}`;
    } else {
      await app.listen({ host: opts.host, port: opts.port });
      where = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${opts.port}${API_PREFIX}`;
    }
  } catch (err) {
    await app.close();
    await database.close();
    throw (err as NodeJS.ErrnoException).code ? listenFailure(err as NodeJS.ErrnoException, addressOf(opts)) : err;
  }
  const label = cluster.isWorker ? `worker ${process.pid}` : `pid ${process.pid}`;
  const metrics = metricsMode(settings);
  let metricsServer: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  // A cluster's primary serves the metrics port with every worker's figures.
  if (metrics.serve === 'port' && cluster.isWorker) clusterMetrics(false);
  else if (metrics.serve === 'port') metricsServer = await startMetricsServer(opts.host, metrics.port);
  if (settings.staticDir) {
    const at = where.endsWith(API_PREFIX) ? `${where.slice(0, -API_PREFIX.length)}/` : '/';
    console.log(`Serving the web UI in ${settings.staticDir} at ${at}`);
  }
  console.log(
    `Muster serving ${where} (${database.kind === 'embedded' ? `embedded database in ${settings.dataDir}` : 'PostgreSQL'}; ${label}; ${jobs ? 'running background jobs' : 'no background jobs'}; ${scheduler ? 'running the scheduler' : 'no scheduler'})`,
  );

  let stopping: NodeJS.Signals | undefined;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      // Ctrl-C a second time: stop now. (A repeated SIGTERM changes nothing: the drain is bounded.)
      if (signal === 'SIGINT' && stopping === 'SIGINT') {
        console.error(`${signal} again: stopping without waiting (${label})`);
        process.exit(1);
      }
      return;
    }
    stopping = signal;
    app.muster.readiness.stopping = true;
    const { connections } = drainer.stats();
    console.log(`${signal}: draining ${connections} connection(s) within ${settings.shutdownDelay + settings.shutdownTimeout} ms (${label})`);
    const forced = await drainer.drain({ delayMs: settings.shutdownDelay, timeoutMs: settings.shutdownTimeout });
    if (forced) console.error(`closed ${forced} connection(s) still busy after MUSTER_SHUTDOWN_TIMEOUT (${label})`);
    // A job still running past the timeout is left to run again on the next node that works it.
    await scheduler?.stop(Math.min(settings.shutdownTimeout, 10_000));
    await upkeep.stop();
    await sockets?.stop();
    await jobs?.stop(settings.shutdownTimeout);
    metricsServer?.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function startMetricsServer(host: string, port: number, read?: MetricsSource) {
  const server = await serveMetrics(host, port, read);
  console.log(`Metrics at http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`);
  return server;
}

/** Runs N worker processes sharing the port; the schema is brought up to date once, first. */
async function serveCluster(opts: StartOptions) {
  if (cluster.isWorker) return serve(opts);
  if (!readSettings().databaseUrl) {
    throw new Error('--workers needs DATABASE_URL: the embedded database is used by one process at a time');
  }
  const settings = withOptions(loadSettings(), opts);
  // The address is checked before the database is touched; the workers bind it through this process.
  await checkAddress(opts);
  await loadPluginPackages(settings.plugins);
  const metrics = metricsMode(settings);
  if (metrics.serve === 'api')
    throw new ConfigError('with --workers, MUSTER_METRICS must be a port number: on the API port each scrape would read a single worker');
  const database = await openReady(settings, (m) => console.log(m));
  await database.close();
  const metricsServer = metrics.serve === 'port' ? await startMetricsServer(opts.host, metrics.port, clusterMetrics(true)) : undefined;
  let stopping = false;
  // The first worker holds the Slack Socket Mode connections; the one started in its place does too.
  let holder: number | undefined;
  const fork = (holds: boolean) => {
    const worker = cluster.fork(holds ? { [SLACK_SOCKET_HOLDER]: '1' } : {});
    if (holds) holder = worker.id;
  };
  for (let i = 0; i < opts.workers; i++) fork(i === 0);
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    console.error(`worker ${worker.process.pid} exited (${code}); starting another`);
    fork(worker.id === holder);
  });
  const stop = () => {
    stopping = true;
    metricsServer?.close();
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Runs the server in a child process and restarts it when a file under the watched folders changes. */
function supervise(args: string[], dirs: string[]) {
  let child: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  const startChild = () => {
    child = spawn(process.execPath, [BIN, 'server', 'start', ...args], { stdio: 'inherit' });
  };
  const restart = (file: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      console.log(`${file} changed; restarting`);
      if (!child || child.exitCode !== null) return startChild();
      child.once('exit', startChild);
      child.kill('SIGTERM');
    }, 200);
  };
  for (const dir of dirs) watch(dir, { recursive: true }, (_e, file) => file && !String(file).includes('node_modules') && restart(join(dir, String(file))));
  startChild();
  const stop = () => {
    child?.kill('SIGTERM');
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function childArgs(opts: StartOptions): string[] {
  const args = ['--host', opts.host, '--port', String(opts.port)];
  if (opts.uds) args.push('--uds', opts.uds);
  if (opts.proxyHeaders) args.push('--proxy-headers');
  if (opts.logLevel) args.push('--log-level', opts.logLevel);
  if (!opts.jobs) args.push('--no-jobs');
  if (opts.scheduler !== undefined) args.push(opts.scheduler ? '--scheduler' : '--no-scheduler');
  if (opts.slackSocket === false) args.push('--no-slack-socket');
  if (opts.staticDir) args.push('--static-dir', resolve(opts.staticDir));
  return args;
}

function startOptions(cmd: Command) {
  return cmd
    .addOption(new Option('--host <host>', 'address to listen on').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port to listen on').default(8000).argParser(int))
    .option('--uds <path>', 'listen on this Unix domain socket instead')
    .addOption(new Option('--fd <fd>', 'listen on this inherited file descriptor instead').argParser(int))
    .option('--reload', 'restart when source files change')
    .addOption(new Option('--reload-dir <dir>', 'folder to watch with --reload (repeatable)').argParser(collect))
    .addOption(new Option('--workers <n>', 'worker processes (needs DATABASE_URL)').default(1).argParser(int))
    .option('--proxy-headers', 'trust X-Forwarded-* headers of the one proxy in front (MUSTER_TRUSTED_PROXIES names more hops or the proxies themselves)')
    .option('--no-jobs', 'do not run background job workers in this process (an API-only node)')
    .option('--scheduler', 'run the periodic tasks in this process (the default on the embedded database)')
    .option('--no-scheduler', 'do not run the periodic tasks in this process')
    .option('--no-slack-socket', 'do not hold the connections of Slack apps in Socket Mode in this process (leave them to other nodes)')
    .option('--log-level <level>', 'trace, debug, info, warn, error')
    .option('--static-dir <dir>', 'serve the built web UI in this directory at / (overrides MUSTER_STATIC_DIR)');
}

export function serverCommand(): Command {
  const server = new Command('server').description('Run and inspect the API server');

  startOptions(server.command('start').argument('[APP]', 'accepted for compatibility; Muster serves its own application'))
    .description('Start the API server')
    .action(async (_app: string | undefined, opts: StartOptions) => {
      if (opts.reload) return supervise(childArgs(opts), opts.reloadDir?.length ? opts.reloadDir.map((d) => resolve(d)) : [SRC_DIR]);
      if (opts.workers > 1) return serveCluster(opts);
      return serve(opts);
    });

  server
    .command('develop')
    .description('Start a development server that restarts on source changes')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(new Option('--port <port>', 'port to listen on').default(8000).argParser(int))
    .option('--log-level <level>', 'log level', 'debug')
    .action((opts: { host: string; port: number; logLevel: string }) => {
      supervise(childArgs({ ...opts, workers: 1, jobs: true }), [SRC_DIR]);
    });

  server
    .command('routes')
    .description('List every route the server answers')
    .action(async () => {
      const settings = { ...readSettings(), jwtSecret: 'routes', logLevel: 'error' };
      // No database: listing routes builds the app, and nothing registering a route touches `db`.
      const database = { kind: 'embedded', db: null, query: async () => [], close: async () => {} } as never;
      const { buildApp } = await loadApp();
      const app = await buildApp({ settings, database, logger: false });
      // One row per path, methods joined, parameters written {like_this} as in the API documents.
      const byPath = new Map<string, { authenticated: boolean; methods: string[] }>();
      for (const r of app.muster.routes) {
        const path = r.path.replace(/:(\w+)/g, '{$1}');
        const row = byPath.get(path) ?? { authenticated: false, methods: [] };
        row.authenticated ||= r.authenticated;
        row.methods.push(...r.methods);
        byPath.set(path, row);
      }
      const rows = [...byPath.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([path, r]) => [path, r.authenticated ? 'Yes' : 'No', r.methods.join(', ')]);
      console.log(formatTable(['Path', 'Authenticated', 'Methods'], rows));
      await app.close();
    });

  server
    .command('config')
    .description('Print the effective settings (environment, then .env, then defaults)')
    .action(() => {
      const rows = describeSettings(readSettings()).map((r) => [r.key, r.value]);
      console.log(formatTable(['Key', 'Value'], rows));
    });

  server
    .command('shell')
    .description('An interactive Node shell with the settings, the database and the services loaded')
    .action(async () => {
      const settings = loadSettings();
      const database = await openReady(settings);
      const services = {
        organizations: await import('../domains/organization/service.ts'),
        projects: await import('../domains/project/service.ts'),
        users: await import('../domains/auth/service.ts'),
      };
      const schema = await import('../app/schema.ts');
      console.log('In scope: settings, database, db, schema, services, sql');
      const { sql } = await import('drizzle-orm');
      // Loaded here only: node:repl loads node:domain, which makes every event emitter of the process
      // (each request's, each socket's) pay for domains on creation and on every event.
      const repl = await import('node:repl');
      const shell = repl.start({ prompt: 'muster> ' });
      Object.assign(shell.context, { settings, database, db: database.db, schema, services, sql });
      shell.on('exit', async () => {
        await database.close();
        process.exit(0);
      });
    });

  return server;
}
