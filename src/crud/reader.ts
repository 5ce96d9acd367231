// Read objects of a group: the row's columns with its project, references, links and children nested, each
// kind loaded in one query per response (never one per row).
import { getTableName, inArray, sql } from 'drizzle-orm';
import { PgTransaction, type PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/connection.ts';
import { readColumns } from '../db/columns.ts';
import { project } from '../domains/project/table.ts';
import { column, type GroupDef, type Reader } from './group.ts';

type Rows = Record<string, unknown>[];

/**
 * `SELECT <selection> FROM <table> WHERE <key> = ANY(ids)`, prepared once per database: nested reads
 * run on every response, and building the query each time costs more than running it. Inside a
 * transaction (short-lived, one connection) the query runs unprepared.
 */
function selectWhereIn(table: PgTable, selection: Record<string, unknown>, key: string): (db: Executor, ids: number[]) => Promise<Rows> {
  const base = (db: Executor) => db.select(selection as never).from(table);
  const query = (db: Executor) => base(db).where(sql`${column(table, key)} = ANY(${sql.placeholder('ids')})`);
  const prepared = new WeakMap<Executor, ReturnType<ReturnType<typeof query>['prepare']>>();
  const name = `muster_${getTableName(table)}_by_${key}_${Object.keys(selection).length}`;
  return async (db, ids) => {
    if (ids.length === 0) return [];
    if (inTransaction(db)) return (await base(db).where(inArray(column(table, key), ids))) as Rows;
    let statement = prepared.get(db);
    if (!statement) prepared.set(db, (statement = query(db).prepare(name)));
    return (await statement.execute({ ids })) as Rows;
  };
}

/** The columns of the rows with these ids, nothing nested. */
export function shallowReader(table: PgTable): Reader {
  const select = selectWhereIn(table, readColumns(table), 'id');
  return async (db, ids) => new Map((await select(db, [...new Set(ids)])).map((r) => [r.id as number, r]));
}

/** A transaction's one connection takes one query at a time and is short-lived. */
const inTransaction = (db: Executor) => db instanceof PgTransaction;

const pairQueries = new Map<string, ReturnType<typeof selectWhereIn>>();
/** (owner, other) id pairs of a link table, or (parent, child) of a child table, by owner. */
function pairsOf(table: PgTable, owner: string, other: string) {
  const key = `${getTableName(table)}.${owner}.${other}`;
  let q = pairQueries.get(key);
  if (!q) pairQueries.set(key, (q = selectWhereIn(table, { owner: column(table, owner), other: column(table, other) }, owner)));
  return q;
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
  const reader: Reader = async (db, ids) => nestInto(db, def, await own(db, ids));
  readers.set(def, reader);
  return reader;
}

/** Nests the project, references, links and children into rows that hold the group's columns. */
async function nestInto(db: Executor, def: ReadDef, rows: Map<number, Record<string, unknown>>) {
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
        const pairs = (await pairsOf(link.table, link.ownerColumn, link.otherColumn)(db, rowIds)) as { owner: number; other: number }[];
        await nestMany(field, pairs, link.read?.() ?? shallowReader(link.target.table));
      });
    }
    for (const [field, child] of Object.entries(def.children ?? {})) {
      steps.push(async () => {
        const pairs = (await pairsOf(child.table, child.column, 'id')(db, rowIds)) as { owner: number; other: number }[];
        await nestMany(field, pairs, child.read?.() ?? shallowReader(child.table));
      });
    }
    if (inTransaction(db)) for (const step of steps) await step();
    else await Promise.all(steps.map((step) => step()));
    await def.hooks?.afterRead?.(db, items);
    return rows;
}

/** Read objects for rows already selected with the group's columns (a list page), in their order. */
export async function readRows(db: Executor, def: ReadDef, rows: { id: number }[]) {
  await nestInto(db, def, new Map(rows.map((r) => [r.id, r as Record<string, unknown>])));
  return rows as Record<string, unknown>[];
}
