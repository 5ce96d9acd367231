// Column helpers shared by every domain's tables, so that ids, timestamps and search vectors
// are declared one way everywhere.
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { customType, integer, serial, timestamp, type ExtraConfigColumn, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';

export const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

/**
 * A stored, generated full-text vector over the given columns, weighted A, B, C, D in order.
 * The 'simple' configuration keeps words as written (no stemming), so prefix search matches
 * what users type.
 */
export function searchVector(...columns: string[]) {
  const weights = ['A', 'B', 'C', 'D'];
  const parts = columns.map((c, i) => `setweight(to_tsvector('simple'::regconfig, coalesce(${JSON.stringify(c)}::text, '')), '${weights[Math.min(i, 3)]}')`);
  return tsvector('search_vector').generatedAlwaysAs(sql.raw(parts.join(' || ')));
}

/**
 * The words of a record's leading columns alone (its name and title, not its description), as
 * the 'simple' configuration reads them: a GIN index on their beginnings (wordPrefixes) finds the
 * records whose name or title holds the searched words among few rows, and the search ranks them
 * first. The index and the queries use this one expression, so that PostgreSQL matches them.
 */
export function leadingWords(...columns: (PgColumn | ExtraConfigColumn)[]): SQL {
  return sql`to_tsvector('simple'::regconfig, ${sql.join(
    columns.map((c) => sql`coalesce(${c}, '')`),
    sql` || ' ' || `,
  )})`;
}

/** The longest beginning of a word that wordPrefixes keeps (longer words are kept whole as well). */
export const PREFIX_LENGTH = 12;

/**
 * Every beginning of every word of a vector, up to PREFIX_LENGTH letters, and every whole word, as
 * a vector without positions (the function `muster_word_prefixes`, revision 0033). A GIN index on it
 * finds the records holding a word that begins with `payme` by one exact lookup of `payme`, as fast
 * as a whole word, where a prefix search of the words themselves (`payme:*`) gathers every word it
 * begins first (list/search.ts toPrefixQuery writes a search in these terms).
 */
export function wordPrefixes(vector: SQL): SQL {
  return sql`muster_word_prefixes(${vector})`;
}

export const id = () => serial('id').primaryKey();

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const timestampCol = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const organizationId = () => integer('organization_id').notNull();

/** A table's columns minus its search vector: what reads select. */
export function readColumns<T extends PgTable>(table: T): Omit<T['_']['columns'], 'search_vector'> {
  const { search_vector: _v, ...rest } = getTableColumns(table) as Record<string, unknown>;
  return rest as Omit<T['_']['columns'], 'search_vector'>;
}
