// Loading the server's commands must not load node:domain (node:repl does): with it, every event
// emitter of the process (each request's, each socket's) pays for domains when made and at every event.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

it('the server commands load no node:domain', () => {
  const script = `await import(${JSON.stringify(SERVER)}); console.log(process.moduleLoadList.includes('NativeModule domain'));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(out.trim()).toBe('false');
});
