import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../project/scoped.ts';
import { source } from '../source/table.ts';
import { tag } from '../tag/table.ts';

/** A saved query against a data source. */
export const query = pgTable(
  'query',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    language: text('language'),
    text: text('text'),
    // A source with queries cannot be deleted (409) until they are.
    source_id: integer('source_id')
      .notNull()
      .references(() => source.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name'),
  },
  (t) => [
    uniqueIndex('query_project_name_key').on(t.project_id, t.name),
    index('query_source_idx').on(t.source_id),
    index('query_search_idx').using('gin', t.search_vector),
  ],
);

export const queryTag = linkTable('query_tag', ['query_id', query], ['tag_id', tag]);
