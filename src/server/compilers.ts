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

/**
 * A property schema longer than this (in JSON) is validated by a function of its own. The read
 * objects a body may carry back (a signal instance's `case`, some 260 KB of schema) make one
 * validator of several megabytes of code, which V8 never optimizes: every request then ran it in
 * the interpreter, about 0.1 ms per signal instance that sends none of them back.
 */
const OWN_FUNCTION_CHARS = 20_000;

/** Ajv's validation context, which its functions take as their second argument. */
interface DataContext {
  instancePath?: string;
  rootData?: unknown;
}

type SchemaObject = { properties?: Record<string, { default?: unknown }> };

/**
 * Validators whose large properties are checked by functions of their own, only when present:
 * the rest of the object is one small function, which V8 optimizes. The same checks, defaults
 * and coercions as one function, and errors at the same paths.
 */
function largePropertiesApart(factory: CompilerFactory): CompilerFactory {
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      const schema = route.schema as SchemaObject;
      const large = Object.entries(schema.properties ?? {}).filter(([, s]) => JSON.stringify(s).length > OWN_FUNCTION_CHARS);
      if (large.length === 0) return compile(route);
      // Where it stood, a large property keeps its default (Ajv fills it in) and accepts anything.
      const stand = Object.fromEntries(large.map(([key, s]) => [key, 'default' in s ? { default: s.default } : {}]));
      const rest = compile({ ...route, schema: { ...schema, properties: { ...schema.properties, ...stand } } }) as Compiled;
      const apart = large.map(([key, s]) => [key, compile({ ...route, schema: s }) as Compiled] as const);
      const validate: Compiled = (data: unknown, context?: unknown) => {
        const ctx = (context ?? {}) as DataContext;
        let valid = rest(data, context) as boolean;
        const errors = valid ? [] : [...((rest.errors as unknown[]) ?? [])];
        if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
          const object = data as Record<string, unknown>;
          for (const [key, check] of apart) {
            if (object[key] === undefined) continue;
            const at = { instancePath: `${ctx.instancePath ?? ''}/${key}`, parentData: object, parentDataProperty: key, rootData: ctx.rootData ?? data };
            if (check(object[key], at)) continue;
            valid = false;
            errors.push(...((check.errors as unknown[]) ?? []));
          }
        }
        validate.errors = valid ? null : errors;
        return valid;
      };
      return validate;
    };
  };
}

/** Fastify's `schemaController.compilersFactory`. */
export const compilersFactory = {
  buildValidator: remembered(largePropertiesApart((fromFastify('@fastify/ajv-compiler') as () => CompilerFactory)())),
  buildSerializer: remembered((fromFastify('@fastify/fast-json-stringify-compiler') as () => CompilerFactory)()),
} as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];
