// The records not every member of an organization sees, by table: incidents and cases (their rules
// are in domains/incident/visibility.ts and domains/case/visibility.ts). The readers (crud/reader.ts)
// and the list engine (list/) look a table up here, whatever alias it goes by, so that every nested
// read, every join and every filter through a related model sees only the rows the viewer may see.
import type { PgTable } from 'drizzle-orm/pg-core';
import { caseRule } from '../domains/case/visibility.ts';
import { incidentRule } from '../domains/incident/visibility.ts';
import { termsOf, UNRESTRICTED, type Viewer, type ViewerTerms } from './viewer.ts';

type Rule = (table: never, terms: ViewerTerms) => import('drizzle-orm').SQL;

const RULES: Record<string, Rule> = {
  incident: incidentRule as Rule,
  case: caseRule as Rule,
};

/** The table's own name, also through an alias (`instance_case` is `case`). */
const ORIGINAL_NAME = Symbol.for('drizzle:OriginalName');
const originalName = (table: PgTable) => (table as unknown as Record<symbol, string>)[ORIGINAL_NAME];

/** The rule of `table` (or an alias of it) as a function of the viewer's terms; undefined when every member sees all its rows. */
export function ruleOf(table: PgTable): ((terms: ViewerTerms) => import('drizzle-orm').SQL) | undefined {
  const rule = RULES[originalName(table)];
  return rule && ((terms) => rule(table as never, terms));
}

/** The condition that a row of `table` (or an alias of it) is one `viewer` may see; undefined when nothing narrows it. */
export function visibleRows(table: PgTable, viewer: Viewer) {
  if (viewer === UNRESTRICTED) return undefined;
  return ruleOf(table)?.(termsOf(viewer));
}
