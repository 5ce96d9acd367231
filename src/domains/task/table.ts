import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, timestampCol, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../project/scoped.ts';
import { incident } from '../lifecycle/table.ts';
import { participant } from '../lifecycle/table.ts';

export const task = pgTable(
  'task',
  {
    id: id(),
    ...projectScoped(),
    incident_id: integer('incident_id')
      .notNull()
      .references(() => incident.id, { onDelete: 'cascade' }),
    description: text('description'),
    status: text('status').notNull().default('Open'),
    priority: text('priority'),
    source: text('source'),
    resource_id: text('resource_id'),
    resource_type: text('resource_type'),
    weblink: text('weblink'),
    reminders: boolean('reminders').notNull().default(true),
    resolve_by: timestampCol('resolve_by'),
    resolved_at: timestampCol('resolved_at'),
    creator_id: integer('creator_id').references(() => participant.id, { onDelete: 'set null' }),
    owner_id: integer('owner_id').references(() => participant.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('description'),
  },
  (t) => [
    index('task_incident_idx').on(t.incident_id),
    index('task_organization_status_idx').on(t.organization_id, t.status),
    index('task_search_idx').using('gin', t.search_vector),
  ],
);

export const taskAssignee = linkTable('task_assignee', ['task_id', task], ['participant_id', participant]);
