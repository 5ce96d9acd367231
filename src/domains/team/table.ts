import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { evergreenColumns, linkTable, projectScoped } from '../project/scoped.ts';
import { searchFilter } from '../search_filter/table.ts';

export const teamContact = pgTable(
  'team_contact',
  {
    id: id(),
    ...projectScoped(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    company: text('company'),
    notes: text('notes'),
    owner: text('owner'),
    contact_type: text('contact_type'),
    is_active: boolean('is_active').notNull().default(true),
    is_external: boolean('is_external').notNull().default(false),
    ...evergreenColumns(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'notes'),
  },
  (t) => [uniqueIndex('team_contact_project_email_key').on(t.project_id, t.email), index('team_contact_search_idx').using('gin', t.search_vector)],
);

export const teamContactFilter = linkTable('team_contact_filter', ['team_contact_id', teamContact], ['search_filter_id', searchFilter]);
