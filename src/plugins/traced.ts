// Every call into a plugin (a ticket created, a page sent, a message posted) runs in a span of its
// own, named after the plugin and the function: the calls that leave for outside systems show in
// the trace of the job or request that made them.
import { inSpan, SpanKind } from '../lib/telemetry/tracing.ts';
import type { Plugin } from './types.ts';

const traced = new WeakMap<Plugin, Plugin>();

/** `plugin` with each of its functions wrapped in a span (made once per plugin). */
export function tracedPlugin<P extends Plugin>(plugin: P): P {
  let out = traced.get(plugin);
  if (!out) {
    // Whatever is not wrapped (fields, a class's methods) is read from the plugin itself.
    const wrapped = Object.create(plugin) as Record<string, unknown>;
    for (const [key, value] of Object.entries(plugin)) {
      if (typeof value !== 'function') continue;
      const attributes = { 'muster.plugin': plugin.slug, 'muster.plugin.function': key };
      wrapped[key] = (...args: unknown[]) =>
        inSpan(`plugin ${plugin.slug}.${key}`, { kind: SpanKind.CLIENT, attributes }, () => (value as (...a: unknown[]) => unknown).apply(plugin, args));
    }
    out = wrapped as unknown as Plugin;
    traced.set(plugin, out);
  }
  return out as P;
}
