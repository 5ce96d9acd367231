// Schema revisions, Alembic style: each revision is a folder under revisions/ with meta.json
// ({revision, down_revision, message}), up.sql, down.sql and the schema snapshot after it.
// Statements are separated by `--> statement-breakpoint` lines because PGlite runs one per call.
// The applied heads are kept in table muster_revision.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database } from './connection.ts';

// In the sources, also when this runs from their build in dist/ (which has the same depth).
export const REVISIONS_DIR = fileURLToPath(new URL('../../src/db/revisions', import.meta.url));
export const BREAKPOINT = '--> statement-breakpoint';
const LOCK_KEY = 7_357_113; // any constant: serialises migrations of nodes starting together

export interface Revision {
  revision: string;
  down: string[];
  message: string;
  created: string;
  dir: string;
}

export class RevisionError extends Error {}

export function loadRevisions(dir = REVISIONS_DIR): Map<string, Revision> {
  const out = new Map<string, Revision>();
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const metaFile = join(dir, name, 'meta.json');
    if (!existsSync(metaFile)) continue;
    const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
    const down = meta.down_revision == null ? [] : [].concat(meta.down_revision);
    out.set(meta.revision, { revision: meta.revision, down, message: meta.message ?? '', created: meta.created ?? '', dir: join(dir, name) });
  }
  for (const r of out.values()) {
    for (const d of r.down) if (!out.has(d)) throw new RevisionError(`Revision ${r.revision} names unknown parent ${d}`);
  }
  return out;
}

export function heads(revs: Map<string, Revision>): string[] {
  const parents = new Set([...revs.values()].flatMap((r) => r.down));
  return [...revs.keys()].filter((k) => !parents.has(k));
}

/** The revision and all it stands on. */
export function ancestors(revs: Map<string, Revision>, ids: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...ids];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    const rev = revs.get(id);
    if (!rev)
      throw new RevisionError(
        `The database is at revision ${id}, which this version of Muster does not know; install the version that wrote it, or stamp a known revision`,
      );
    seen.add(id);
    stack.push(...rev.down);
  }
  return seen;
}

/** Parents before children, ties in id order, so the order is the same on every machine. */
export function topoOrder(revs: Map<string, Revision>, subset: Set<string>): string[] {
  const order: string[] = [];
  const done = new Set<string>();
  const visit = (id: string) => {
    if (done.has(id)) return;
    done.add(id);
    for (const d of revs.get(id)!.down) if (subset.has(d)) visit(d);
    order.push(id);
  };
  [...subset].sort().forEach(visit);
  return order;
}

export function statements(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split(BREAKPOINT)
    .map((s) => s.trim())
    .filter((s) => s.replace(/^--.*$/gm, '').trim().length > 0);
}

/** Resolves `head`, `heads`, `base`, a full id or a unique prefix of one. */
export function resolveRevision(revs: Map<string, Revision>, name: string): string | null {
  if (name === 'base') return null;
  if (name === 'head' || name === 'heads') {
    const h = heads(revs);
    if (h.length !== 1) throw new RevisionError(`There are ${h.length} heads (${h.join(', ')}); merge them or name one`);
    return h[0];
  }
  const found = [...revs.keys()].filter((k) => k.startsWith(name));
  if (found.length !== 1) throw new RevisionError(found.length ? `Revision prefix ${name} is ambiguous` : `No revision named ${name}`);
  return found[0];
}

async function ensureVersionTable(database: Database) {
  await database.query('CREATE TABLE IF NOT EXISTS muster_revision (version_num text PRIMARY KEY)');
}

/** The applied heads; reading them leaves a database without the revision table untouched. */
export async function currentRevisions(database: Database): Promise<string[]> {
  const [found] = await database.query<{ t: string | null }>(`SELECT to_regclass('muster_revision')::text AS t`);
  if (!found?.t) return [];
  const rows = await database.query<{ version_num: string }>('SELECT version_num FROM muster_revision ORDER BY version_num');
  return rows.map((r) => r.version_num);
}

type Step = { revision: Revision; direction: 'up' | 'down' };

async function applyStep(database: Database, revs: Map<string, Revision>, step: Step, log: (m: string) => void) {
  const { revision: r, direction } = step;
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
    // Re-read under the lock: another node may have applied this step meanwhile.
    const rows = await tx.execute(sql`SELECT version_num FROM muster_revision`);
    const applied = ancestors(
      revs,
      rows.rows.map((x) => (x as { version_num: string }).version_num),
    );
    if ((direction === 'up') === applied.has(r.revision)) return;
    for (const stmt of statements(join(r.dir, `${direction}.sql`))) await tx.execute(sql.raw(stmt));
    const [removed, added] = direction === 'up' ? [r.down, [r.revision]] : [[r.revision], r.down];
    for (const v of removed) await tx.execute(sql`DELETE FROM muster_revision WHERE version_num = ${v}`);
    for (const v of added) {
      // A parent stays implied while another applied child still stands on it.
      const current = (await tx.execute(sql`SELECT version_num FROM muster_revision`)).rows.map((x) => (x as { version_num: string }).version_num);
      if (!ancestors(revs, current).has(v)) await tx.execute(sql`INSERT INTO muster_revision (version_num) VALUES (${v})`);
    }
  });
  log(`${direction === 'up' ? 'Upgraded to' : 'Downgraded from'} ${r.revision} (${r.message})`);
}

export async function upgrade(database: Database, target = 'heads', log: (m: string) => void = () => {}): Promise<number> {
  const revs = loadRevisions();
  await ensureVersionTable(database);
  const goal = target === 'heads' ? new Set(heads(revs)) : new Set([resolveRevision(revs, target)].filter((x): x is string => !!x));
  const wanted = ancestors(revs, goal);
  const applied = ancestors(revs, await currentRevisions(database));
  const todo = topoOrder(revs, new Set([...wanted].filter((id) => !applied.has(id))));
  for (const id of todo) await applyStep(database, revs, { revision: revs.get(id)!, direction: 'up' }, log);
  return todo.length;
}

/** Steps back one revision by default, or down to `target` (`base` removes everything). */
export async function downgrade(database: Database, target?: string, log: (m: string) => void = () => {}): Promise<number> {
  const revs = loadRevisions();
  const current = await currentRevisions(database);
  const applied = ancestors(revs, current);
  let keep: Set<string>;
  if (target === undefined || target === '-1') {
    if (current.length === 0) throw new RevisionError('The database is at base; nothing to downgrade');
    if (current.length > 1) throw new RevisionError(`The database has ${current.length} heads (${current.join(', ')}); name the revision to go down to`);
    keep = ancestors(revs, revs.get(current[0])!.down);
  } else {
    const t = resolveRevision(revs, target);
    keep = t ? ancestors(revs, [t]) : new Set();
    if (t && !applied.has(t)) throw new RevisionError(`Revision ${t} is not applied; nothing to downgrade to`);
  }
  const undo = topoOrder(revs, new Set([...applied].filter((id) => !keep.has(id)))).reverse();
  for (const id of undo) await applyStep(database, revs, { revision: revs.get(id)!, direction: 'down' }, log);
  return undo.length;
}

/** Records `target` as the applied revision without running any SQL. */
export async function stamp(database: Database, target: string): Promise<void> {
  const revs = loadRevisions();
  const ids = target === 'heads' ? heads(revs) : [resolveRevision(revs, target)].filter((x): x is string => !!x);
  await ensureVersionTable(database);
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM muster_revision`);
    for (const id of ids) await tx.execute(sql`INSERT INTO muster_revision (version_num) VALUES (${id})`);
  });
}
