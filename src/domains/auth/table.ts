import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, organizationId, searchVector, timestampCol, updatedAt } from '../../db/columns.ts';
import { organization } from '../organization/table.ts';
import { project } from '../project/table.ts';

/** A person who can log in. Users are global; what they may do is per organization. */
export const appUser = pgTable(
  'app_user',
  {
    id: id(),
    email: text('email').notNull(),
    password: text('password').notNull(),
    /** When the person proved the address is theirs (a link, an invitation naming it, an SSO provider); null: not yet. */
    email_confirmed_at: timestampCol('email_confirmed_at'),
    /** Tokens issued before this instant are refused: set by a password change, a reset, a deactivation. */
    tokens_valid_after: timestampCol('tokens_valid_after'),
    /** A deactivated account signs in nowhere and its tokens are refused; its records keep naming it. */
    deactivated_at: timestampCol('deactivated_at'),
    /** A service account: acts only through its API tokens, has no password sign-in. */
    service_account: boolean('service_account').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('email'),
  },
  (t) => [uniqueIndex('app_user_email_key').on(t.email), index('app_user_search_idx').using('gin', t.search_vector)],
);

/** Membership of a user in an organization, with the role checked by every permission. */
export const userOrganization = pgTable(
  'user_organization',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => appUser.id, { onDelete: 'cascade' }),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('Member'),
    default: boolean('default').notNull().default(false),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.organization_id] }), index('user_organization_org_idx').on(t.organization_id)],
);

/** Membership of a user in a project; `default` marks the project the UI opens first. */
export const userProject = pgTable(
  'user_project',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => appUser.id, { onDelete: 'cascade' }),
    project_id: integer('project_id')
      .notNull()
      .references(() => project.id, { onDelete: 'cascade' }),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    role: text('role'),
    default: boolean('default').notNull().default(false),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.project_id] }), index('user_project_project_idx').on(t.project_id)],
);

export type UserRow = typeof appUser.$inferSelect;

/**
 * An invitation to register in an organization, issued by an Owner or Manager: its token is shown
 * once and stored only as its SHA-256; it is used once, before `expires_at`, and by `email` when set.
 */
export const invitation = pgTable(
  'invitation',
  {
    id: id(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    email: text('email'),
    role: text('role').notNull().default('Member'),
    token_hash: text('token_hash').notNull(),
    created_by: integer('created_by').references(() => appUser.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    expires_at: timestampCol('expires_at').notNull(),
    used_at: timestampCol('used_at'),
    used_by: integer('used_by').references(() => appUser.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('invitation_token_hash_key').on(t.token_hash), index('invitation_organization_idx').on(t.organization_id)],
);

/**
 * Failed logins counted per key (`account:<email>`, `address:<ip>`) in a fixed window that starts
 * at the first failure: in the database, so that the limit holds however many nodes serve logins.
 */
export const loginFailure = pgTable(
  'login_failure',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    window_start: timestampCol('window_start').notNull(),
  },
  (t) => [index('login_failure_window_idx').on(t.window_start)],
);

/**
 * A one-time link sent by mail: `confirm` proves an address, `reset` sets a new password. Its token is
 * shown once (in the mail) and stored only as its SHA-256; used once, before `expires_at`.
 */
export const emailLink = pgTable(
  'email_link',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => appUser.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    /** The organization the link was asked from: its sign-in page is where the link leads, and a confirmed registration joins it. */
    organization_id: integer('organization_id').references(() => organization.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    created_at: createdAt(),
    expires_at: timestampCol('expires_at').notNull(),
    used_at: timestampCol('used_at'),
  },
  (t) => [uniqueIndex('email_link_token_hash_key').on(t.token_hash), index('email_link_user_idx').on(t.user_id)],
);

/**
 * An API token: personal (acts as `user_id`, its creator) or a service account's (acts as the service
 * account, `user_id`). Scoped to one organization with a role no higher than its creator's; read-only
 * when `read_only`. Shown once, stored as its SHA-256; `prefix` (its first characters) names it in lists.
 */
export const apiToken = pgTable(
  'api_token',
  {
    id: id(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => appUser.id, { onDelete: 'cascade' }),
    created_by: integer('created_by').references(() => appUser.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    role: text('role').notNull(),
    read_only: boolean('read_only').notNull().default(false),
    token_hash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    created_at: createdAt(),
    expires_at: timestampCol('expires_at'),
    last_used_at: timestampCol('last_used_at'),
    last_used_address: text('last_used_address'),
    revoked_at: timestampCol('revoked_at'),
  },
  (t) => [uniqueIndex('api_token_token_hash_key').on(t.token_hash), index('api_token_organization_idx').on(t.organization_id)],
);
