import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';
import { entityType } from '../entity_type/table.ts';

export const entity = pgTable(
  'entity',
  {
    id: id(),
    ...projectScoped(),
    name: text('name'),
    description: text('description'),
    value: text('value'),
    source: text('source'),
    entity_type_id: integer('entity_type_id')
      .notNull()
      .references(() => entityType.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description', 'value'),
  },
  // One entity per type and value: ingestion finds or creates it, concurrently.
  (t) => [
    uniqueIndex('entity_type_value_key').on(t.entity_type_id, t.value),
    index('entity_project_idx').on(t.project_id),
    index('entity_search_idx').using('gin', t.search_vector),
  ],
);
