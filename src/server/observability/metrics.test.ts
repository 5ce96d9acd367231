// GET /metrics as Prometheus scrapes it: over HTTP from a listening server, the exposition text
// parsed, after requests, a signal ingested, jobs enqueued and run, and a scheduled task.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs } from '../../../test/jobs.ts';
import { createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { signals, type World } from '../../../test/worlds/signals.ts';
import { populate } from '../../../test/worlds/world.ts';
import { Scheduler, type TaskDefinition } from '../../jobs/scheduler.ts';
import { metricsMode } from '../../lib/telemetry/metrics.ts';
import { serveMetrics } from './metrics-routes.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (version 0.0.4). */
function parseExposition(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v.replace(/\\(.)/g, '$1');
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);

const lines: Record<string, unknown>[] = [];
const logs = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
    done();
  },
});

let t: TestApp;
let w: World;
let base: string;

async function scrape(url = `${base}/metrics`): Promise<Sample[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return parseExposition(await res.text());
}

beforeAll(async () => {
  t = await createTestApp({ metrics: 'on', logLevel: 'info' }, { logger: { level: 'info', stream: logs } });
  w = await populate(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t?.close());

describe('GET /metrics', () => {
  it('counts requests by method, route pattern and status, never by id or request value', async () => {
    const email = 'metrics-reader@example.com';
    const token = await register(t.app, email);
    const created = await fetch(`${base}/api/v1/default/incidents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Queue backing up', description: 'Slow.' }),
    });
    const incident = (await created.json()) as { id: number };
    for (let i = 0; i < 3; i++)
      await fetch(`${base}/api/v1/default/incidents/${incident.id}?q=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${token}` } });
    await fetch(`${base}/api/v1/default/incidents/999999`, { headers: { authorization: `Bearer ${token}` } });
    await fetch(`${base}/no/such/path/${email}`);

    const samples = await scrape();
    const route = '/api/v1/:organization/incidents/:incident_id';
    expect(value(samples, 'muster_http_request_duration_seconds_count', { method: 'GET', route, status: '200' })).toBe(3);
    expect(value(samples, 'muster_http_request_duration_seconds_count', { method: 'GET', route, status: '404' })).toBe(1);
    expect(value(samples, 'muster_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/:organization/incidents', status: '200' })).toBe(1);
    expect(value(samples, 'muster_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBe(1);
    expect(value(samples, 'muster_http_request_duration_seconds_bucket', { method: 'GET', route, status: '200', le: '+Inf' })).toBe(3);
    // No label anywhere carries an id, an address or a query.
    const labelValues = samples.flatMap((s) => Object.values(s.labels));
    for (const v of labelValues) {
      expect(v).not.toContain('@');
      expect(v).not.toContain('?');
      expect(v).not.toMatch(/\/\d+(\/|$)/);
    }

    // The record-effects job waits in its queue...
    expect(value(samples, 'muster_job_queue_jobs', { queue: 'record-effects', state: 'created' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'muster_job_queue_oldest_seconds', { queue: 'record-effects' })).toBeGreaterThanOrEqual(0);
    expect(samples.some((s) => s.name === 'muster_job_queue_oldest_seconds' && s.labels.queue === 'record-effects')).toBe(true);
    // ...until a worker runs it.
    await drainJobs(t.database, t.settings);
    const after = await scrape();
    expect(value(after, 'muster_job_queue_jobs', { queue: 'record-effects', state: 'created' })).toBe(0);
    expect(value(after, 'muster_job_run_duration_seconds_count', { queue: 'record-effects', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
  });

  it('writes one access line per request: route pattern, status, duration, request id and caller, no query, token or address', async () => {
    const email = 'logged@example.com';
    const token = await register(t.app, email);
    const me = (await (await fetch(`${base}/api/v1/default/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: number };
    lines.length = 0;
    const res = await fetch(`${base}/api/v1/default/incidents?q=${encodeURIComponent(email)}&itemsPerPage=1`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'lb-7f3a:42' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('lb-7f3a:42');
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/api/v1/:organization/incidents',
      status: 200,
      requestId: 'lb-7f3a:42',
      caller: me.id,
    });
    expect(typeof access[0].ms).toBe('number');
    const text = JSON.stringify(lines);
    expect(text).not.toContain(email);
    expect(text).not.toContain(token);
    expect(text).not.toContain('itemsPerPage');

    // An id that does not look like one is replaced by a new one.
    const other = await fetch(`${base}/api/v1/healthcheck`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts ingested signal instances by outcome', async () => {
    const s = signals(w);
    const def = (await s.define({ variant: 'metrics-probe', create_case: false })).body;
    const before = value(await scrape(), 'muster_signal_ingestions_total', { outcome: 'new' });
    expect((await s.ingest({ variant: def.variant, text: 'one' })).status).toBe(200);
    expect((await s.ingest({ variant: def.variant, text: 'two' })).status).toBe(200);
    const samples = await scrape();
    expect(value(samples, 'muster_signal_ingestions_total', { outcome: 'new' })).toBe(before + 2);
    expect(samples.some((x) => x.name === 'muster_signal_ingestions_total' && x.labels.outcome === 'snoozed')).toBe(true);
  });

  it('counts scheduled task runs by task and outcome', async () => {
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    const tasks: TaskDefinition[] = [
      { name: 'metrics-probe-ok', description: '', schedule: { every: 3600 }, run: async () => {} },
      { name: 'metrics-probe-failing', description: '', schedule: { every: 3600 }, run: async () => Promise.reject(new Error('down')) },
    ];
    const scheduler = new Scheduler(t.database.db, tasks, { timezone: 'UTC', log: quiet });
    expect(await scheduler.runTask(tasks[0], new Date())).toBe('ran');
    expect(await scheduler.runTask(tasks[1], new Date())).toBe('failed');
    const samples = await scrape();
    expect(value(samples, 'muster_scheduler_runs_total', { task: 'metrics-probe-ok', outcome: 'ok' })).toBe(1);
    expect(value(samples, 'muster_scheduler_runs_total', { task: 'metrics-probe-failing', outcome: 'failed' })).toBe(1);
  });

  it("reports the process's memory and event-loop delay, and the database pool on a server", async () => {
    const samples = await scrape();
    expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    if (t.database.kind === 'postgres') {
      expect(value(samples, 'muster_db_pool_connections')).toBeGreaterThan(0);
      expect(value(samples, 'muster_db_pool_wait_seconds_count')).toBeGreaterThan(0);
      expect(samples.some((s) => s.name === 'muster_db_pool_waiting')).toBe(true);
    }
  });

  it('serves the same registry on a port of its own, and nothing else there', async () => {
    const server = await serveMetrics('127.0.0.1', 0);
    try {
      const port = (server.address() as { port: number }).port;
      const samples = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(value(samples, 'muster_http_request_duration_seconds_count')).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/healthcheck`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('MUSTER_METRICS', () => {
  it('is off, on (beside the API) or a port, and nothing else', () => {
    expect(metricsMode({ metrics: 'off' })).toEqual({ serve: 'off' });
    expect(metricsMode({ metrics: 'on' })).toEqual({ serve: 'api' });
    expect(metricsMode({ metrics: '9464' })).toEqual({ serve: 'port', port: 9464 });
    expect(() => metricsMode({ metrics: 'sometimes' })).toThrow(/MUSTER_METRICS must be off, on or a port number/);
    expect(() => metricsMode({ metrics: '70000' })).toThrow(/MUSTER_METRICS/);
  });
});
