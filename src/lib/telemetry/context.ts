// What a request hands on to the work it causes: its span (as a W3C `traceparent`) and its id. A
// job enqueued during a request carries both in its data, so its span joins the request's trace
// and its log lines name the request.
import { type Context, context, createContextKey, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

const REQUEST_ID = createContextKey('muster.request_id');

/** The active request's id (also inside the jobs it enqueued), if any. */
export const activeRequestId = (): string | undefined => context.active().getValue(REQUEST_ID) as string | undefined;

/** `parent` naming a request id. */
export const withRequestId = (parent: Context, requestId: string): Context => parent.setValue(REQUEST_ID, requestId);

/** What a job carries from the context that enqueued it. */
export interface Carried {
  traceparent?: string;
  requestId?: string;
}

/** The active context as a job's fields: its span's `traceparent` (when traced) and the request id. */
export function carried(): Carried | undefined {
  const active = context.active();
  const out: Carried & Record<string, string> = {};
  propagation.inject(active, out);
  const requestId = active.getValue(REQUEST_ID) as string | undefined;
  if (requestId) out.requestId = requestId;
  if (!out.traceparent && !requestId) return undefined;
  return { traceparent: out.traceparent, requestId };
}

/** The context a job runs in, from what it carried; an incoming request's from its headers. */
export function contextFrom(carrier: Record<string, unknown>): Context {
  const traceparent = typeof carrier.traceparent === 'string' ? carrier.traceparent : undefined;
  const requestId = typeof carrier.requestId === 'string' ? carrier.requestId : undefined;
  const ctx = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  return requestId ? withRequestId(ctx, requestId) : ctx;
}

/** Runs `work` in the context `carrier` names (a job's traceparent and request id). */
export const within = <T>(carrier: Record<string, unknown>, work: () => T): T => context.with(contextFrom(carrier), work);
