import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';

export const organization = pgTable(
  'organization',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    default: boolean('default').notNull().default(false),
    banner_enabled: boolean('banner_enabled').notNull().default(false),
    banner_text: text('banner_text'),
    banner_color: text('banner_color'),
    /**
     * Who may register themselves in it (POST /{organization}/auth/register): `open` (anyone),
     * `domains` (e-mail addresses of `registration_domains`), `invitation` (only with an invitation).
     */
    registration: text('registration').notNull().default('invitation'),
    registration_domains: text('registration_domains').array().notNull().default(sql`'{}'::text[]`),
    /** Whether members may sign in with a password; false leaves single sign-on only (when it is configured). */
    password_login: boolean('password_login').notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [
    uniqueIndex('organization_name_key').on(t.name),
    uniqueIndex('organization_slug_key').on(t.slug),
    index('organization_search_idx').using('gin', t.search_vector),
  ],
);

export type OrganizationRow = typeof organization.$inferSelect;
