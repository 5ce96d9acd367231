// The records that have people and a timeline, and their people: incidents, cases, participants
// and the roles they hold. They reference one another (an incident's commander is a participant,
// a participant belongs to an incident or a case, a case escalates to incidents), so they are
// declared together; each domain's own table.ts holds the rest of its tables.
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, organizationId, searchVector, timestampCol, updatedAt } from '../../db/columns.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseSeverity } from '../case_severity/table.ts';
import { caseType } from '../case_type/table.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { individualContact } from '../individual/table.ts';
import { organization } from '../organization/table.ts';
import { projectScoped } from '../project/scoped.ts';

export const incident = pgTable(
  'incident',
  {
    id: id(),
    ...projectScoped(),
    /** `<prefix>-<organization slug>-<project slug>-<id>`, set in the request that creates it. */
    name: text('name'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    resolution: text('resolution'),
    status: text('status').notNull().default('Active'),
    visibility: text('visibility').notNull().default('Open'),
    incident_type_id: integer('incident_type_id')
      .notNull()
      .references(() => incidentType.id),
    incident_priority_id: integer('incident_priority_id')
      .notNull()
      .references(() => incidentPriority.id),
    incident_severity_id: integer('incident_severity_id')
      .notNull()
      .references(() => incidentSeverity.id),
    commander_id: integer('commander_id').references((): AnyPgColumn => participant.id, { onDelete: 'set null' }),
    reporter_id: integer('reporter_id').references((): AnyPgColumn => participant.id, { onDelete: 'set null' }),
    participants_team: text('participants_team'),
    participants_location: text('participants_location'),
    commanders_location: text('commanders_location'),
    reporters_location: text('reporters_location'),
    conference: jsonb('conference'),
    conversation: jsonb('conversation'),
    storage: jsonb('storage'),
    ticket: jsonb('ticket'),
    reported_at: timestampCol('reported_at').notNull().defaultNow(),
    stable_at: timestampCol('stable_at'),
    closed_at: timestampCol('closed_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'title', 'description'),
  },
  (t) => [
    index('incident_organization_status_idx').on(t.organization_id, t.status, t.reported_at),
    // Lists filtered by status and priority count their matches from the index alone.
    index('incident_organization_status_priority_idx').on(t.organization_id, t.status, t.incident_priority_id),
    index('incident_organization_reported_idx').on(t.organization_id, t.reported_at),
    // The default list: an organization's incidents in id order.
    index('incident_organization_id_idx').on(t.organization_id, t.id),
    index('incident_project_idx').on(t.project_id),
    index('incident_priority_idx').on(t.incident_priority_id),
    index('incident_type_idx').on(t.incident_type_id),
    index('incident_severity_idx').on(t.incident_severity_id),
    index('incident_search_idx').using('gin', t.search_vector),
  ],
);

/** A case: typed, prioritised and triaged; it may be escalated into incidents. (`case` is an SQL keyword, hence the name.) */
export const caseTable = pgTable(
  'case',
  {
    id: id(),
    ...projectScoped(),
    /** `<prefix>-<organization slug>-<project slug>-<id>`, set in the request that creates it. */
    name: text('name'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    resolution: text('resolution'),
    resolution_reason: text('resolution_reason'),
    status: text('status').notNull().default('New'),
    visibility: text('visibility').notNull().default('Open'),
    case_type_id: integer('case_type_id')
      .notNull()
      .references(() => caseType.id),
    case_priority_id: integer('case_priority_id')
      .notNull()
      .references(() => casePriority.id),
    case_severity_id: integer('case_severity_id')
      .notNull()
      .references(() => caseSeverity.id),
    assignee_id: integer('assignee_id').references((): AnyPgColumn => participant.id, { onDelete: 'set null' }),
    reporter_id: integer('reporter_id').references((): AnyPgColumn => participant.id, { onDelete: 'set null' }),
    storage: jsonb('storage'),
    ticket: jsonb('ticket'),
    reported_at: timestampCol('reported_at').notNull().defaultNow(),
    triage_at: timestampCol('triage_at'),
    escalated_at: timestampCol('escalated_at'),
    stable_at: timestampCol('stable_at'),
    closed_at: timestampCol('closed_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'title', 'description'),
  },
  (t) => [
    index('case_organization_status_idx').on(t.organization_id, t.status, t.reported_at),
    // Counting a list filtered by status and priority (the usual triage view) reads this index only.
    index('case_organization_status_priority_idx').on(t.organization_id, t.status, t.case_priority_id),
    index('case_organization_reported_idx').on(t.organization_id, t.reported_at),
    index('case_organization_id_idx').on(t.organization_id, t.id),
    index('case_project_idx').on(t.project_id),
    index('case_priority_idx').on(t.case_priority_id),
    index('case_type_idx').on(t.case_type_id),
    index('case_severity_idx').on(t.case_severity_id),
    index('case_search_idx').using('gin', t.search_vector),
  ],
);

/**
 * Incidents a case was escalated to (or linked with): `case.incidents` and `incident.cases`.
 */
export const caseIncident = pgTable(
  'case_incident',
  {
    case_id: integer('case_id')
      .notNull()
      .references((): AnyPgColumn => caseTable.id, { onDelete: 'cascade' }),
    incident_id: integer('incident_id')
      .notNull()
      .references((): AnyPgColumn => incident.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.case_id, t.incident_id] }), index('case_incident_incident_id_idx').on(t.incident_id)],
);

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
