import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { evergreenColumns, linkTable, projectScoped } from '../project/scoped.ts';
import { searchFilter } from '../search_filter/table.ts';

/** Where incident and case news goes: a conversation (channel) or an email address. */
export const notification = pgTable(
  'notification',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    type: text('type').notNull(),
    target: text('target').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    ...evergreenColumns(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('notification_project_name_key').on(t.project_id, t.name), index('notification_search_idx').using('gin', t.search_vector)],
);

export const notificationFilter = linkTable('notification_filter', ['notification_id', notification], ['search_filter_id', searchFilter]);
