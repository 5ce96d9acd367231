import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// `npm test` runs the database-touching suites on the embedded database, and once more against the
// PostgreSQL server named by DATABASE_URL when it is set. Everything else runs once per `npm test`:
// the web UI's tests, the server's tests that open no database, and the suites that pick their
// databases themselves (the `muster` program's tests, project `cli`, start embedded data directories
// and, when a server is given, PostgreSQL databases; the browser tests run against the one the run has).
const postgres = process.env.DATABASE_URL;
// Only the projects given it below see the server; the others run on the embedded database.
delete process.env.DATABASE_URL;
const serverEnv = postgres ? { DATABASE_URL: postgres } : {};

/**
 * The `muster` program's suites: they run once, each test starting `muster` processes on data
 * directories and databases of its own. A project of their own, so that CI can run them beside the
 * other long suites instead of after them (.ci/run).
 */
const CLI = ['test/cli-*.test.ts'];

/** Other suites that run once: they open no database, or choose theirs (see above). */
const ONCE = [
  'test/e2e/**/*.test.ts',
  'test/contract/compare.test.ts',
  'test/failover.test.ts',
  'src/cli/server-imports.test.ts',
  'src/db/migrate.test.ts',
  'src/domains/entity_type/extract.test.ts',
  'src/domains/incident/holt-winters.test.ts',
  'src/lib/batcher.test.ts',
  'src/lib/outbound/outbound.test.ts',
  'src/list/include.test.ts',
  'src/list/projection.test.ts',
  'src/list/search.test.ts',
  'src/plugins/builtin/email.test.ts',
  'src/plugins/builtin/muster-workflow.test.ts',
  'src/plugins/builtin/slack/slack.test.ts',
  'src/plugins/builtin/webhook.test.ts',
  'src/plugins/registry.test.ts',
];

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

// Node (22.1 and later) keeps the compiled code of the modules the test workers and every `muster`
// they start load, and reuses it in the next process: a CLI test starts dozens of `muster` processes,
// each compiling the program's 9 MB build (bin/build.js). The cache is keyed by each file's content,
// so an edit is seen.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'muster-node-compile-cache');

/**
 * Database suites that need a process of their own: they mock a module, set the process's time zone,
 * add plugins to the process's registry (which other files would then list), or read what the whole
 * process reports (its one tracer, set up by the first app built, and its metrics); or, after other files
 * in the same process, their background jobs stay active past their drain's time limit (workflow
 * runs, notifications), which they never do alone.
 */
const OWN_PROCESS = [
  'src/domains/signal/batch.test.ts',
  'src/list/zone.test.ts',
  'src/domains/plugin/plugin.test.ts',
  'src/domains/workflow/workflow.test.ts',
  'src/plugins/builtin/generic-workflow.test.ts',
  'src/domains/effects/notify.test.ts',
  'src/domains/effects/ticket-update.test.ts',
  'src/domains/record_document/outside.test.ts',
  'src/plugins/builtin/google/google.test.ts',
  'src/server/observability/traces.test.ts',
  'src/server/observability/metrics.test.ts',
];

/**
 * The suites that run on each database, each file on the template's state (test/global-setup.ts).
 * Their files share a worker's process one after another (isolate: false): the modules are loaded and
 * the route schemas compiled once per worker instead of once per file (src/server/compilers.ts).
 * OWN_PROCESS runs in `<name>-own-process`, a file per process.
 */
const perDatabase = (name: string, env: Record<string, string>, ownProcessExecArgv: string[] = []): TestProjectInlineConfiguration[] => [
  {
    extends: true,
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      exclude: [...CLI, ...ONCE, ...OWN_PROCESS],
      env,
      isolate: false,
      globalSetup: ['test/global-setup.ts'],
    },
  },
  { extends: true, test: { name: `${name}-own-process`, include: OWN_PROCESS, env, execArgv: ownProcessExecArgv, globalSetup: ['test/global-setup.ts'] } },
];

/**
 * The embedded own-process files run PGlite's WebAssembly on V8's baseline compiler only: such a
 * process opens one database for one file, and optimising PGlite's code as it warms up (on threads
 * of its own) costs more CPU than the file's queries win back (the 11 files: 135 CPU-s against 158;
 * test/cli-helpers.ts does the same for the `muster` commands the CLI tests run). The shared
 * processes keep V8's defaults: their one PGlite serves file after file (test/embedded-reuse.ts), so
 * the optimised code pays back (the 112 files: 359-379 CPU-s against 431).
 */
const EMBEDDED_OWN_PROCESS_EXEC_ARGV = ['--liftoff-only'];

export default defineConfig({
  test: {
    // The limits catch a test that hangs, not one that is slow: CI runs about three test processes
    // per core (.ci/run), where a test that takes 20 s alone can take a minute.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // `expect.poll` waits for what a page or a job shows next; its own default (1 s) is shorter than
    // a busy machine's answer.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'cli', include: CLI, env: serverEnv, globalSetup: ['test/empty-cluster-setup.ts'] } },
      // Its files share a worker's process one after another, as the database suites' do: each starts
      // the servers and browsers it uses, and none changes what the process holds for the next. One
      // run of the project: 214 CPU-s against 264 with a process per file (imports 14 s against 64).
      { extends: true, test: { name: 'once', include: ONCE, env: serverEnv, isolate: false, globalSetup: ['test/empty-cluster-setup.ts'] } },
      // The web UI's components and pure logic, in a simulated browser.
      // Node 25 and later have a localStorage of their own, which would stand in the simulated browser's way.
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['ui/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['ui/src/test/setup.ts'],
          execArgv: NODE_MAJOR >= 25 ? ['--no-experimental-webstorage'] : [],
        },
      },
      ...perDatabase('embedded', {}, EMBEDDED_OWN_PROCESS_EXEC_ARGV),
      ...(postgres ? perDatabase('postgres', serverEnv) : []),
    ],
  },
});
