// The records that have people and a timeline, and their people: incidents, cases, participants
// and the roles they hold. They reference one another (an incident's commander is a participant,
// a participant belongs to an incident or a case, a case escalates to incidents), so they are
// declared together; each domain's own table.ts holds the rest of its tables. Who may see a row of
// an incident or a case is declared here too (recordRule, at the end).
import { type SQL, sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, type AnyPgColumn, type ExtraConfigColumn } from 'drizzle-orm/pg-core';
import { restrictRows } from '../../server/visibility.ts';
import type { ViewerTerms } from '../../server/viewer.ts';
import { createdAt, id, leadingWords, organizationId, searchVector, timestampCol, updatedAt, wordPrefixes } from '../../db/columns.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseSeverity } from '../case_severity/table.ts';
import { caseType } from '../case_type/table.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { individualContact } from '../individual/table.ts';
import { appUser } from '../auth/table.ts';
import { organization } from '../organization/table.ts';
import { projectScoped } from '../project/scoped.ts';

/** The columns every record with people and a timeline has; its status starts at `initialStatus`. */
const recordColumns = (initialStatus: string) => ({
  id: id(),
  ...projectScoped(),
  /** `<prefix>-<organization slug>-<project slug>-<id>`, set in the request that creates it. */
  name: text('name'),
  title: text('title').notNull(),
  description: text('description').notNull(),
  resolution: text('resolution'),
  status: text('status').notNull().default(initialStatus),
  visibility: text('visibility').notNull().default('Open'),
  storage: jsonb('storage'),
  ticket: jsonb('ticket'),
  /** Its chat room: `{resource_id, resource_type, channel_id, thread_id, weblink}` (a case may have a thread instead). */
  conversation: jsonb('conversation'),
  reported_at: timestampCol('reported_at').notNull().defaultNow(),
  stable_at: timestampCol('stable_at'),
  closed_at: timestampCol('closed_at'),
  created_at: createdAt(),
  updated_at: updatedAt(),
  search_vector: searchVector('name', 'title', 'description'),
});

/** A reference to the record's type, priority or severity. */
const assessedBy = (name: string, table: { id: AnyPgColumn }) =>
  integer(name)
    .notNull()
    .references(() => table.id);

/** A person holding one of the record's roles (commander, assignee, reporter): one of its participants. */
const heldBy = (name: string) => integer(name).references((): AnyPgColumn => participant.id, { onDelete: 'set null' });

type RecordIndexed = Record<
  'organization_id' | 'project_id' | 'id' | 'name' | 'title' | 'status' | 'visibility' | 'reported_at' | 'created_at' | 'search_vector' | 'conversation',
  ExtraConfigColumn
>;

/** The indexes of a record table named `name`, its assessment columns given. */
const recordIndexes = (name: string, t: RecordIndexed, assessment: Record<'type' | 'priority' | 'severity', AnyPgColumn>) => [
  // Lists of a status (and a priority, a Member's rule), newest first: the page's ids from the index alone.
  index(`${name}_organization_status_idx`).on(t.organization_id, t.status, t.reported_at.desc().nullsFirst(), t.id, assessment.priority, t.visibility),
  // Lists filtered by status and priority (the usual triage view) count their matches from the index alone.
  index(`${name}_organization_status_priority_idx`).on(t.organization_id, t.status, assessment.priority),
  // The web UI's tables: newest first (ties in id order), of the organization or of a project. The
  // page's ids and the count come from the index alone, visibility included (Members' rule).
  // DESC NULLS FIRST is plain DESC, as the engine sorts a NOT NULL column; read backwards, plain ASC.
  index(`${name}_organization_reported_idx`).on(t.organization_id, t.reported_at.desc().nullsFirst(), t.id, t.visibility),
  index(`${name}_project_reported_idx`).on(t.organization_id, t.project_id, t.reported_at.desc().nullsFirst(), t.id, t.visibility),
  index(`${name}_project_created_idx`).on(t.organization_id, t.project_id, t.created_at.desc().nullsFirst(), t.id, t.visibility),
  // The default list: an organization's records in id order.
  index(`${name}_organization_id_idx`).on(t.organization_id, t.id),
  index(`${name}_project_idx`).on(t.project_id),
  index(`${name}_priority_idx`).on(assessment.priority),
  index(`${name}_type_idx`).on(assessment.type),
  index(`${name}_severity_idx`).on(assessment.severity),
  index(`${name}_search_idx`).using('gin', t.search_vector),
  // The global search's first tier: records whose name or title holds the words (search/service.ts), found by their words' beginnings.
  index(`${name}_leading_prefixes_idx`).using('gin', wordPrefixes(leadingWords(t.name, t.title))),
  // What the chat platform's requests find a record by: the channel (and thread) they come from.
  index(`${name}_conversation_channel_idx`).on(t.organization_id, sql`(${t.conversation}->>'channel_id')`),
];

