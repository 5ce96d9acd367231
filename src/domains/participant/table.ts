import { boolean, index, integer, pgTable, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, organizationId, timestampCol } from '../../db/columns.ts';
import { organization } from '../organization/table.ts';
import { individualContact } from '../individual/table.ts';
import { incident } from '../incident/table.ts';
import { caseTable } from '../case/table.ts';

/**
 * A person taking part in an incident (or case): an individual contact with the roles they hold.
 * Removed with the record they take part in.
 */
export const participant = pgTable(
  'participant',
  {
    id: id(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    incident_id: integer('incident_id').references((): AnyPgColumn => incident.id, { onDelete: 'cascade' }),
    case_id: integer('case_id').references((): AnyPgColumn => caseTable.id, { onDelete: 'cascade' }),
    individual_contact_id: integer('individual_contact_id')
      .notNull()
      .references(() => individualContact.id),
    team: text('team'),
    department: text('department'),
    location: text('location'),
    added_reason: text('added_reason'),
    active: boolean('active').notNull().default(true),
    created_at: createdAt(),
  },
  // One participant per person and incident (or case): two people joining at once cannot make two.
  (t) => [
    uniqueIndex('participant_incident_individual_key').on(t.incident_id, t.individual_contact_id),
    uniqueIndex('participant_case_individual_key').on(t.case_id, t.individual_contact_id),
    index('participant_individual_idx').on(t.individual_contact_id),
  ],
);

/** A role a participant held, from `assumed_at` until `renounced_at`. Costs are computed from these. */
export const participantRole = pgTable(
  'participant_role',
  {
    id: id(),
    participant_id: integer('participant_id')
      .notNull()
      .references(() => participant.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    assumed_at: timestampCol('assumed_at').notNull().defaultNow(),
    renounced_at: timestampCol('renounced_at'),
    activity: integer('activity').notNull().default(0),
  },
  (t) => [index('participant_role_participant_idx').on(t.participant_id)],
);
