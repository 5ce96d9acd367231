// `npm run bench`: Muster's API under load, on PostgreSQL and on the embedded database, each
// scenario reported beside two baselines measured in the same run on the same machine:
//   A: a bare Fastify route answering a constant JSON object;
//   B: a bare Fastify route doing one primary-key SELECT through `pg` on the same PostgreSQL server.
// The scenarios come in suites (suites/): each suite runs on a fresh Muster and database per
// database kind, seeded over HTTP, and states its own goals.
//
// Env: BENCH_SUITE=foundation|records|incidents|cases|search|signals|memory|all (all: foundation and
// records), BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (10),
// BENCH_INGEST_CONNECTIONS (50), BENCH_MEMORY_MINUTES (5), BENCH_UI_MAX_PAGE (0: all pages),
// BENCH_ONLY=postgres|embedded, BENCH_DATABASE_URL (existing server instead of a temporary
// cluster), BENCH_PG_BIN, BENCH_LOG_LEVEL (warn), BENCH_KEEP_TEMP=1, MUSTER_DB_POOL_SIZE (10).
// See bench/README.md.
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupAll, installSignalHandlers, onCleanup } from './lib/cleanup.ts';
import { readConfig, type DatabaseKind } from './lib/config.ts';
import { runScenario, stopLoad, type LoadOptions, type Scenario, type ScenarioResult } from './lib/load.ts';
import { openSession } from './lib/muster.ts';
import { databaseCpu } from './lib/database-cpu.ts';
import { benchPostgres, createDatabase, type PostgresServer } from './lib/postgres.ts';
import { problems, resultTable, type Baseline, type GoalCheck } from './lib/report.ts';
import { startMuster, startTsServer, type MusterProcess } from './lib/servers.ts';
import type { Suite } from './lib/suite.ts';
import { selectSuites } from './suites/index.ts';

// Seeding slower than this is called out in the report.
const SLOW_SEED_SECONDS = 120;

const progress = (msg: string) => console.error(`[bench] ${msg}`);

/**
 * A line when this Node is not one Muster supports (package.json's engines): Muster runs on the
 * bench's Node, and spends more CPU per request on Node 20 and 22 than on 24 and 26
 * (docs/deployment.md, "Which Node"), so such figures are not what a deployment sees.
 */
