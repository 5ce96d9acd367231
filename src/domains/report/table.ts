import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, organizationId } from '../../db/columns.ts';
import { organization } from '../organization/table.ts';
import { incident } from '../lifecycle/table.ts';
import { participant } from '../lifecycle/table.ts';

/** An executive or tactical report on an incident, by the participant who wrote it. */
export const report = pgTable(
  'report',
  {
    id: id(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    incident_id: integer('incident_id')
      .notNull()
      .references(() => incident.id, { onDelete: 'cascade' }),
    participant_id: integer('participant_id').references(() => participant.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    details: jsonb('details').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('report_incident_type_idx').on(t.incident_id, t.type, t.created_at)],
);
