// `npm run bench`: Muster's API under load, on PostgreSQL and on the embedded database, each
// scenario reported beside two baselines measured in the same run on the same machine:
//   A: a bare Fastify route answering a constant JSON object;
//   B: a bare Fastify route doing one primary-key SELECT through `pg` on the same PostgreSQL server.
// Goal: get-organization reaches at least 50% of baseline B's requests per second.
//
// Env: BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (10),
// BENCH_ONLY=postgres|embedded, BENCH_DATABASE_URL (existing server instead of a temporary
// cluster), BENCH_PG_BIN, BENCH_LOG_LEVEL (warn), BENCH_KEEP_TEMP=1, MUSTER_DB_POOL_SIZE (10).
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupAll, installSignalHandlers, onCleanup } from './lib/cleanup.ts';
import { readConfig, type DatabaseKind } from './lib/config.ts';
import { runScenario, stopLoad, type LoadOptions, type Scenario, type ScenarioResult } from './lib/load.ts';
import { musterScenarios, seedMuster } from './lib/muster.ts';
import { benchPostgres, createDatabase } from './lib/postgres.ts';
import { goalCheck, problems, resultTable, type Baseline, type GoalCheck } from './lib/report.ts';
import { startMuster, startTsServer } from './lib/servers.ts';

const GOAL_PERCENT = 50;
const PROJECTS = 100;

const progress = (msg: string) => console.error(`[bench] ${msg}`);
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

async function measure(scenario: Scenario, opts: LoadOptions, where: string): Promise<ScenarioResult> {
  progress(`${where}: ${scenario.name} (${opts.warmup ? `${opts.warmup}s warm-up + ` : ''}${opts.duration}s, ${opts.connections} connections)`);
  return runScenario(scenario, opts);
}

async function main(): Promise<number> {
  const config = readConfig();
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
  console.log(`${config.duration}s per scenario after ${config.warmup}s warm-up, ${config.connections} connections, pool size ${config.poolSize}`);

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
  const baselineScenarios: Scenario[] = [
    { name: 'baseline A', url: `${serverA.origin}/organizations/1`, check: isOrganization },
    { name: 'baseline B', url: `${serverB.origin}/organizations/1`, check: isOrganization },
  ];

  const goals: GoalCheck[] = [];
  let failed = false;
  for (const kind of config.only as DatabaseKind[]) {
    progress(`${kind}: starting Muster`);
    const dataDir = join(work, `muster-${kind}`);
    const muster = kind === 'postgres'
      ? await startMuster({ name: 'muster-postgres', databaseUrl: (await createDatabase(postgres, 'muster_bench')).url, dataDir, logDir, logLevel: config.logLevel, env: { MUSTER_DB_POOL_SIZE: String(config.poolSize) } })
      : await startMuster({ name: 'muster-embedded', dataDir, logDir, logLevel: config.logLevel });
    progress(`${kind}: seeding (register, ${PROJECTS} projects, login)`);
    const session = await seedMuster(muster.api, { projects: PROJECTS });

    // Baselines right before the scenarios they are compared with, so drift between tables cancels out.
    const [a, b] = [await measure(baselineScenarios[0], opts, kind), await measure(baselineScenarios[1], opts, kind)];
    const baselines: Baseline[] = [{ key: 'A', result: a }, { key: 'B', result: b }];
    const results: ScenarioResult[] = [];
    for (const scenario of musterScenarios(session, PROJECTS)) results.push(await measure(scenario, opts, kind));
    await muster.stop();

    const title = kind === 'postgres' ? `Muster on PostgreSQL (${postgres.label})` : 'Muster on the embedded database (PGlite, temporary data directory)';
    console.log(`\n${title}; load average ${load()}`);
    console.log(resultTable(baselines, results));
    const bad = problems([a, b, ...results]);
    for (const line of bad) console.log(`  ! ${line}`);
    if (bad.length) failed = true;
    const org = results.find((r) => r.name === 'get-organization');
    if (org) goals.push(goalCheck(kind === 'postgres' ? 'PostgreSQL' : 'embedded', org, baselines[1], GOAL_PERCENT));
  }

  console.log('\nA: bare Fastify route, constant JSON. B: bare Fastify route, one primary-key SELECT through a pg Pool');
  console.log(`(${config.poolSize} connections) on the same PostgreSQL server. Both are measured before each table.`);
  console.log('login is slow by design: every request hashes the password with scrypt (N=16384, r=8).');
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
