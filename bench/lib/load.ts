// Load generation: one named scenario (a request) against a URL, driven by autocannon for a fixed
// time with a fixed number of connections, after an unmeasured warm-up.
import autocannon, { type Instance, type RequestParams, type Result } from 'autocannon';

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (with its content type). */
  body?: unknown;
  /**
   * A new body for every request (unique emails, say), sent like `body`, which it replaces; the
   * probe takes one too. Called in the benchmark's process, so it should be cheap.
   */
  nextBody?: () => unknown;
  /**
   * Checks one response before the load starts (status already known to be 2xx); throws or
   * returns a message when the response is wrong, so a misconfigured scenario fails loudly.
   */
  check?: (body: unknown) => string | undefined;
  /** Sees every answer, probe included (its status and body text), e.g. to keep the ids acknowledged. */
  onResponse?: (status: number, body: string) => void;
}

export interface LoadOptions {
  /** Measured seconds. */
  duration: number;
  connections: number;
  /** Unmeasured seconds first (JIT, connection pools, caches); 0 skips it. */
  warmup?: number;
  /** Seconds before a request counts as timed out (an error). */
  timeout?: number;
}

export interface ScenarioResult {
  name: string;
  /** Mean requests per second over the measured samples. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Responses received. */
  requests: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  /** Count per status code. */
  statusCodes: Record<string, number>;
}

let current: Instance | undefined;

/** Stops the load test in flight, if any (for Ctrl-C). */
export function stopLoad() {
  current?.stop();
}

const serialize = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

/** Method, headers and (for a fixed body) the body; `nextBody` scenarios get theirs per request. */
function requestOf(scenario: Scenario) {
  const headers: Record<string, string> = { ...scenario.headers };
  let body: string | undefined;
  if (scenario.body !== undefined || scenario.nextBody) {
    if (!scenario.nextBody) body = serialize(scenario.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  return { method: scenario.method ?? 'GET', headers, body };
}

/** Sends the scenario's request once; throws unless it answers 2xx and passes its check. */
export async function probe(scenario: Scenario): Promise<unknown> {
  const { method, headers, body: fixed } = requestOf(scenario);
  const body = scenario.nextBody ? serialize(scenario.nextBody()) : fixed;
  const res = await fetch(scenario.url, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  scenario.onResponse?.(res.status, text);
  if (!res.ok) throw new Error(`${scenario.name}: ${method} ${scenario.url} answered ${res.status}: ${text.slice(0, 500)}`);
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: the check sees the text */
  }
  const problem = scenario.check?.(parsed);
  if (problem) throw new Error(`${scenario.name}: unexpected response: ${problem}`);
  return parsed;
}

async function fire(scenario: Scenario, duration: number, opts: LoadOptions): Promise<Result> {
  const { method, headers, body } = requestOf(scenario);
  const next = scenario.nextBody;
  const seen = scenario.onResponse;
  const request = {
    // autocannon rebuilds a request that has a setupRequest every time it sends it.
    ...(next ? { setupRequest: (req: RequestParams) => ({ ...req, body: serialize(next()) }) } : {}),
    ...(seen ? { onResponse: (status: number, text: string) => seen(status, text) } : {}),
  };
  current = autocannon({
    url: scenario.url,
    method,
    headers,
    body,
    ...(next || seen ? { requests: [request] } : {}),
    connections: opts.connections,
    duration,
    timeout: opts.timeout ?? 10,
    title: scenario.name,
  });
  try {
    return await current;
  } finally {
    current = undefined;
  }
}

/** Probes the scenario, warms it up, then measures it. */
export async function runScenario(scenario: Scenario, opts: LoadOptions): Promise<ScenarioResult> {
  await probe(scenario);
  if (opts.warmup && opts.warmup > 0) await fire(scenario, opts.warmup, opts);
  const r = await fire(scenario, opts.duration, opts);
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = count;
  return {
    name: scenario.name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r['2xx'] + r.non2xx,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}