export const incident = pgTable(
  'incident',
  {
    ...recordColumns('Active'),
    incident_type_id: assessedBy('incident_type_id', incidentType),
    incident_priority_id: assessedBy('incident_priority_id', incidentPriority),
    incident_severity_id: assessedBy('incident_severity_id', incidentSeverity),
    commander_id: heldBy('commander_id'),
    reporter_id: heldBy('reporter_id'),
    participants_team: text('participants_team'),
    participants_location: text('participants_location'),
    commanders_location: text('commanders_location'),
    reporters_location: text('reporters_location'),
    conference: jsonb('conference'),
  },
  (t) => recordIndexes('incident', t, { type: t.incident_type_id, priority: t.incident_priority_id, severity: t.incident_severity_id }),
);

/** A case: typed, prioritised and triaged; it may be escalated into incidents. (`case` is an SQL keyword, hence the name.) */
export const caseTable = pgTable(
  'case',
  {
    ...recordColumns('New'),
    resolution_reason: text('resolution_reason'),
    case_type_id: assessedBy('case_type_id', caseType),
    case_priority_id: assessedBy('case_priority_id', casePriority),
    case_severity_id: assessedBy('case_severity_id', caseSeverity),
    assignee_id: heldBy('assignee_id'),
    reporter_id: heldBy('reporter_id'),
    triage_at: timestampCol('triage_at'),
    escalated_at: timestampCol('escalated_at'),
    /** The account that resolved it, as Dispatch's later releases record it. */
    resolved_by_id: integer('resolved_by_id').references((): AnyPgColumn => appUser.id, { onDelete: 'set null' }),
  },
  (t) => recordIndexes('case', t, { type: t.case_type_id, priority: t.case_priority_id, severity: t.case_severity_id }),
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

/** Whether `email` belongs to a participant (through `owner`, a participant column) of the record `recordId` names. */
export const participates = (owner: AnyPgColumn, recordId: AnyPgColumn | SQL, email: ViewerTerms['email']) =>
  sql`EXISTS (SELECT 1 FROM ${participant} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} WHERE ${owner} = ${recordId} AND lower(${individualContact.email}) = lower(${email}))`;

/**
 * Who may see a row of an incident or case table (`table`, or an alias of it), for a viewer given as
 * terms (values, or a prepared statement's placeholders): the rows of the viewer's organization, and
 * of them the Restricted ones only for Admins and above and for participants (any, active or not).
 */
export function recordRule(table: typeof incident | typeof caseTable, owner: AnyPgColumn, v: ViewerTerms): SQL {
  const inOrganization = sql`${table.organization_id} = ${v.organization}`;
  if (v.all === true) return inOrganization;
  // The records the viewer takes part in as one set, not an EXISTS per row: PostgreSQL hashes it
  // once per query (only if a Restricted row comes up), and the planner's estimate stays that of one
  // lookup, so a list of 100,000 rows keeps its index (and no JIT compiling for a correlated subquery).
  const mine = sql`SELECT ${owner} FROM ${participant} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} WHERE ${owner} IS NOT NULL AND lower(${individualContact.email}) = lower(${v.email})`;
  const seen = sql`${table.visibility} = 'Open' OR ${table.id} IN (${mine})`;
  return v.all === false ? sql`(${inOrganization} AND (${seen}))` : sql`(${inOrganization} AND (${v.all} OR ${seen}))`;
}

// Declared with the tables, so every read, list, join and filter knows the rule before it can name them.
restrictRows('incident', (table, v) => recordRule(table as typeof incident, participant.incident_id, v));
restrictRows('case', (table, v) => recordRule(table as typeof caseTable, participant.case_id, v));
