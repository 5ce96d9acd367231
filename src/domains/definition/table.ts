import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../project/scoped.ts';
import { term } from '../term/table.ts';

export const definition = pgTable(
  'definition',
  {
    id: id(),
    ...projectScoped(),
    text: text('text').notNull(),
    source: text('source'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('text'),
  },
  (t) => [uniqueIndex('definition_project_text_key').on(t.project_id, t.text), index('definition_search_idx').using('gin', t.search_vector)],
);

export const definitionTerm = linkTable('definition_term', ['definition_id', definition], ['term_id', term]);
