// Load generation: one named scenario (a request) against a URL, driven by autocannon for a fixed
// time with a fixed number of connections, after an unmeasured warm-up; optionally with other
// loads at a steady rate running beside it (reads under ingestion), and the resident memory of the
// server under test sampled while it runs.
import autocannon, { type Instance, type Request, type RequestParams, type Result } from 'autocannon';
import { cpuSeconds, residentKb, type RssSample } from './memory.ts';

/** What one request sent: its URL and body, for a check that depends on them (the id asked for). */
export interface SentRequest {
  url: string;
  body?: string;
}

export interface Scenario {
  name: string;
  /** The URL of a fixed request; with `nextPath`, its origin is used (the path shows what is asked). */
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
   * A new path, with its query, for every request (random ids, random pages), on the origin of
   * `url`; the probes take theirs from it too. Called in the benchmark's process: keep it cheap.
   */
  nextPath?: () => string;
  /**
   * Checks a response before the load starts (status already known to be 2xx), given what was
   * sent; returns a message (or throws) when the response is wrong, so a misconfigured scenario
   * fails loudly.
   */
  check?: (body: unknown, sent: SentRequest) => string | undefined;
  /** Sees every answer, probe included (its status and body text), e.g. to keep the ids acknowledged. */
  onResponse?: (status: number, body: string) => void;
  /** Connections of this scenario instead of the run's (BENCH_CONNECTIONS). */
  connections?: number;
  /** Measured seconds of this scenario instead of the run's (BENCH_DURATION). */
  duration?: number;
  /** Requests per second from all connections together (autocannon's overallRate); unset: as fast as answered. */
  rate?: number;
  /** Seconds before one of its requests counts as timed out (an error), instead of the run's 10. */
  timeout?: number;
  /**
   * Loads that run beside this one at their own steady `rate` (each must set it): probed, started
   * before the warm-up, stopped once the measurement ends, and reported under the scenario.
   */
  background?: Scenario[];
}

export interface LoadOptions {
  /** Measured seconds. */
  duration: number;
  connections: number;
  /** Unmeasured seconds first (JIT, connection pools, caches); 0 skips it. */
  warmup?: number;
  /** Seconds before a request counts as timed out (an error). */
  timeout?: number;
  /** The process under test: its resident memory is sampled every second of the measurement. */
  pid?: number;
  /** Starts reading the CPU of the database's backends; what it returns gives the seconds used since (database-cpu.ts). */
  databaseCpu?: () => Promise<() => Promise<number | undefined>>;
}

export interface ScenarioResult {
  name: string;
  /** Connections it ran with. */
  connections: number;
  /** Measured seconds. */
  duration: number;
  /** The steady rate asked for, if any (requests per second). */
  rate?: number;
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
  /** The loads that ran beside it (over its warm-up and measurement). */
  background?: ScenarioResult[];
  /** Resident memory of the process under test, sampled every second of the measurement. */
  rss?: RssSample[];
  /** CPU seconds the process under test used during the measurement (Linux only). */
  cpuSeconds?: number;
  /** CPU seconds the PostgreSQL backends of its database used during the measurement (a server on this machine only). */
  databaseCpuSeconds?: number;
}

const running = new Set<Instance>();

