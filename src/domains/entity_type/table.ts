import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';

/** How entities are found in signal data: a regular expression, a JSONPath, or both. */
export const entityType = pgTable(
  'entity_type',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    jpath: text('jpath'),
    regular_expression: text('regular_expression'),
    global_find: boolean('global_find').notNull().default(false),
    enabled: boolean('enabled').notNull().default(false),
    /** Beyond 0.1.0, for the web UI: `single`, `multiple` or `all` (schema.ts). */
    scope: text('scope').notNull().default('single'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('entity_type_project_name_key').on(t.project_id, t.name), index('entity_type_search_idx').using('gin', t.search_vector)],
);
