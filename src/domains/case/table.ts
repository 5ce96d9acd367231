import { index, integer, jsonb, pgTable, primaryKey, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, timestampCol, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../../db/scoped.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseSeverity } from '../case_severity/table.ts';
import { caseType } from '../case_type/table.ts';
import { incident } from '../incident/table.ts';
import { participant } from '../participant/table.ts';
import { tag } from '../tag/table.ts';

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

export const caseTag = linkTable('case_tag', ['case_id', caseTable], ['tag_id', tag]);
export const caseRelated = linkTable('case_related', ['case_id', caseTable], ['related_id', caseTable]);
export const caseDuplicate = linkTable('case_duplicate', ['case_id', caseTable], ['duplicate_id', caseTable]);
/**
 * Incidents a case was escalated to (or linked with): `case.incidents` and `incident.cases`.
 * Declared in full rather than with linkTable: the incident table may not be initialised yet here
 * (incident, participant and case import one another), and these references are resolved lazily.
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
