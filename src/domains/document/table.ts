import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { evergreenColumns, linkTable, projectScoped } from '../project/scoped.ts';
import { searchFilter } from '../search_filter/table.ts';

export const document = pgTable(
  'document',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    resource_id: text('resource_id'),
    resource_type: text('resource_type'),
    weblink: text('weblink'),
    ...evergreenColumns(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name'),
  },
  (t) => [uniqueIndex('document_project_name_key').on(t.project_id, t.name), index('document_search_idx').using('gin', t.search_vector)],
);

export const documentFilter = linkTable('document_filter', ['document_id', document], ['search_filter_id', searchFilter]);
