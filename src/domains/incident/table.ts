import { index, integer, jsonb, pgTable, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, timestampCol, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../../db/scoped.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { participant } from '../participant/table.ts';
import { tag } from '../tag/table.ts';
import { term } from '../term/table.ts';

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

export const incidentTag = linkTable('incident_tag', ['incident_id', incident], ['tag_id', tag]);
export const incidentTerm = linkTable('incident_term', ['incident_id', incident], ['term_id', term]);
export const incidentDuplicate = linkTable('incident_duplicate', ['incident_id', incident], ['duplicate_id', incident]);