function unsupportedNode(): string | undefined {
  const engines: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
  const majors = [...engines.matchAll(/\^(\d+)/g)].map((m) => m[1]);
  const major = process.versions.node.split('.')[0];
  if (!majors.includes(major))
    return `  ! Node ${process.version} is not one Muster supports (engines: ${engines}); Muster spends more CPU on it than on 24 or 26`;
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function measure(scenario: Scenario, opts: LoadOptions, where: string): Promise<ScenarioResult> {
  const rate = scenario.rate ? ` at ${scenario.rate}/s` : '';
  const beside = scenario.background?.length ? `, beside ${scenario.background.map((b) => `${b.name} at ${b.rate}/s`).join(', ')}` : '';
  progress(
    `${where}: ${scenario.name}${rate} (${opts.warmup ? `${opts.warmup}s warm-up + ` : ''}${scenario.duration ?? opts.duration}s, ${scenario.connections ?? opts.connections} connections${beside})`,
  );
  return runScenario(scenario, opts);
}

interface Env {
  config: ReturnType<typeof readConfig>;
  opts: LoadOptions;
  postgres: PostgresServer;
  work: string;
  logDir: string;
  baselines: Scenario[];
}

/** A Muster of its own for one suite on one database kind; `done` stops it and deletes its data. */
async function freshMuster(env: Env, suite: Suite, kind: DatabaseKind): Promise<{ muster: MusterProcess; databaseUrl?: string; done: () => Promise<void> }> {
  const { config, logDir } = env;
  const name = `muster-${suite.name}-${kind}`;
  const dataDir = join(env.work, name);
  if (kind === 'embedded') {
    const muster = await startMuster({ name, dataDir, logDir, logLevel: config.logLevel });
    return {
      muster,
      done: async () => {
        await muster.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const db = await createDatabase(env.postgres, 'muster_bench');
  const muster = await startMuster({
    name,
    databaseUrl: db.url,
    dataDir,
    logDir,
    logLevel: config.logLevel,
    env: { MUSTER_DB_POOL_SIZE: String(config.poolSize) },
  });
  return {
    muster,
    databaseUrl: db.url,
    done: async () => {
      await muster.stop();
      await db.drop();
    },
  };
}

/** Seeds, measures baselines and scenarios, prints the table; returns the goals and whether requests failed. */
async function runSuite(env: Env, suite: Suite, kind: DatabaseKind): Promise<{ goals: GoalCheck[]; failed: boolean }> {
  const where = `${suite.name}/${kind}`;
  progress(`${where}: starting Muster`);
  const { muster, databaseUrl, done } = await freshMuster(env, suite, kind);
  const session = await openSession(muster.api);
  progress(`${where}: seeding`);
  const started = performance.now();
  const seeded = await suite.seed(session, { kind, databaseUrl, progress: (msg) => progress(`${where}: ${msg}`) });
  const seconds = (performance.now() - started) / 1000;

  // Baselines right before the scenarios they are compared with, so drift between tables cancels out.
  const [a, b] = [await measure(env.baselines[0], env.opts, where), await measure(env.baselines[1], env.opts, where)];
  const baselines: Baseline[] = [
    { key: 'A', result: a },
    { key: 'B', result: b },
  ];
  const results: ScenarioResult[] = [];
  // The server's resident memory is sampled while its scenarios run (not the baselines').
  // And the CPU of its database's backends, where the server runs on this machine.
  const backends = databaseUrl && kind === 'postgres' ? databaseCpu(databaseUrl) : undefined;
  const musterOpts: LoadOptions = { ...env.opts, pid: muster.pid, databaseCpu: backends?.start };
  try {
    for (const scenario of suite.scenarios(session, seeded.state)) results.push(await measure(scenario, musterOpts, where));
  } finally {
    await backends?.close();
  }
  const verified = suite.verify ? await suite.verify(session, seeded.state, { kind, databaseUrl, progress: (msg) => progress(`${where}: ${msg}`) }) : [];
  await done();

  const on = kind === 'postgres' ? `PostgreSQL (${env.postgres.label})` : 'the embedded database (PGlite, temporary data directory)';
  console.log(`\nSuite ${suite.name}, ${suite.title}: Muster on ${on}; load average ${load()}`);
  const rate = seeded.records ? ` (${(seeded.records / seconds).toFixed(0)} per second)` : '';
  console.log(`Seeded ${seeded.how ?? 'over HTTP'} in ${seconds.toFixed(1)} s${rate}: ${seeded.summary}`);
  if (seconds > SLOW_SEED_SECONDS) console.log(`  ! seeding took more than ${SLOW_SEED_SECONDS / 60} minutes`);
  console.log(resultTable(baselines, results));
  const bad = problems([a, b, ...results]);
  for (const line of bad) console.log(`  ! ${line}`);
  return { goals: [...suite.goals(kind, results, baselines), ...verified], failed: bad.length > 0 };
}

async function main(): Promise<number> {
  const config = readConfig();
  const suites = selectSuites(config.suite);
  installSignalHandlers(stopLoad);
  const work = mkdtempSync(join(tmpdir(), 'muster-bench-'));
  const removeWork = () => {
    if (config.keepTemp) console.error(`[bench] kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  };
  onCleanup('remove temporary directory', removeWork, removeWork);
  const logDir = join(work, 'logs');
  const opts: LoadOptions = { duration: config.duration, warmup: config.warmup, connections: config.connections };

  const cpu = cpus();
  console.log(`Muster benchmark: ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, load average ${load()}`);
  const unsupported = unsupportedNode();
  if (unsupported) console.log(unsupported);
  console.log(
    `Suites: ${suites.map((s) => s.name).join(', ')}; ${config.duration}s per scenario after ${config.warmup}s warm-up, ${config.connections} connections, pool size ${config.poolSize}`,
  );
  console.log('Each suite runs on a fresh Muster and database per database kind.');

  progress(config.databaseUrl ? 'connecting to BENCH_DATABASE_URL' : 'starting a temporary PostgreSQL cluster');
  // A directory of its own: the cluster's files belong to the postgres user, who cannot enter `work`.
  const postgres = await benchPostgres(mkdtempSync(join(tmpdir(), 'muster-bench-pg-')));
  console.log(`PostgreSQL: ${postgres.label}`);

  const baselineDb = await createDatabase(postgres, 'muster_bench_baseline');
  progress('starting baseline servers');
  const [serverA, serverB] = await Promise.all([
    startTsServer('baseline-a', 'bench/baselines/constant.ts', { logDir }),
    startTsServer('baseline-b', 'bench/baselines/pg-select.ts', {
      logDir,
      env: { DATABASE_URL: baselineDb.url, MUSTER_DB_POOL_SIZE: String(config.poolSize) },
    }),
  ]);
  const isOrganization = (b: any) => (b?.id === 1 && b?.slug === 'default' ? undefined : JSON.stringify(b));
  const env: Env = {
    config,
    opts,
    postgres,
    work,
    logDir,
    baselines: [
      { name: 'baseline A', url: `${serverA.origin}/organizations/1`, check: isOrganization },
      { name: 'baseline B', url: `${serverB.origin}/organizations/1`, check: isOrganization },
    ],
  };

  const goals: GoalCheck[] = [];
  let failed = false;
  for (const suite of suites) {
    for (const kind of config.only as DatabaseKind[]) {
      if (suite.kinds && !suite.kinds.includes(kind)) {
        console.log(
          `\nSuite ${suite.name}: skipped on ${kind === 'postgres' ? 'PostgreSQL' : 'the embedded database'}${suite.skipReason ? `: ${suite.skipReason}` : ''}`,
        );
        continue;
      }
      const outcome = await runSuite(env, suite, kind);
      goals.push(...outcome.goals.map((g) => ({ ...g, line: `${suite.name}, ${g.line}` })));
      failed ||= outcome.failed;
    }
  }

  console.log('\nA: bare Fastify route, constant JSON. B: bare Fastify route, one primary-key SELECT through a pg Pool');
  console.log(`(${config.poolSize} connections) on the same PostgreSQL server. Both are measured before each table.`);
  for (const suite of suites) for (const note of suite.notes ?? []) console.log(note);
  if (failed) console.log('Some requests failed (see "!" lines): the figures above are not valid measurements.');
  console.log('');
  for (const g of goals) console.log(`Goal check, ${g.line}`);
  await serverA.stop();
  await serverB.stop();
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`[bench] ${(err as Error).stack ?? err}`);
} finally {
  await cleanupAll();
}
process.exit(code);
