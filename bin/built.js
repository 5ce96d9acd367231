// Whether dist/ (npm run build, which npm's prepare runs) holds a current build of src/: the program's
// one file (bin/build.js) written after every source file but the tests last changed. An edit since
// the build, a new file or no build at all make it stale.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

function current(built) {
  let builtAt;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    return false;
  }
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    const name = entry.name;
    if (!entry.isFile() || !name.endsWith('.ts') || name.endsWith('.test.ts') || name.endsWith('.d.ts')) continue;
    if (builtAt < statSync(join(entry.parentPath, name)).mtimeMs) return false;
  }
  return true;
}

/** The URL of dist/<name>.js when it is current, else undefined. */
export function builtModule(name) {
  const built = join(DIST, `${name}.js`);
  return current(built) ? new URL(`../dist/${name}.js`, import.meta.url).href : undefined;
}
