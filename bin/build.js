// Builds dist/cli/main.js (npm run build, which npm's prepare runs): the `muster` program in one
// JavaScript file, our sources and the pure-JavaScript packages they import, written by esbuild (a
// dependency, not a development one, since npm's prepare runs in production installs too). One file
// instead of the ~2,800 modules Node would otherwise find, read and link on every start: Node 22 and later
// re-read and parse a package's package.json on module lookups, which made a start cost 2 CPU-s.
// No type check here (npm run typecheck does that).
import { build } from 'esbuild';

/**
 * Packages loaded from node_modules at run time instead: those that read files beside their own
 * code (PGlite's and pg_dump's WebAssembly and data, the API docs' static pages), drizzle-kit (only
 * `database revision --autogenerate` loads it, and it is large), the vendors' clients that only a
 * configured plugin loads, PagerDuty's (its fetch polyfill uses `punycode` and `new Buffer`, which
 * Node warns about on stderr when the caller is outside node_modules), and pg's optional native
 * binding.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@electric-sql/pglite-tools',
  '@electric-sql/pglite-tools/*',
  '@fastify/swagger-ui',
  'drizzle-kit',
  'drizzle-kit/*',
  '@azure/msal-node',
  '@googleapis/*',
  'google-auth-library',
  'jira.js',
  '@pagerduty/pdjs',
  'pg-native',
];

await build({
  absWorkingDir: new URL('..', import.meta.url).pathname,
  entryPoints: ['src/cli/main.ts'],
  // At the depth of its source, so that paths our code finds from its own location (the revisions,
  // the web UI's files, the sources a reloading server watches) are the same from the build.
  outfile: 'dist/cli/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: EXTERNAL,
  // Class and function names as written, for the errors and logs that show them.
  keepNames: true,
  // The CommonJS packages in the bundle call `require` for Node's own modules and for the
  // packages above.
  banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
