import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, organizationId, searchVector, updatedAt } from '../../db/columns.ts';
import { organization } from '../organization/table.ts';

export const project = pgTable(
  'project',
  {
    id: id(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    default: boolean('default').notNull().default(false),
    color: text('color'),
    annual_employee_cost: integer('annual_employee_cost').notNull().default(50000),
    business_year_hours: integer('business_year_hours').notNull().default(2080),
    owner_email: text('owner_email'),
    owner_conversation: text('owner_conversation'),
    // Beyond 0.1.0, for the web UI (schema.ts).
    display_name: text('display_name').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    allow_self_join: boolean('allow_self_join').notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('project_organization_name_key').on(t.organization_id, t.name), index('project_search_idx').using('gin', t.search_vector)],
);

export type ProjectRow = typeof project.$inferSelect;
