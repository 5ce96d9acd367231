import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../project/scoped.ts';
import { individualContact } from '../individual/table.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { service } from '../service/table.ts';
import { tag } from '../tag/table.ts';

// Link tables are named short: PostgreSQL cuts identifiers at 63 characters, and cut names collide.

/** Who takes a role (commander, liaison, scribe) in new incidents of a project, and when. */
export const incidentRolePolicy = pgTable(
  'incident_role_policy',
  {
    id: id(),
    ...projectScoped(),
    role: text('role').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    order: integer('order').notNull().default(1),
    service_id: integer('service_id').references(() => service.id, { onDelete: 'set null' }),
    individual_contact_id: integer('individual_contact_id').references(() => individualContact.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('incident_role_policy_project_role_idx').on(t.project_id, t.role)],
);

export const incidentRolePolicyTag = linkTable('role_policy_tag', ['policy_id', incidentRolePolicy], ['tag_id', tag]);
export const incidentRolePolicyType = linkTable('role_policy_incident_type', ['policy_id', incidentRolePolicy], ['incident_type_id', incidentType]);
export const incidentRolePolicyPriority = linkTable(
  'role_policy_incident_priority',
  ['policy_id', incidentRolePolicy],
  ['incident_priority_id', incidentPriority],
);