/** Stops the load tests in flight, if any (for Ctrl-C). */
export function stopLoad() {
  for (const instance of running) instance.stop();
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
  const url = scenario.nextPath ? new URL(scenario.nextPath(), scenario.url).href : scenario.url;
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  scenario.onResponse?.(res.status, text);
  if (!res.ok) throw new Error(`${scenario.name}: ${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: the check sees the text */
  }
  const problem = scenario.check?.(parsed, { url, body });
  if (problem) throw new Error(`${scenario.name}: unexpected response to ${method} ${url}: ${problem}`);
  return parsed;
}

/** Requests that vary are probed a few times, so that more than one of their shapes is checked. */
const PROBES_WHEN_VARIED = 3;

async function probeAll(scenario: Scenario) {
  const times = scenario.nextPath ? PROBES_WHEN_VARIED : 1;
  for (let i = 0; i < times; i++) await probe(scenario);
}

/** Starts autocannon on the scenario; the instance resolves with its result once done or stopped. */
function start(scenario: Scenario, duration: number, connections: number, opts: LoadOptions): Instance {
  const { method, headers, body } = requestOf(scenario);
  const { nextBody, nextPath, onResponse: seen } = scenario;
  const request: Request = {
    // autocannon rebuilds a request that has a setupRequest every time it sends it.
    ...(nextBody || nextPath
      ? {
          setupRequest: (req: RequestParams) => ({
            ...req,
            ...(nextPath ? { path: nextPath() } : {}),
            ...(nextBody ? { body: serialize(nextBody()) } : {}),
          }),
        }
      : {}),
    ...(seen ? { onResponse: (status: number, text: string) => seen(status, text) } : {}),
  };
  const instance = autocannon({
    url: scenario.url,
    method,
    headers,
    body,
    ...(nextBody || nextPath || seen ? { requests: [request] } : {}),
    connections,
    ...(scenario.rate ? { overallRate: scenario.rate } : {}),
    duration,
    timeout: scenario.timeout ?? opts.timeout ?? 10,
    title: scenario.name,
  });
  running.add(instance);
  return instance;
}

async function finish(instance: Instance): Promise<Result> {
  try {
    return await instance;
  } finally {
    running.delete(instance);
  }
}

function resultOf(scenario: Scenario, r: Result, connections: number, duration: number): ScenarioResult {
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = count;
  return {
    name: scenario.name,
    connections,
    duration,
    rate: scenario.rate,
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

/** Samples the resident memory of `pid` every second until the returned function is called. */
function sampleMemory(pid: number | undefined): () => RssSample[] {
  const samples: RssSample[] = [];
  if (pid === undefined) return () => samples;
  const started = performance.now();
  const take = () => {
    const kb = residentKb(pid);
    if (kb !== undefined) samples.push({ second: (performance.now() - started) / 1000, kb });
  };
  take();
  const timer = setInterval(take, 1000);
  return () => {
    clearInterval(timer);
    take();
    return samples;
  };
}

/** Probes the scenario (and its background loads), warms it up, then measures it. */
export async function runScenario(scenario: Scenario, opts: LoadOptions): Promise<ScenarioResult> {
  const connections = scenario.connections ?? opts.connections;
  const duration = scenario.duration ?? opts.duration;
  const warmup = opts.warmup && opts.warmup > 0 ? opts.warmup : 0;
  await probeAll(scenario);
  const background = scenario.background ?? [];
  for (const b of background) {
    if (!b.rate) throw new Error(`${scenario.name}: background load ${b.name} needs a rate`);
    await probeAll(b);
  }
  // Long enough to outlast the warm-up and the measurement; stopped as soon as the measurement ends.
  const behind = background.map((b) => ({ b, instance: start(b, warmup + duration + 60, b.connections ?? connections, opts) }));
  try {
    if (warmup) await finish(start(scenario, warmup, connections, opts));
    const stopSampling = sampleMemory(opts.pid);
    const databaseUsed = await opts.databaseCpu?.();
    const cpuBefore = opts.pid === undefined ? undefined : cpuSeconds(opts.pid);
    const r = await finish(start(scenario, duration, connections, opts));
    const cpuAfter = opts.pid === undefined ? undefined : cpuSeconds(opts.pid);
    const databaseSeconds = await databaseUsed?.();
    const rss = stopSampling();
    const result = resultOf(scenario, r, connections, duration);
    if (opts.pid !== undefined) result.rss = rss;
    if (cpuBefore !== undefined && cpuAfter !== undefined) result.cpuSeconds = cpuAfter - cpuBefore;
    if (databaseSeconds !== undefined) result.databaseCpuSeconds = databaseSeconds;
    if (behind.length) {
      for (const { instance } of behind) instance.stop();
      result.background = await Promise.all(
        behind.map(async ({ b, instance }) => resultOf(b, await finish(instance), b.connections ?? connections, warmup + duration)),
      );
    }
    return result;
  } finally {
    for (const { instance } of behind) instance.stop();
  }
}
