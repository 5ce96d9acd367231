import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../project/scoped.ts';
import { searchFilter } from '../search_filter/table.ts';

export const individualContact = pgTable(
  'individual_contact',
  {
    id: id(),
    ...projectScoped(),
    email: text('email').notNull(),
    name: text('name'),
    title: text('title'),
    company: text('company'),
    notes: text('notes'),
    owner: text('owner'),
    weblink: text('weblink'),
    contact_type: text('contact_type'),
    external_id: text('external_id'),
    mobile_phone: text('mobile_phone'),
    office_phone: text('office_phone'),
    is_active: boolean('is_active').notNull().default(true),
    is_external: boolean('is_external').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'email', 'title', 'company', 'notes'),
  },
  (t) => [uniqueIndex('individual_contact_project_email_key').on(t.project_id, t.email), index('individual_contact_search_idx').using('gin', t.search_vector)],
);

export const individualContactFilter = linkTable('individual_contact_filter', ['individual_contact_id', individualContact], ['search_filter_id', searchFilter]);
