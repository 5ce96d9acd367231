// What every request leaves behind: its X-Request-Id header, a span (when traces are sent) that the
// statements and jobs it causes hang from, its count and duration by route pattern for /metrics,
// and one access log line. Route patterns, never URLs: no id or query string reaches a label or a
// log line.
import { context, propagation, ROOT_CONTEXT, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { Settings } from '../../config.ts';
import { withRequestId } from '../../lib/telemetry/context.ts';
import { httpRequests, recordingMetrics } from '../../lib/telemetry/metrics.ts';
import { SpanKind, startSpan, tracing } from '../../lib/telemetry/tracing.ts';
import type { App } from '../routing.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/** What a request carries between its hooks. */
interface Observed {
  span?: Span;
  context: ReturnType<typeof context.active>;
}

declare module 'fastify' {
  interface FastifyRequest {
    observed: Observed | null;
  }
}

const ROUTE_UNMATCHED = 'unmatched';
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? ROUTE_UNMATCHED;

/** Installs the hooks; the first hooks of the application, so that every later one runs in the request's context. */
export function installRequestTelemetry(app: App, settings: Pick<Settings, 'accessLog'>): void {
  app.decorateRequest('observed', null);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    let parent = ROOT_CONTEXT;
    let span: Span | undefined;
    if (tracing()) {
      parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const route = routeOf(request);
      span = startSpan(`${request.method} ${route}`, {
        kind: SpanKind.SERVER,
        parent,
        attributes: { 'http.request.method': request.method, 'http.route': route, 'muster.request_id': request.id },
      });
      parent = trace.setSpan(parent, span!);
    }
    const observed = { span, context: withRequestId(parent, request.id) };
    request.observed = observed;
    context.with(observed.context, done);
  });

  // The body arrives on the connection's own events, outside the context onRequest set: entered again.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.observed) context.with(request.observed.context, done);
    else done();
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    const status = reply.statusCode;
    if (recordingMetrics()) httpRequests.observe({ method: request.method, route, status }, reply.elapsedTime / 1000);
    const span = request.observed?.span;
    if (span) {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    if (settings.accessLog) {
      const caller = (request as { ctx?: { user?: { id?: number } } }).ctx?.user?.id;
      request.log.info({ method: request.method, route, status, ms: Math.round(reply.elapsedTime * 100) / 100, caller }, 'request');
    }
    done();
  });
}
