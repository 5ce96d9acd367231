// Traces, sent over OTLP/HTTP (JSON) when OTEL_EXPORTER_OTLP_ENDPOINT is set. No instrumentation
// library patches anything: spans are made at the few places work passes through (a request, a
// database statement, a job, a scheduled task, a plugin call). Without an endpoint none is made,
// and each of those places costs one boolean test.
import { type Attributes, type Context, context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import { ConfigError, type Settings } from '../../config.ts';

let provider: NodeTracerProvider | undefined;
// Taken from the provider itself, not through the API's proxy: the API is loaded both as ES module
// (here) and as CommonJS (by the SDK), and only the CommonJS copy's proxy learns of the provider.
let tracer = trace.getTracer('muster');
let sending = false;

/** Whether spans are being made and sent. */
export const tracing = () => sending;

/** Where the settings send traces, if anywhere. */
type TraceSettings = Pick<Settings, 'serviceName'> & Partial<Pick<Settings, 'otlpEndpoint' | 'otlpTracesEndpoint' | 'traceRatio'>>;

/** The share of new traces recorded (OTEL_TRACES_SAMPLER_ARG). */
export function traceRatioOf(settings: Pick<TraceSettings, 'traceRatio'>): number {
  const ratio = Number(settings.traceRatio ?? '1');
  if (settings.traceRatio?.trim() === '' || !Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${settings.traceRatio}"`);
  return ratio;
}

export function tracesUrl(settings: TraceSettings): string | undefined {
  if (settings.otlpTracesEndpoint) return settings.otlpTracesEndpoint;
  return settings.otlpEndpoint ? `${settings.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/**
 * Sets this process's tracer up once (later calls keep the first settings): the async context that
 * carries a request's span and id through its awaits, the W3C `traceparent` format, and the OTLP
 * exporter when an endpoint is set.
 */
export function startTracing(settings: TraceSettings): void {
  if (provider) return;
  const url = tracesUrl(settings);
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    sampler: url ? new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(traceRatioOf(settings)) }) : new AlwaysOffSampler(),
    spanProcessors: url ? [new BatchSpanProcessor(new OTLPTraceExporter({ url }))] : [],
  });
  provider.register();
  tracer = provider.getTracer('muster');
  sending = url !== undefined;
}

/** Sends the spans ended so far (before a process stops, or a test reads its receiver). */
export async function flushTraces(): Promise<void> {
  await provider?.forceFlush();
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The context the span starts in (default: the active one). */
  parent?: Context;
}

/** Marks a span failed, naming the error's kind only: messages may carry a request's values. */
export function failSpan(span: Span, err: unknown): void {
  const e = err as { code?: unknown; name?: unknown };
  span.setAttribute('error.type', typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : 'Error');
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * Runs `work` inside a new span, active for everything it awaits; the span ends when the work
 * settles. Synchronous work stays synchronous. Without tracing, just runs `work`.
 */
export function inSpan<T>(name: string, opts: SpanOptions, work: () => T): T {
  if (!sending) return work();
  const parent = opts.parent ?? context.active();
  const span = tracer.startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent);
  const fail = (err: unknown) => {
    failSpan(span, err);
    span.end();
    throw err;
  };
  let out: T;
  try {
    out = context.with(trace.setSpan(parent, span), work);
  } catch (err) {
    return fail(err);
  }
  if (out && typeof (out as { then?: unknown }).then === 'function') {
    return (out as unknown as Promise<unknown>).then((v) => {
      span.end();
      return v;
    }, fail) as T;
  }
  span.end();
  return out;
}

/** Starts a span that the caller ends (a request's, which begins and ends in different hooks). */
export function startSpan(name: string, opts: SpanOptions): Span | undefined {
  if (!sending) return undefined;
  return tracer.startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, opts.parent ?? ROOT_CONTEXT);
}

const MAX_STATEMENT = 2048;

/**
 * A span for one database statement, with its text (parameters are never in it: they travel
 * apart), when it runs inside traced work; statements outside any (the job queue's polling) make
 * none. Returns what ends it, or undefined.
 */
export function statementSpan(text: string): ((err?: unknown) => void) | undefined {
  if (!sending) return undefined;
  const parent = context.active();
  // Inside no span, or one left out by sampling: nothing to hang a statement from.
  if (!trace.getSpan(parent)?.isRecording()) return undefined;
  const operation = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
  const span = tracer.startSpan(
    operation,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.operation.name': operation,
        'db.query.text': text.length > MAX_STATEMENT ? `${text.slice(0, MAX_STATEMENT)}…` : text,
      },
    },
    parent,
  );
  return (err) => {
    if (err) failSpan(span, err);
    span.end();
  };
}

export { SpanKind };
