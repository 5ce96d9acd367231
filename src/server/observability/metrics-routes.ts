// Serving the metrics registry to Prometheus: GET /metrics beside the API (MUSTER_METRICS=on) or
// on a port of its own (MUSTER_METRICS=<port>), where nothing else is served.
import { createServer, type Server } from 'node:http';
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

/** A server answering GET /metrics alone, listening on `host`:`port`; resolves once it listens. */
export async function serveMetrics(host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== METRICS_PATH) {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen({ host, port }, ok));
  return server;
}
