import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { organizationId, timestampCol } from '../../db/columns.ts';
import { organization } from '../organization/table.ts';

/**
 * The audit log: one row per security-relevant change in an organization, written in the transaction
 * of the change. Append-only: a trigger refuses UPDATE, and only retention deletes (whole rows past
 * their age). Actors and targets are kept as text too, so an entry outlives the user or record it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    occurred_at: timestampCol('occurred_at').notNull().defaultNow(),
    /** What happened, as `<subject>.<verb>`: `auth.login`, `user.role_changed`, `api_token.created`, ... */
    action: text('action').notNull(),
    actor_user_id: integer('actor_user_id'),
    actor_email: text('actor_email'),
    /** The API token the actor used, when it was one. */
    actor_token_id: integer('actor_token_id'),
    address: text('address'),
    target_type: text('target_type'),
    target_id: text('target_id'),
    target_label: text('target_label'),
    before: jsonb('before'),
    after: jsonb('after'),
    details: jsonb('details'),
  },
  (t) => [index('audit_log_organization_idx').on(t.organization_id, t.occurred_at), index('audit_log_action_idx').on(t.organization_id, t.action)],
);
