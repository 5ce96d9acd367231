import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';
import { appUser } from '../auth/table.ts';

/** A saved filter expression over incidents or cases, used by notifications and contacts to route. */
export const searchFilter = pgTable(
  'search_filter',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    expression: jsonb('expression').notNull().default([]),
    subject: text('subject').notNull().default('incident'),
    creator_id: integer('creator_id').references(() => appUser.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('search_filter_project_name_key').on(t.project_id, t.name), index('search_filter_search_idx').using('gin', t.search_vector)],
);
