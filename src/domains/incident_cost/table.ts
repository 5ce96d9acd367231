import { doublePrecision, index, integer, pgTable } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';
import { incident } from '../lifecycle/table.ts';
import { incidentCostType } from '../incident_cost_type/table.ts';

export const incidentCost = pgTable(
  'incident_cost',
  {
    id: id(),
    ...projectScoped(),
    incident_id: integer('incident_id').references(() => incident.id, { onDelete: 'cascade' }),
    incident_cost_type_id: integer('incident_cost_type_id')
      .notNull()
      .references(() => incidentCostType.id),
    amount: doublePrecision('amount').notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('incident_cost_incident_idx').on(t.incident_id), index('incident_cost_type_idx').on(t.incident_cost_type_id)],
);
