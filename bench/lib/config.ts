// Benchmark settings from the environment. Every benchmark reads these the same way.

export type DatabaseKind = 'postgres' | 'embedded';
export const DATABASE_KINDS: DatabaseKind[] = ['postgres', 'embedded'];

export interface BenchConfig {
  /** BENCH_DURATION: measured seconds per scenario (10). */
  duration: number;
  /** BENCH_WARMUP: unmeasured seconds before each scenario (2; 0 skips). */
  warmup: number;
  /** BENCH_CONNECTIONS: concurrent connections (10). */
  connections: number;
  /** BENCH_ONLY: one database kind, or both. */
  only: DatabaseKind[];
  /** BENCH_DATABASE_URL: an existing PostgreSQL server instead of a temporary cluster. */
  databaseUrl?: string;
  /** BENCH_LOG_LEVEL: LOG_LEVEL of the servers under test (warn). */
  logLevel: string;
  /** BENCH_KEEP_TEMP: keep the temporary directory (server logs, data) after the run. */
  keepTemp: boolean;
  /** MUSTER_DB_POOL_SIZE: connections per server process, Muster's and baseline B's alike (10). */
  poolSize: number;
  /** BENCH_SUITE: a suite's name, or `all` (the default); checked against the suites in ../suites/. */
  suite: string;
  /** BENCH_INGEST_CONNECTIONS: connections of the ingestion scenarios (50, as their goals say). */
  ingestConnections: number;
  /** BENCH_MEMORY_MINUTES: length of the memory suite's mixed run (5). */
  memoryMinutes: number;
  /** BENCH_UI_MAX_PAGE: the deepest page the web UI's table requests ask for (0: every page of the data). */
  uiMaxPage: number;
}

function number(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return n;
}

export function readConfig(): BenchConfig {
  const only = process.env.BENCH_ONLY?.trim().toLowerCase();
  if (only && !DATABASE_KINDS.includes(only as DatabaseKind)) {
    throw new Error(`BENCH_ONLY must be one of ${DATABASE_KINDS.join(', ')}, got "${only}"`);
  }
  return {
    duration: number('BENCH_DURATION', 10, 1),
    warmup: number('BENCH_WARMUP', 2, 0),
    connections: Math.round(number('BENCH_CONNECTIONS', 10, 1)),
    only: only ? [only as DatabaseKind] : DATABASE_KINDS,
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    logLevel: process.env.BENCH_LOG_LEVEL || 'warn',
    keepTemp: ['1', 'true', 'yes'].includes((process.env.BENCH_KEEP_TEMP ?? '').toLowerCase()),
    poolSize: Math.round(number('MUSTER_DB_POOL_SIZE', 10, 1)),
    suite: process.env.BENCH_SUITE?.trim().toLowerCase() || 'all',
    ingestConnections: Math.round(number('BENCH_INGEST_CONNECTIONS', 50, 1)),
    memoryMinutes: number('BENCH_MEMORY_MINUTES', 5, 0.1),
    uiMaxPage: Math.round(number('BENCH_UI_MAX_PAGE', 0, 0)),
  };
}
