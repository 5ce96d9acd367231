import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';

export const term = pgTable(
  'term',
  {
    id: id(),
    ...projectScoped(),
    text: text('text'),
    discoverable: boolean('discoverable').notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('text'),
  },
  (t) => [uniqueIndex('term_project_text_key').on(t.project_id, t.text), index('term_search_idx').using('gin', t.search_vector)],
);
