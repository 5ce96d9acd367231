import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../../db/scoped.ts';

export const incidentPriority = pgTable(
  'incident_priority',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    color: text('color'),
    default: boolean('default').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    page_commander: boolean('page_commander').notNull().default(false),
    tactical_report_reminder: integer('tactical_report_reminder').notNull().default(24),
    executive_report_reminder: integer('executive_report_reminder').notNull().default(24),
    view_order: integer('view_order').notNull().default(9999),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('incident_priority_project_name_key').on(t.project_id, t.name), index('incident_priority_search_idx').using('gin', t.search_vector)],
);
