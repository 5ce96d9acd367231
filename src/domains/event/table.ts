import { bigint, boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, organizationId, timestampCol } from '../../db/columns.ts';
import { organization } from '../organization/table.ts';
import { incident } from '../lifecycle/table.ts';
import { caseTable } from '../lifecycle/table.ts';

/** The timeline: what happened to an incident (or case), written in the transaction that did it. */
export const event = pgTable(
  'event',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    incident_id: integer('incident_id').references(() => incident.id, { onDelete: 'cascade' }),
    case_id: integer('case_id').references(() => caseTable.id, { onDelete: 'cascade' }),
    started_at: timestampCol('started_at').notNull().defaultNow(),
    ended_at: timestampCol('ended_at').notNull().defaultNow(),
    source: text('source').notNull(),
    description: text('description').notNull(),
    details: jsonb('details'),
    type: text('type').notNull().default('Other'),
    owner: text('owner'),
    pinned: boolean('pinned').notNull().default(false),
    created_at: createdAt(),
    /** The order events were written in: a request writes several within one millisecond, and the timeline lists them as written. */
    seq: bigint('seq', { mode: 'number' }).generatedByDefaultAsIdentity().notNull(),
  },
  (t) => [index('event_incident_idx').on(t.incident_id, t.started_at), index('event_case_idx').on(t.case_id, t.started_at)],
);
