// The part of autocannon's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  /** One request as autocannon builds it; `setupRequest` may return a changed copy. */
  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    [key: string]: unknown;
  }

  export interface Request extends RequestParams {
    /** Called before every send of this request (the raw request in, the one to send out). */
    setupRequest?: (req: RequestParams, context: Record<string, unknown>) => RequestParams | null | undefined;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }

  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    connections?: number;
    /** Requests per second from all connections together. */
    overallRate?: number;
    /** Requests per second of each connection. */
    connectionRate?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    workers?: number;
    title?: string;
    /** Requests each connection sends in turn (with `method`, `headers` and `body` as defaults). */
    requests?: Request[];
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    [percentile: string]: number;
  }

  export interface Result {
    title?: string;
    url: string;
    duration: number;
    samples: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  export interface Instance extends PromiseLike<Result> {
    stop(): void;
    on(event: 'done', listener: (result: Result) => void): this;
  }

  function autocannon(opts: Options): Instance;
  export default autocannon;
}
