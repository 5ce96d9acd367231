// The statements that write given tables, on the embedded database. The process that owns the
// embedded database runs every statement anyone makes on it (requests, jobs, the scheduler, an
// import), through one connection, so a value it keeps from a few tables (the callers of
// domains/auth/caller-cache.ts) can be dropped by the statement that changes one of them, before
// that statement's caller goes on. A statement is known by its text: INSERT INTO, UPDATE, DELETE
// FROM or TRUNCATE naming the table, anywhere in it (a CTE's too); a false alarm only drops the
// value once more. Rows that cascade from a write of another table are not seen: watch the tables
// they cascade from as well.
import type { PGlite } from '@electric-sql/pglite';

interface Watch {
  tables: Set<string>;
  onWrite: () => void;
}

const watching = new WeakMap<PGlite, Set<Watch>>();
/** What a named statement writes, decided once per name (its text does not change). */
const namedWrites = new WeakMap<Watch, Map<string, boolean>>();

/** The table each INSERT INTO, UPDATE, DELETE FROM or TRUNCATE of a statement names (quoted or not, maybe in schema public). */
const WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?(?:"?public"?\.)?("?)([a-z0-9_]+)\1(?![a-z0-9_.])/gi;

/** Calls `onWrite` after each statement on `pglite` that writes one of `tables` (once it has run, whether or not its transaction commits). Returns the way to stop. */
export function watchWrites(pglite: PGlite, tables: string[], onWrite: () => void): () => void {
  const watch: Watch = { tables: new Set(tables.map((t) => t.toLowerCase())), onWrite };
  let set = watching.get(pglite);
  if (!set) watching.set(pglite, (set = new Set()));
  set.add(watch);
  return () => set.delete(watch);
}

function writesTo(watch: Watch, text: string): boolean {
  for (const m of text.matchAll(WRITE)) if (watch.tables.has(m[2].toLowerCase())) return true;
  return false;
}

/** Tells the watches of `pglite` that `text` (the statement prepared as `name`, if named) has run. */
export function ranStatement(pglite: PGlite, text: string, name?: string): void {
  const set = watching.get(pglite);
  if (!set?.size) return;
  for (const watch of set) {
    let writes: boolean | undefined;
    if (name) {
      let byName = namedWrites.get(watch);
      if (!byName) namedWrites.set(watch, (byName = new Map()));
      writes = byName.get(name);
      if (writes === undefined) byName.set(name, (writes = writesTo(watch, text)));
    } else writes = writesTo(watch, text);
    if (writes) watch.onWrite();
  }
}
