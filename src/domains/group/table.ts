import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { projectScoped } from '../project/scoped.ts';

/** A record's group (`tactical` or `notifications`), as its participant-group plugin made it. */
export const participantGroup = pgTable(
  'participant_group',
  {
    id: id(),
    ...projectScoped(),
    incident_id: integer('incident_id').references(() => incident.id, { onDelete: 'cascade' }),
    case_id: integer('case_id').references(() => caseTable.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    resource_id: text('resource_id'),
    resource_type: text('resource_type'),
    weblink: text('weblink'),
    description: text('description'),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('participant_group_incident_kind_key').on(t.incident_id, t.kind), uniqueIndex('participant_group_case_kind_key').on(t.case_id, t.kind)],
);
