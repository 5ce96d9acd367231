// Whether dist/ (npm run build, which npm's prepare runs) holds a current compile of src/: every
// source file but the tests has its JavaScript there, written after the source last changed. An
// edit since the build, a new file or no build at all make it stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

function current() {
  if (!existsSync(DIST)) return false;
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    const name = entry.name;
    if (!entry.isFile() || !name.endsWith('.ts') || name.endsWith('.test.ts') || name.endsWith('.d.ts')) continue;
    const source = join(entry.parentPath, name);
    const built = join(DIST, `${source.slice(SRC.length, -3)}.js`);
    let builtAt;
    try {
      builtAt = statSync(built).mtimeMs;
    } catch {
      return false;
    }
    if (builtAt < statSync(source).mtimeMs) return false;
  }
  return true;
}

/** The URL of dist/<name>.js when dist/ is current, else undefined. */
export function builtModule(name) {
  return current() ? new URL(`../dist/${name}.js`, import.meta.url).href : undefined;
}
