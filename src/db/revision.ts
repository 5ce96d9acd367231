// Writing new revisions: `database revision [--autogenerate]` and `database merge`.
// Autogenerate compares the schema snapshot stored with the head revision to the tables declared
// in the domains' table.ts files, with drizzle-kit's API, in both directions (up and down).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { BREAKPOINT, heads, loadRevisions, REVISIONS_DIR, RevisionError, type Revision } from './migrate.ts';

type Snapshot = Record<string, unknown> & { id: string };

async function drizzleKit() {
  return import('drizzle-kit/api');
}

async function snapshotOf(rev: Revision | undefined): Promise<Snapshot> {
  const { generateDrizzleJson } = await drizzleKit();
  if (rev && existsSync(join(rev.dir, 'snapshot.json'))) return JSON.parse(readFileSync(join(rev.dir, 'snapshot.json'), 'utf8'));
  return generateDrizzleJson({}) as unknown as Snapshot;
}

function slugOf(message: string) {
  return (
    message
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
      .slice(0, 40) || 'revision'
  );
}

function writeRevision(dir: string, parents: string[], message: string, up: string[], down: string[], snapshot: Snapshot): Revision {
  const revisions = loadRevisions(dir);
  const revision = randomBytes(6).toString('hex');
  // After the highest number, not the count: a folder of revisions may have gaps (one removed, or
  // numbered apart on two branches), and a count would then name a number already taken.
  const highest = Math.max(0, ...[...revisions.values()].map((r) => Number.parseInt(basename(r.dir), 10) || 0));
  const seq = String(highest + 1).padStart(4, '0');
  const folder = join(dir, `${seq}_${revision}_${slugOf(message)}`);
  mkdirSync(folder, { recursive: true });
  const created = new Date().toISOString();
  const meta = { revision, down_revision: parents.length === 0 ? null : parents.length === 1 ? parents[0] : parents, message, created };
  writeFileSync(join(folder, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  const body = (stmts: string[]) => (stmts.length ? `${stmts.map((s) => s.trim()).join(`\n${BREAKPOINT}\n`)}\n` : '-- no statements\n');
  writeFileSync(join(folder, 'up.sql'), body(up));
  writeFileSync(join(folder, 'down.sql'), body(down));
  writeFileSync(join(folder, 'snapshot.json'), `${JSON.stringify({ ...snapshot, id: revision }, null, 2)}\n`);
  return { revision, down: parents, message, created, dir: folder };
}

/**
 * A new revision after the current head. With `tables` (every Drizzle table of the application),
 * its up and down SQL are what moves the schema from the head's snapshot to those tables.
 */
export async function createRevision(
  message: string,
  tables: Record<string, unknown> | undefined,
  dir = REVISIONS_DIR,
): Promise<Revision & { up: number; downCount: number }> {
  const revs = loadRevisions(dir);
  const parents = heads(revs);
  if (parents.length > 1) throw new RevisionError(`There are ${parents.length} heads (${parents.join(', ')}); run \`muster database merge\` first`);
  const prev = await snapshotOf(revs.get(parents[0]));
  let up: string[] = [];
  let down: string[] = [];
  let next = prev;
  if (tables) {
    const { generateDrizzleJson, generateMigration } = await drizzleKit();
    next = generateDrizzleJson(tables, prev.id) as unknown as Snapshot;
    up = await generateMigration(prev, next);
    down = await generateMigration(next, { ...prev, prevId: next.id });
  }
  const r = writeRevision(dir, parents, message, up, down, next);
  return { ...r, up: up.length, downCount: down.length };
}

/** A revision with no statements whose parents are the given heads (all of them by default). */
export async function mergeHeads(message: string, revisionIds?: string[], dir = REVISIONS_DIR): Promise<Revision> {
  const revs = loadRevisions(dir);
  const parents = revisionIds?.length ? revisionIds : heads(revs);
  if (parents.length < 2) throw new RevisionError('Nothing to merge: there is only one head');
  for (const p of parents) if (!revs.has(p)) throw new RevisionError(`No revision named ${p}`);
  // The merged snapshot is the newest parent's: drizzle-kit snapshots describe the whole schema.
  const newest = parents
    .map((p) => revs.get(p)!)
    .sort((a, b) => a.created.localeCompare(b.created))
    .at(-1);
  return writeRevision(dir, parents, message, [], [], await snapshotOf(newest));
}
