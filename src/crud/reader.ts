// Read objects of a group: the row's columns with its project, references, links and children nested, each
// kind loaded in one query per response (never one per row).
import { inArray } from 'drizzle-orm';
import { PgTransaction, type PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/connection.ts';
import { readColumns } from '../db/columns.ts';
import { project } from '../domains/project/table.ts';
import { column, type GroupDef, type Reader } from './group.ts';

/** The columns of the rows with these ids, nothing nested. */
export function shallowReader(table: PgTable): Reader {
  const columns = readColumns(table);
  return async (db, ids) => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = (await db.select(columns as never).from(table).where(inArray(column(table, 'id'), unique))) as Record<string, unknown>[];
    return new Map(rows.map((r) => [r.id as number, r]));
  };
}

export const projectReader = shallowReader(project);

/** What a reader needs of a group: records that are not a CRUD group (participants, incidents) declare only this. */
export type ReadDef = Pick<GroupDef, 'table' | 'projectScoped' | 'refs' | 'links' | 'children' | 'hooks'>;

const readers = new WeakMap<ReadDef, Reader>();

/** The group's full reader: what its get, list, create and update answer with. */
export function groupReader(def: ReadDef): Reader {
  const known = readers.get(def);
  if (known) return known;
  const own = shallowReader(def.table);
  const reader: Reader = async (db, ids) => {
    const rows = await own(db, ids);
    const items = [...rows.values()];
    if (items.length === 0) return rows;
    const nest = async (field: string, fk: string, read: Reader) => {
      const related = await read(db, items.map((i) => i[fk]).filter((v): v is number => typeof v === 'number'));
      for (const item of items) item[field] = typeof item[fk] === 'number' ? (related.get(item[fk] as number) ?? null) : null;
    };
    // Each kind is one query. On the pool they run side by side; inside a transaction they share
    // one connection, which takes one query at a time, so they run in turn.
    const steps: (() => Promise<void>)[] = [];
    if (def.projectScoped !== false) steps.push(() => nest('project', 'project_id', projectReader));
    for (const [field, ref] of Object.entries(def.refs ?? {})) steps.push(() => nest(field, ref.column, ref.read?.() ?? shallowReader(ref.target.table)));
    // Many per row, as (owner, other) id pairs: through a link table, or children holding our id.
    const nestMany = async (field: string, pairs: { owner: number; other: number }[], read: Reader) => {
      const others = await read(db, pairs.map((p) => p.other));
      for (const item of items) item[field] = [];
      for (const p of pairs.sort((a, b) => a.other - b.other)) {
        const other = others.get(p.other);
        if (other) (rows.get(p.owner)![field] as unknown[]).push(other);
      }
    };
    const rowIds = [...rows.keys()];
    for (const [field, link] of Object.entries(def.links ?? {})) {
      steps.push(async () => {
        const pairs = (await db.select({ owner: column(link.table, link.ownerColumn), other: column(link.table, link.otherColumn) })
          .from(link.table).where(inArray(column(link.table, link.ownerColumn), rowIds))) as { owner: number; other: number }[];
        await nestMany(field, pairs, link.read?.() ?? shallowReader(link.target.table));
      });
    }
    for (const [field, child] of Object.entries(def.children ?? {})) {
      steps.push(async () => {
        const pairs = (await db.select({ owner: column(child.table, child.column), other: column(child.table, 'id') })
          .from(child.table).where(inArray(column(child.table, child.column), rowIds))) as { owner: number; other: number }[];
        await nestMany(field, pairs, child.read?.() ?? shallowReader(child.table));
      });
    }
    if (db instanceof PgTransaction) for (const step of steps) await step();
    else await Promise.all(steps.map((step) => step()));
    await def.hooks?.afterRead?.(db, items);
    return rows;
  };
  readers.set(def, reader);
  return reader;
}

/** Read objects for rows already selected, in their order. */
export async function readRows(db: Executor, def: ReadDef, rows: { id: number }[]) {
  const byId = await groupReader(def)(db, rows.map((r) => r.id));
  return rows.map((r) => byId.get(r.id)!).filter(Boolean);
}
