// The records not every member of an organization sees, by table. A table's rule is registered
// where the table is declared (incidents and cases: domains/lifecycle/table.ts), so it is known
// before any query can name the table. The readers (crud/reader.ts) and the list engine (list/) look
// a table up here, whatever alias it goes by, so that every nested read, every join and every
// filter through a related model sees only the rows the viewer may see.
import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { termsOf, UNRESTRICTED, type Viewer, type ViewerTerms } from './viewer.ts';

/** The condition that a row of `table` (the registered table or an alias of it) is one the viewer, given as terms, may see. */
export type RowRule = (table: PgTable, terms: ViewerTerms) => SQL;

const RULES = new Map<string, RowRule>();

/** Declares that rows of the table named `name` are seen only as `rule` says. */
export function restrictRows(name: string, rule: RowRule): void {
  RULES.set(name, rule);
}

/** The table's own name, also through an alias (`instance_case` is `case`). */
const ORIGINAL_NAME = Symbol.for('drizzle:OriginalName');
const originalName = (table: PgTable) => (table as unknown as Record<symbol, string>)[ORIGINAL_NAME];

/** The rule of `table` (or an alias of it) as a function of the viewer's terms; undefined when every member sees all its rows. */
export function ruleOf(table: PgTable): ((terms: ViewerTerms) => SQL) | undefined {
  const rule = RULES.get(originalName(table));
  return rule && ((terms) => rule(table, terms));
}

/** The condition that a row of `table` (or an alias of it) is one `viewer` may see; undefined when nothing narrows it. */
export function visibleRows(table: PgTable, viewer: Viewer) {
  if (viewer === UNRESTRICTED) return undefined;
  return ruleOf(table)?.(termsOf(viewer));
}
