import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';
import { tagType } from '../tag_type/table.ts';

export const tag = pgTable(
  'tag',
  {
    id: id(),
    ...projectScoped(),
    name: text('name'),
    description: text('description'),
    uri: text('uri'),
    source: text('source'),
    external_id: text('external_id'),
    discoverable: boolean('discoverable').notNull().default(true),
    // A tag type in use cannot be deleted (409) until its tags are.
    tag_type_id: integer('tag_type_id')
      .notNull()
      .references(() => tagType.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description', 'external_id'),
  },
  (t) => [
    uniqueIndex('tag_type_name_key').on(t.tag_type_id, t.name),
    index('tag_project_idx').on(t.project_id),
    index('tag_search_idx').using('gin', t.search_vector),
  ],
);
