import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, organizationId, searchVector, updatedAt } from '../../db/columns.ts';
import { organization } from '../organization/table.ts';
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
    /** The Markdown text of a document Muster keeps (records' documents, templates); null for a link to one kept elsewhere. */
    content: text('content'),
    /** Counts the content's edits: an edit names the version it started from, so that two editors cannot overwrite each other. */
    version: integer('version').notNull().default(1),
    read_only: boolean('read_only').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'content'),
  },
  (t) => [
    uniqueIndex('document_project_name_key').on(t.project_id, t.name),
    index('document_search_idx').using('gin', t.search_vector),
    // A new record's document finds its project's template without walking the project's documents.
    index('document_project_resource_type_idx').on(t.project_id, t.resource_type, t.id),
  ],
);

export const documentFilter = linkTable('document_filter', ['document_id', document], ['search_filter_id', searchFilter]);

/** Every saved version of a document's content: who wrote it and when. */
export const documentRevision = pgTable(
  'document_revision',
  {
    id: id(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    document_id: integer('document_id')
      .notNull()
      .references(() => document.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    content: text('content').notNull(),
    author: text('author').notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('document_revision_version_key').on(t.document_id, t.version)],
);
