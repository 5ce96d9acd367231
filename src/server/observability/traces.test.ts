// Traces as a collector receives them: a real OTLP/HTTP receiver started here, Muster pointed at it
// through OTEL_EXPORTER_OTLP_ENDPOINT, real HTTP requests, and the spans it was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs } from '../../../test/jobs.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { type ReceivedSpan, startOtlpReceiver, type OtlpReceiver } from '../../../test/peers/otlp-receiver.ts';
import { flushTraces } from '../../lib/telemetry/tracing.ts';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

let receiver: OtlpReceiver;
let t: TestApp;
let base: string;

async function request(method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api/v1${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => undefined) };
}

/** Flushes until the receiver holds a span that `match` accepts. */
async function spanWhere(what: string, match: (s: ReceivedSpan) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await flushTraces();
    const found = receiver.spans.find(match);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no span ${what} among ${receiver.spans.map((s) => s.name).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  t = await createTestApp({ otlpEndpoint: receiver.url, serviceName: 'muster-under-test' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('traces over OTLP', () => {
  it('sends a span per request, its statements as children without their values, and the jobs it enqueued in its trace', async () => {
    const reg = await request('POST', '/default/auth/register', { body: { email: 'tracer@example.com', password: 'correct horse battery' } });
    expect(reg.status).toBe(200);
    const token = reg.body.token as string;
    const title = 'Disk full on the billing host';
    const created = await request('POST', '/default/incidents', { token, body: { title, description: 'It is full.' } });
    expect(created.status).toBe(200);
    const requestId = created.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const server = await spanWhere('of the incident request', (s) => s.kind === SERVER && s.attributes['muster.request_id'] === requestId);
    expect(server.name).toBe('POST /api/v1/:organization/incidents');
    expect(server.service).toBe('muster-under-test');
    expect(server.attributes['http.route']).toBe('/api/v1/:organization/incidents');
    expect(server.attributes['http.response.status_code']).toBe(200);
    expect(server.parentSpanId).toBeUndefined();

    // Every statement of the request hangs from it (the body arrives after onRequest: the context is kept).
    const statements = receiver.spans.filter((s) => s.parentSpanId === server.spanId && s.kind === CLIENT && s.attributes['db.system.name'] === 'postgresql');
    expect(statements.length).toBeGreaterThan(3);
    expect(statements.some((s) => s.name === 'INSERT' && String(s.attributes['db.query.text']).includes('$1'))).toBe(true);
    const all = receiver.spans.map((s) => JSON.stringify(s.attributes)).join('\n');
    expect(all).not.toContain(title);
    expect(all).not.toContain('tracer@example.com');

    // The job the write enqueued carries the request's trace and id in its data...
    const [job] = await t.database.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM pgboss.job WHERE name = 'record-effects' ORDER BY created_on DESC LIMIT 1`,
    );
    expect(job.data.requestId).toBe(requestId);
    expect(String(job.data.traceparent)).toMatch(new RegExp(`^00-${server.traceId}-${server.spanId}-01$`));
    // ...and its run is a child of the request, its statements children of the run.
    await drainJobs(t.database, t.settings);
    const run = await spanWhere('of the record-effects job', (s) => s.name === 'job record-effects' && s.traceId === server.traceId);
    expect(run.kind).toBe(CONSUMER);
    expect(run.parentSpanId).toBe(server.spanId);
    await spanWhere('of a statement of the job', (s) => s.parentSpanId === run.spanId && s.kind === CLIENT);
    // The plugin calls made for the incident are spans of that trace too.
    const plugin = await spanWhere('of a plugin call', (s) => s.name.startsWith('plugin ') && s.traceId === server.traceId);
    expect(plugin.attributes['muster.plugin']).toBeTruthy();
  });

  it('continues the trace a caller sends in traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await request('GET', '/healthcheck', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(res.status).toBe(200);
    const server = await spanWhere('of the health check', (s) => s.kind === SERVER && s.traceId === traceId);
    expect(server.parentSpanId).toBe('00f067aa0ba902b7');
    expect(server.name).toBe('GET /api/v1/healthcheck');
  });

  it('sends only OTLP JSON that the receiver accepts', () => {
    expect(receiver.refused).toBe(0);
  });
});
