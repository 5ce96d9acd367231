// What a project holds, and the order in which deleting a project removes it. Every table with a
// `project_id` belongs to a project; deleting a project deletes their rows table by table, each
// table before any table its rows (or the rows its deletion cascades to) still point at with a key
// that neither cascades nor clears: an incident's participants point at the project's individual
// contacts, a tag at its tag type, an entity at its entity type. One statement on the project
// alone would leave PostgreSQL to cascade in its own order and fail on those keys.
// The order is read from the tables' declared foreign keys, so a new table takes its place; the
// application computes it once from all its tables (src/app/app.ts).
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { project } from './table.ts';

interface Key {
  from: PgTable;
  to: PgTable;
  /** Deleting the row pointed at is refused while this key points at it. */
  restricts: boolean;
  cascades: boolean;
}

/** Of `declared` (every table of the application), the tables whose rows belong to a project, in the order deleting a project deletes them. */
export function projectHoldings(declared: unknown[]): PgTable[] {
  const tables = declared.filter((v): v is PgTable => is(v, PgTable));
  const keys: Key[] = tables.flatMap((from) =>
    getTableConfig(from).foreignKeys.map((fk) => {
      const onDelete = fk.onDelete ?? 'no action';
      return { from, to: fk.reference().foreignTable, restricts: onDelete === 'no action' || onDelete === 'restrict', cascades: onDelete === 'cascade' };
    }),
  );
  const held = tables.filter((t) => t !== project && getTableConfig(t).columns.some((c) => c.name === 'project_id'));

  // The tables a delete from `table` removes rows of: itself and, through cascading keys, those below it.
  const removedBy = (table: PgTable) => {
    const out = new Set([table]);
    const pending = [table];
    while (pending.length) {
      const t = pending.pop()!;
      for (const k of keys) {
        if (!k.cascades || k.to !== t || out.has(k.from)) continue;
        out.add(k.from);
        pending.push(k.from);
      }
    }
    return out;
  };
  const removed = new Map(held.map((t) => [t, removedBy(t)]));

  // `a` goes before `b` when something a's delete removes holds a restricting key into something b's delete removes.
  const after = new Map(held.map((t) => [t, new Set<PgTable>()]));
  for (const a of held) {
    for (const b of held) {
      if (a === b) continue;
      const ra = removed.get(a)!;
      const rb = removed.get(b)!;
      if (keys.some((k) => k.restricts && ra.has(k.from) && !rb.has(k.from) && rb.has(k.to))) after.get(b)!.add(a);
    }
  }

  // Topological order; tables caught in a cycle (none today) come last, left to PostgreSQL.
  const order: PgTable[] = [];
  const placed = new Set<PgTable>();
  let progress = true;
  while (progress) {
    progress = false;
    for (const t of held) {
      if (placed.has(t) || [...after.get(t)!].some((d) => !placed.has(d))) continue;
      order.push(t);
      placed.add(t);
      progress = true;
    }
  }
  return [...order, ...held.filter((t) => !placed.has(t))];
}
