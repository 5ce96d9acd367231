// Serving the metrics registry to Prometheus: GET /metrics beside the API (MUSTER_METRICS=on) or
// on a port of its own (MUSTER_METRICS=<port>), where nothing else is served.
import { createServer, type Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import { registry } from '../../lib/telemetry/metrics.ts';
import type { App } from '../routing.ts';

export const METRICS_PATH = '/metrics';

/** GET /metrics on the application; unauthenticated, as scrapers are. */
export function metricsRoute(app: App): void {
  app.get(METRICS_PATH, { schema: { hide: true }, config: { auth: false } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

/** What one scrape reads: this process's registry, or every worker's summed by the cluster's primary. */
export type MetricsSource = () => Promise<string>;

const ownMetrics: MetricsSource = () => registry.metrics();

/**
 * In a `--workers N` cluster the primary serves the metrics port and asks each worker for its
 * registry per scrape (prom-client's cluster protocol over the IPC channel), so one scrape sees
 * the whole node. Called in the primary before the workers are forked and in each worker.
 */
export function clusterMetrics(isPrimary: boolean): MetricsSource | undefined {
  if (!isPrimary) {
    AggregatorRegistry.setRegistries([registry]);
    // Constructing one is what makes a worker answer the primary's requests.
    new AggregatorRegistry();
    return undefined;
  }
  const aggregator = new AggregatorRegistry();
  return () => aggregator.clusterMetrics();
}

/** A server answering GET /metrics alone, listening on `host`:`port`; resolves once it listens. */
export async function serveMetrics(host: string, port: number, read: MetricsSource = ownMetrics): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== METRICS_PATH) {
      res.writeHead(404).end();
      return;
    }
    read().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen({ host, port }, ok));
  return server;
}
