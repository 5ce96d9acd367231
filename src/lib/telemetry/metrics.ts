// Prometheus metrics (prom-client), in one registry that GET /metrics writes out. Labels are
// bounded by design: route patterns (never URLs), methods, status codes, queue and task names,
// outcomes. None carries an id, an e-mail address or anything else a request sent.
import client from 'prom-client';
import { ConfigError, type Settings } from '../../config.ts';

export const registry = new client.Registry();

/** Where MUSTER_METRICS serves: nowhere, beside the API, or on a port of its own. */
export type MetricsMode = { serve: 'off' } | { serve: 'api' } | { serve: 'port'; port: number };

export function metricsMode(settings: Pick<Settings, 'metrics'>): MetricsMode {
  const v = settings.metrics.trim().toLowerCase();
  if (['off', 'false', 'no', '0'].includes(v)) return { serve: 'off' };
  if (['on', 'true', 'yes'].includes(v)) return { serve: 'api' };
  const port = Number(v);
  if (Number.isInteger(port) && port > 0 && port < 65536) return { serve: 'port', port };
  throw new ConfigError(`MUSTER_METRICS must be off, on or a port number, got "${settings.metrics}"`);
}

let recording = false;
/**
 * Whether this process's metrics are served (MUSTER_METRICS on or a port). Off, the figures taken at
 * every request (its duration, its statements' waits for a connection) are not taken: nobody could
 * read them, and each cost a histogram's label lookup per request.
 */
export const recordingMetrics = (): boolean => recording;

/** Starts recording, once: the requests' and the pool's figures, and prom-client's defaults (memory, CPU, event-loop delay). */
export function recordMetrics(): void {
  if (recording) return;
  recording = true;
  client.collectDefaultMetrics({ register: registry });
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new client.Histogram({
  name: 'muster_http_request_duration_seconds',
  help: 'Requests by method, route pattern and status code, with their duration',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const poolWaits = new client.Histogram({
  name: 'muster_db_pool_wait_seconds',
  help: 'Time a statement or transaction waited for a connection of the PostgreSQL pool',
  buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
  registers: [registry],
});

/** A PostgreSQL pool as its gauges read it. */
export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
}

/** The open pools of this process: added when one opens, removed when it closes. */
export const pools = new Set<() => PoolState>();

const sumPools = () =>
  [...pools]
    .map((p) => p())
    .reduce((a, b) => ({ total: a.total + b.total, idle: a.idle + b.idle, waiting: a.waiting + b.waiting }), { total: 0, idle: 0, waiting: 0 });

new client.Gauge({
  name: 'muster_db_pool_connections',
  help: 'Connections of the PostgreSQL pool, idle or in use',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const s = sumPools();
    this.set({ state: 'idle' }, s.idle);
    this.set({ state: 'busy' }, s.total - s.idle);
  },
});

new client.Gauge({
  name: 'muster_db_pool_waiting',
  help: 'Statements and transactions waiting for a connection of the PostgreSQL pool now',
  registers: [registry],
  collect() {
    this.set(sumPools().waiting);
  },
});

/** A queue's jobs by state, and how long its oldest waiting job has waited. */
export interface QueueState {
  queue: string;
  state: string;
  jobs: number;
  oldestSeconds: number;
}

/** What reads the job queues' states at each scrape (one per database being watched). */
export const queueReaders = new Set<() => Promise<QueueState[]>>();

let queueStates: Promise<QueueState[]> | undefined;
/** One read of the queues serves both gauges of a scrape. */
function readQueues(): Promise<QueueState[]> {
  queueStates ??= Promise.all([...queueReaders].map((read) => read().catch(() => []))).then((all) => {
    queueStates = undefined;
    return all.flat();
  });
  return queueStates;
}

new client.Gauge({
  name: 'muster_job_queue_jobs',
  help: 'Jobs in each queue by state (created and retry: waiting; active: running; failed: out of retries)',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  // Read from the database: every worker of a cluster reports the same figure.
  aggregator: 'max',
  async collect() {
    this.reset();
    for (const q of await readQueues()) this.set({ queue: q.queue, state: q.state }, q.jobs);
  },
});

new client.Gauge({
  name: 'muster_job_queue_oldest_seconds',
  help: 'Age of the oldest job waiting to run in each queue',
  labelNames: ['queue'] as const,
  registers: [registry],
  aggregator: 'max',
  async collect() {
    this.reset();
    const oldest = new Map<string, number>();
    for (const q of await readQueues()) {
      if (q.state !== 'created' && q.state !== 'retry') continue;
      oldest.set(q.queue, Math.max(oldest.get(q.queue) ?? 0, q.oldestSeconds));
    }
    for (const [queue, seconds] of oldest) this.set({ queue }, seconds);
  },
});

export const jobRuns = new client.Histogram({
  name: 'muster_job_run_duration_seconds',
  help: 'Runs of jobs by queue and outcome (completed, failed, deferred: the outside system asked to wait), with their duration',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
  registers: [registry],
});

export const schedulerRuns = new client.Counter({
  name: 'muster_scheduler_runs_total',
  help: 'Runs of periodic tasks by task and outcome (ok, failed, interrupted)',
  labelNames: ['task', 'outcome'] as const,
  registers: [registry],
});

const signalIngestions = new client.Counter({
  name: 'muster_signal_ingestions_total',
  help: 'Signal instances stored, by outcome: new, deduplicated or snoozed by a filter',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
for (const outcome of ['new', 'deduplicated', 'snoozed']) signalIngestions.inc({ outcome }, 0);

const OUTCOMES: Record<string, string> = { deduplicate: 'deduplicated', snooze: 'snoozed' };

/** Counts stored signal instances by the filter action that decided each (null: none, a new one). */
export function countIngested(filterActions: (string | null)[]): void {
  for (const action of filterActions) signalIngestions.inc({ outcome: action === null ? 'new' : (OUTCOMES[action] ?? action) });
}
