import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';

export const tagType = pgTable(
  'tag_type',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    /** At most one tag of an exclusive type on a record. */
    exclusive: boolean('exclusive').notNull().default(false),
    // Beyond 0.1.0, for the web UI: which pickers offer the type's tags (schema.ts).
    discoverable_incident: boolean('discoverable_incident').notNull().default(true),
    discoverable_case: boolean('discoverable_case').notNull().default(true),
    discoverable_signal: boolean('discoverable_signal').notNull().default(true),
    discoverable_query: boolean('discoverable_query').notNull().default(true),
    discoverable_source: boolean('discoverable_source').notNull().default(true),
    discoverable_document: boolean('discoverable_document').notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name'),
  },
  (t) => [uniqueIndex('tag_type_project_name_key').on(t.project_id, t.name), index('tag_type_search_idx').using('gin', t.search_vector)],
);
