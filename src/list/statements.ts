// A list's statements, built once and prepared. What a list query compiles to (its conditions, order
// and joins) does not depend on the page asked for: the page's limit and offset, and the mark a deep
// page starts from, are placeholders, so each statement of a list shape is built once (engine.ts
// keeps the shapes) and only its values change from one page to the next. Each is prepared by name
// on every connection it runs on and planned once there (generic plans, db/connection.ts), where an
// unnamed statement is parsed and planned again at every page.
//
// The names come from the text, so a shape built again reuses its statements. What clients send
// decides how many texts there are, and every named statement stays with its connection: only the
// first MOST_NAMED texts of a process are prepared by name, later ones run unnamed, as every list
// statement did before.
import type { PgSelect } from 'drizzle-orm/pg-core';
import { type Executor, statementHome } from '../db/connection.ts';
import { nameOf } from '../db/statements.ts';

/** The most texts a process prepares by name: a list statement is small (about 60 KB of plan per connection). */
export const MOST_NAMED = 64;

const named = new Set<string>();

/** The name `text` is prepared under, or undefined once MOST_NAMED other texts have taken theirs. */
function nameFor(text: string): string | undefined {
  if (!named.has(text)) {
    if (named.size >= MOST_NAMED) return undefined;
    named.add(text);
  }
  return nameOf(text);
}

/** A statement as drizzle prepares it: its rows, as the query builder maps them, for the placeholders' values. */
export interface Prepared {
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

/**
 * One statement of a list shape, prepared once per connection it runs on (a pool, a transaction's
 * client, the embedded database): `build` makes its query on a handle of that connection. An
 * unnamed one is kept per handle instead: on the embedded database it is bound to the transaction
 * it was made in.
 */
export function preparedStatement(build: (db: Executor) => PgSelect): (db: Executor) => Prepared {
  const kept = new WeakMap<object, Prepared>();
  let name: string | undefined | null = null;
  return (db) => {
    const home = name === undefined ? db : statementHome(db);
    let prepared = kept.get(home);
    if (!prepared) {
      const query = build(db);
      if (name === null) name = nameFor(query.toSQL().sql);
      prepared = query.prepare(name as string) as Prepared;
      kept.set(name === undefined ? db : home, prepared);
    }
    return prepared;
  };
}
