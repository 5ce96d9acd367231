// What an update of an incident or a case does to its fields and links, recorded as it goes so that
// the timeline says what changed: resolve everything the body names, diff it against the stored row,
// apply the differences, log them.
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { validationError } from '../../server/errors.ts';
import { logEvents } from '../event/service.ts';
import { ownerOf, type RecordKind, type RecordRows } from './kind.ts';
import { visibleAmong } from './visibility.ts';

/** How a value reads in the timeline. */
export const show = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? 'none' : String(v));

/** A date-time of a body: undefined when absent, null when cleared. */
export const iso = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

const ascending = (list: number[]) => [...list].sort((a, b) => a - b);
export const sameSet = (a: number[], b: number[]) => {
  const x = ascending(a);
  const y = ascending(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

const notEmpty = (field: string) => ({ loc: ['body', field], msg: 'must not be empty string', type: 'value_error', ctx: { msg: 'must not be empty string' } });

/** Title and description must say something; a description must be given. */
export function checkText(body: { title: string; description?: string | null }) {
  const items = [];
  if (body.title.trim() === '') items.push(notEmpty('title'));
  if (body.description === undefined || body.description === null)
    items.push({ loc: ['body', 'description'], msg: 'field required', type: 'value_error.missing' });
  else if (body.description.trim() === '') items.push(notEmpty('description'));
  if (items.length) throw validationError(items);
}

export type ChangeType = 'Field updated' | 'Assessment updated';

export interface Change {
  field: string;
  label: string;
  type: ChangeType;
  previous: unknown;
  current: unknown;
  /** The timeline's words, where the kind does not derive them from the rest. */
  description?: string;
}

/**
 * The differences between a stored row and what an update asks for: `values` to write and the
 * `log` of what changed, in the order found.
 */
export class Changes<Row extends object, Values extends object> {
  readonly values: Partial<Values> = {};
  readonly log: Change[] = [];

  constructor(readonly row: Row) {}

  /** A plain field: taken and logged when given and different from the stored value. */
  field<K extends keyof Row & keyof Values & string>(field: K, value: Values[K] | undefined, label = field.replace(/_/g, ' ')) {
    if (value === undefined) return;
    const previous = this.row[field] as unknown;
    const same = previous instanceof Date && value instanceof Date ? previous.getTime() === value.getTime() : previous === value;
    if (same) return;
    this.values[field] = value;
    this.log.push({ field, label, type: 'Field updated', previous, current: value });
  }

  /** A value to write that the log words itself (or not at all). */
  set<K extends keyof Values>(field: K, value: Values[K]) {
    this.values[field] = value;
  }

  note(change: Change) {
    this.log.push(change);
  }

  /** Drops what was logged for `field` (a transition's own stamp replaces the body's). */
  forget(field: string) {
    this.log.splice(0, this.log.length, ...this.log.filter((c) => c.field !== field));
  }

  /** The stored row with what has been taken so far. */
  get current(): Row {
    return { ...this.row, ...this.values };
  }
}

/** A many-to-many link of a record: `table` rows (`owner`, `other`). */
export interface LinkSpec {
  table: PgTable;
  owner: PgColumn;
  other: PgColumn;
  /** When the linked records are incidents or cases: links the caller may not see stay. */
  hidden?: RecordRows;
}

/** The ids the record links to, ascending. */
export async function linkedIds(tx: Executor, link: LinkSpec, id: number): Promise<number[]> {
  const rows = await tx.select({ id: link.other }).from(link.table).where(eq(link.owner, id));
  return ascending(rows.map((r) => r.id as number));
}

/**
 * Replaces the record's links with `ids`. Links to records the caller may not see stay: a list
 * the caller was shown without them must not remove them. Returns the visible links before and
 * after, or nothing when they did not change.
 */
export async function replaceLinks(
  tx: Executor,
  ctx: Ctx,
  link: LinkSpec,
  id: number,
  ids: number[],
): Promise<{ previous: number[]; current: number[] } | undefined> {
  const linked = await linkedIds(tx, link, id);
  const seen = link.hidden ? new Set(await visibleAmong(tx, ctx, link.hidden, linked)) : new Set(linked);
  const previous = linked.filter((x) => seen.has(x));
  if (sameSet(previous, ids)) return undefined;
  const keep = [...new Set([...ids, ...linked.filter((x) => !seen.has(x))])];
  await tx.delete(link.table).where(eq(link.owner, id));
  if (keep.length) await tx.insert(link.table).values(keep.map((other) => ({ [link.owner.name]: id, [link.other.name]: other })));
  return { previous, current: ids };
}

/** The timeline events of an update's changes, worded by the kind's `describe`, in one statement. */
export async function logChanges(tx: Executor, ctx: Ctx, kind: RecordKind, id: number, log: Change[], describe: (change: Change) => string): Promise<void> {
  await logEvents(
    tx,
    ctx,
    log.map((e) => ({
      record: ownerOf(kind, id),
      description: describe(e),
      type: e.type,
      details: { field: e.field, previous: show(e.previous), current: show(e.current) },
    })),
  );
}
