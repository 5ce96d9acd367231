import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../../db/scoped.ts';

export const caseSeverity = pgTable(
  'case_severity',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    color: text('color'),
    default: boolean('default').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    view_order: integer('view_order').notNull().default(9999),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('case_severity_project_name_key').on(t.project_id, t.name), index('case_severity_search_idx').using('gin', t.search_vector)],
);
