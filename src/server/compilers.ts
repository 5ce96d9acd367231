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

function remembered(factory: CompilerFactory): CompilerFactory {
  const compiled = new Map<string, unknown>();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const context = `${JSON.stringify(externalSchemas)}\n${JSON.stringify(options)}\n`;
    return (route) => {
      const key = context + JSON.stringify(route.schema);
      let fn = compiled.get(key);
      if (fn === undefined) compiled.set(key, (fn = compile(route)));
      return fn;
    };
  };
}

/** Fastify's `schemaController.compilersFactory`. */
export const compilersFactory = {
  buildValidator: remembered((fromFastify('@fastify/ajv-compiler') as () => CompilerFactory)()),
  buildSerializer: remembered((fromFastify('@fastify/fast-json-stringify-compiler') as () => CompilerFactory)()),
} as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];
