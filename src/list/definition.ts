// What a list declares to the list engine: its model, the fields a client may filter and sort
// on, the related models reachable from it and how, and its search vector. Nothing outside these
// declarations is reachable through `filter` or `sortBy[]`.
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

export type FieldType = 'text' | 'int' | 'float' | 'bool' | 'timestamp' | 'json' | 'text[]';

export type Fields = Record<string, FieldType>;

interface ModelBase {
  /** Dispatch's model class name, as clients write it in filters: "Project", "IncidentPriority". */
  model: string;
  /** snake_case table name, as clients write it in dotted sort fields: "incident_priority". */
  tableName: string;
  /** The table (or an alias of it) whose columns the fields name. */
  table: PgTable;
  fields: Fields;
}

/** A related record there is at most one of per row: joined once, filterable and sortable. */
export interface OneRelation extends ModelBase {
  kind: 'one';
  on: SQL;
  /**
   * Fields of the related row that the listed row holds itself, as the column `on` equates them
   * with (`Project.id` is the listed row's `project_id`): filters and sorts on them alone read that
   * column and need no join, so an index of the listed table serves them. Only where the join adds
   * nothing: a foreign key to a table without a visibility rule.
   */
  local?: Record<string, PgColumn>;
}

/** Related records there may be many of per row: filters become EXISTS, so rows never repeat. */
export interface ManyRelation extends ModelBase {
  kind: 'many';
  /** EXISTS (...) over the related table, correlated to the listed row, with `condition` inside. */
  exists: (condition: SQL) => SQL;
}

export type Relation = OneRelation | ManyRelation;

/** What a list may select for each row: columns, or SQL expressions with an alias. */
export type ListColumns = Record<string, PgColumn | SQL.Aliased>;

export interface ListDefinition<TColumns extends ListColumns = Record<string, PgColumn>> extends ModelBase {
  /** What each row of the list selects. */
  columns: TColumns;
  relations?: Relation[];
  /** The tsvector column that `q` searches; lists without one ignore `q`. */
  searchVector?: PgColumn;
  /** Orders `sortBy[]` takes beyond the fields, computed from the row (not filterable). */
  sorts?: Record<string, SQL>;
  /** The column ties are broken on, so that pages never overlap. */
  idColumn: PgColumn;
  /**
   * Count in a query of its own instead of with the page (`count(*) OVER ()`). For tables that
   * grow large: the page query can then stop after LIMIT rows of an index instead of sorting all.
   */
  separateCount?: boolean;
}

/** Any list, whatever its columns: what the engine and the filter compiler take. */
export type AnyListDefinition = ListDefinition<ListColumns>;

/**
 * `record[key]` when `key` is the record's own: a name a client sends (`__proto__`, `constructor`)
 * never reaches what every object inherits.
 */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function column(table: PgTable, field: string): PgColumn {
  return own(table as unknown as Record<string, PgColumn>, field)!;
}
