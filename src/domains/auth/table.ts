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
