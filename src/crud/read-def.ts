// What a read definition may say beyond its table and the records it names: fields written by SQL
// of its own, and fields its afterRead hook sets. Declared apart from the reader that compiles them
// (crud/reader.ts), so that a group (crud/group.ts) declares them as any read definition does.
import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TSchema } from '@sinclair/typebox';

/** Rows of a subquery: FROM, WHERE and ORDER BY, given the alias of its table. */
export type Rows = (t: PgTable) => { from: SQL; where: SQL; order: SQL };

/** What a def's own fields may use of the statement being built. */
export interface ReadWriter {
  /** `table alias`, for a FROM. */
  from(at: PgTable, table: PgTable): SQL;
  /** Rows of `target` as an array of `shape`'s objects, in order, those the viewer may not see left out. */
  list(target: { table: PgTable; projectScoped?: boolean }, table: PgTable, shape: TSchema, rows: Rows): SQL;
  /** The first row of `target` that `where` picks in `order`, as `shape`'s object; null when none. */
  latest(target: { table: PgTable; projectScoped?: boolean }, shape: TSchema, where: (t: PgTable) => SQL, order: (t: PgTable) => SQL): SQL;
}

/** A field of the def's own: a json expression for the row at `at`. */
export type OwnField = (at: PgTable, read: ReadWriter, shape: TSchema) => SQL;

export interface ReadParts {
  /** Fields written by SQL of the def's own (sums, the newest report, a constant). */
  own?: Record<string, OwnField>;
  /** Fields set once the statement has run (by the afterRead hook, or by the reader's caller): the statement leaves them out. */
  hooked?: readonly string[];
  /** Columns, or fields of the def's own, that those who set them read and the shape may not hold (the statement adds them). */
  hookReads?: readonly string[];
  /** Fields of the shape this read leaves out (optional ones the contract's smaller read has not). */
  absent?: readonly string[];
  /**
   * References and links read once per response instead of once per row: the few records (a
   * project, a priority, tags) that thousands of rows of a dashboard name, built by a statement of
   * their own; a link's rows are read for all the response's rows by one statement too.
   */
  shared?: readonly string[];
  /**
   * Selects a column per field instead of one JSON object per row: for reads of thousands of rows
   * (a dashboard's), where building the objects was most of PostgreSQL's work. What the fields nest
   * is JSON as in any read.
   */
  flat?: boolean;
  /**
   * The tables the afterRead hook reads: a whole answer is kept (list/kept-answers.ts) only while
   * every table it read is unchanged, so a hook that reads says what. Fields it sets that follow the
   * clock are declared on each object it sets them on (lib/clock-fields.ts), to be set again for a
   * kept answer at the time of each request.
   */
  hookTables?: readonly PgTable[];
}
