// npm's prepare (npm ci and npm install in this directory): builds dist/ (npm run build). An install
// without the development dependencies has no TypeScript to build with; bin/muster.js then runs the
// sources through tsx.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.log('muster: no TypeScript installed (development dependencies omitted); dist/ is not built');
  process.exit(0);
}
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
