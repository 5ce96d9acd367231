import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { evergreenColumns, linkTable, projectScoped } from '../project/scoped.ts';
import { searchFilter } from '../search_filter/table.ts';

/** An on-call service; `type` names the on-call plugin that pages it. */
export const service = pgTable(
  'service',
  {
    id: id(),
    ...projectScoped(),
    name: text('name'),
    description: text('description'),
    external_id: text('external_id'),
    type: text('type'),
    is_active: boolean('is_active').notNull().default(true),
    ...evergreenColumns(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name'),
  },
  (t) => [uniqueIndex('service_project_external_id_key').on(t.project_id, t.external_id), index('service_search_idx').using('gin', t.search_vector)],
);

export const serviceFilter = linkTable('service_filter', ['service_id', service], ['search_filter_id', searchFilter]);
