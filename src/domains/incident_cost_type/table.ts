import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';

export const incidentCostType = pgTable(
  'incident_cost_type',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    category: text('category'),
    details: jsonb('details').notNull().default({}),
    default: boolean('default').notNull().default(false),
    /** false for the seeded response cost: Muster computes it, nobody edits it. */
    editable: boolean('editable').notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('incident_cost_type_project_name_key').on(t.project_id, t.name), index('incident_cost_type_search_idx').using('gin', t.search_vector)],
);
