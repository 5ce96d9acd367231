#!/usr/bin/env node
// Muster ships its TypeScript sources. It runs their JavaScript build (dist/, written by npm's
// prepare) while that is current, which starts faster; otherwise (a source edited since, or no
// build) tsx compiles the sources on load, so a fresh clone or an edit runs without a build step.
import module from 'node:module';
import { builtModule } from './built.js';

// Node keeps the program's compiled code between runs (in the system's temporary directory, or
// NODE_COMPILE_CACHE), so a command does not compile the whole program again each time it starts.
module.enableCompileCache?.();

const built = builtModule('cli/main');
if (built) await import(built);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
