// Fastify's own schema compilers (Ajv for requests, fast-json-stringify for responses), remembering
// what they compiled for the whole process: building an application compiles some 500 route
// schemas, seconds of CPU, and an application built again in the same process (every test file
// builds one) then compiles none of them again. A compiled function depends only on the schema's
// JSON and the compiler's options and shared schemas, which is what it is remembered by.
// (With its own factory in place Fastify no longer lower-cases a route's `headers` schema; no route
// declares one.)
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type RouteCompiler = (route: { schema: object }) => unknown;
type CompilerFactory = (externalSchemas: unknown, options: unknown) => RouteCompiler;

// The compilers Fastify itself depends on, in the versions it was released with.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/** A compiled route schema: Ajv's validate function (`errors` after a failure) or a serializer. */
type Compiled = ((...args: unknown[]) => unknown) & { errors?: unknown };

/**
 * A stand-in that compiles on its first call: a server answers a few dozen of its ~500 routes in its
 * first minutes, so compiling all of them at start-up (about 3 s of CPU) mostly buys nothing.
 * Fastify reads a validator's `errors` after a failed call, and passes Ajv validators their parent
 * (so coercion can replace a whole query string value) only when `schemaEnv` is set.
 */
function onFirstCall(compile: () => Compiled): Compiled {
  let fn: Compiled | undefined;
  const lazy: Compiled & { schemaEnv?: boolean } = (...args: unknown[]) => {
    fn ??= compile();
    const result = fn(...args);
    lazy.errors = fn.errors;
    return result;
  };
  lazy.schemaEnv = true;
  pending.push(() => {
    fn ??= compile();
  });
  return lazy;
}

/** Compilations not yet made (see compileEverySchema). */
const pending: Array<() => void> = [];

/** Compiles every route schema not yet compiled: a schema that cannot compile fails here, not on a request. */
export function compileEverySchema() {
  for (const compile of pending.splice(0)) compile();
}

function remembered(factory: CompilerFactory): CompilerFactory {
  const compiled = new Map<string, Compiled>();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const context = `${JSON.stringify(externalSchemas)}\n${JSON.stringify(options)}\n`;
    return (route) => {
      const key = context + JSON.stringify(route.schema);
      let fn = compiled.get(key);
      if (fn === undefined) compiled.set(key, (fn = onFirstCall(() => compile(route) as Compiled)));
      return fn;
    };
  };
}

/** Fastify's `schemaController.compilersFactory`. */
export const compilersFactory = {
  buildValidator: remembered((fromFastify('@fastify/ajv-compiler') as () => CompilerFactory)()),
  buildSerializer: remembered((fromFastify('@fastify/fast-json-stringify-compiler') as () => CompilerFactory)()),
} as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];
