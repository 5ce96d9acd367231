import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, organizationId, searchVector, timestampCol, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../project/scoped.ts';
import { appUser } from '../auth/table.ts';
import { caseTable } from '../lifecycle/table.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseType } from '../case_type/table.ts';
import { entity } from '../entity/table.ts';
import { entityType } from '../entity_type/table.ts';
import { organization } from '../organization/table.ts';
import { project } from '../project/table.ts';
import { service } from '../service/table.ts';
import { source } from '../source/table.ts';
import { tag } from '../tag/table.ts';

/** A signal definition: what a detection system sends, and what Muster does with it. */
export const signal = pgTable(
  'signal',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    owner: text('owner').notNull(),
    external_id: text('external_id').notNull(),
    external_url: text('external_url'),
    variant: text('variant'),
    enabled: boolean('enabled').notNull().default(false),
    create_case: boolean('create_case').notNull().default(true),
    conversation_target: text('conversation_target'),
    case_type_id: integer('case_type_id').references(() => caseType.id, { onDelete: 'set null' }),
    case_priority_id: integer('case_priority_id').references(() => casePriority.id, { onDelete: 'set null' }),
    oncall_service_id: integer('oncall_service_id').references(() => service.id, { onDelete: 'set null' }),
    source_id: integer('source_id').references(() => source.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description', 'variant', 'external_id'),
  },
  (t) => [
    // Ingestion finds the definition by variant, else by external id, within the project.
    index('signal_project_variant_idx').on(t.project_id, t.variant),
    index('signal_project_external_idx').on(t.project_id, t.external_id),
    index('signal_search_idx').using('gin', t.search_vector),
  ],
);

/** A rule applied to incoming instances: snooze them, or de-duplicate them into an earlier case. */
export const signalFilter = pgTable(
  'signal_filter',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    expression: jsonb('expression').notNull().default([]),
    mode: text('mode').notNull().default('active'),
    action: text('action').notNull().default('snooze'),
    window: integer('window').notNull().default(600),
    expiration: timestampCol('expiration'),
    creator_id: integer('creator_id').references(() => appUser.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('signal_filter_project_name_key').on(t.project_id, t.name), index('signal_filter_search_idx').using('gin', t.search_vector)],
);

/**
 * Beyond 0.1.0 (current Dispatch): a signal engagement, whom to ask about a signal's entity (the
 * entity of its type) and what to tell them. Stored and served for the web UI; Muster engages no one.
 */
export const signalEngagement = pgTable(
  'signal_engagement',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    require_mfa: boolean('require_mfa').notNull().default(false),
    entity_type_id: integer('entity_type_id').references(() => entityType.id, { onDelete: 'set null' }),
    message: text('message'),
    creator_id: integer('creator_id').references(() => appUser.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('signal_engagement_project_name_key').on(t.project_id, t.name), index('signal_engagement_search_idx').using('gin', t.search_vector)],
);

/** A definition's filters, applied in `position` order. */
export const signalFilterLink = pgTable(
  'signal_filter_link',
  {
    signal_id: integer('signal_id')
      .notNull()
      .references(() => signal.id, { onDelete: 'cascade' }),
    signal_filter_id: integer('signal_filter_id')
      .notNull()
      .references(() => signalFilter.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.signal_id, t.signal_filter_id] }), index('signal_filter_link_filter_idx').on(t.signal_filter_id)],
);

export const signalTag = linkTable('signal_tag', ['signal_id', signal], ['tag_id', tag]);
export const signalEntityType = linkTable('signal_entity_type', ['signal_id', signal], ['entity_type_id', entityType]);

/**
 * One event a detection system sent: its raw document, the entities found in it, its fingerprint,
 * what the filters did, and the case it opened or joined. `idempotency_key` makes retries safe.
 */
export const signalInstance = pgTable(
  'signal_instance',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    project_id: integer('project_id')
      .notNull()
      .references(() => project.id, { onDelete: 'cascade' }),
    signal_id: integer('signal_id')
      .notNull()
      .references(() => signal.id, { onDelete: 'cascade' }),
    case_id: integer('case_id').references(() => caseTable.id, { onDelete: 'set null' }),
    raw: jsonb('raw').notNull(),
    fingerprint: text('fingerprint'),
    filter_action: text('filter_action'),
    /** What monitor-mode filters would have done: [{signal_filter_id, name, action, case_id}]. */
    filter_monitor: jsonb('filter_monitor'),
    idempotency_key: text('idempotency_key'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('signal_instance_idempotency_key').on(t.organization_id, t.idempotency_key),
    // A signal's instances, newest first (the web UI's instance list of a definition).
    index('signal_instance_signal_created_idx').on(t.signal_id, t.created_at),
    // De-duplication: the earliest instance of a fingerprint in the window that the filter matches,
    // walked in (created_at, id) order and stopped at the first match. Without the id the order is
    // not the index's own, and every instance of the window is matched and sorted before the first.
    index('signal_instance_fingerprint_idx').on(t.signal_id, t.fingerprint, t.created_at, t.id),
    index('signal_instance_case_idx').on(t.case_id),
    index('signal_instance_organization_created_idx').on(t.organization_id, t.created_at),
  ],
);

/** The entities found in an instance. */
export const signalInstanceEntity = pgTable(
  'signal_instance_entity',
  {
    signal_instance_id: uuid('signal_instance_id')
      .notNull()
      .references(() => signalInstance.id, { onDelete: 'cascade' }),
    entity_id: integer('entity_id')
      .notNull()
      .references(() => entity.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.signal_instance_id, t.entity_id] }), index('signal_instance_entity_entity_idx').on(t.entity_id)],
);
