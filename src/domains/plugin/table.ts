// The plugin catalogue (one row per installed plugin, shared by every organization, written by
// `muster plugins install`) and each project's instances of them. An instance's configuration is
// stored encrypted (plugins/secrets.ts). Its plugin's type is kept beside it so that the database
// itself holds "one enabled instance per type per project". Plugin events are catalogue rows too.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';

export const plugin = pgTable('plugin', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique('plugin_slug_key'),
  title: text('title').notNull(),
  type: text('type').notNull(),
  version: text('version').notNull(),
  author: text('author').notNull(),
  author_url: text('author_url').notNull().default(''),
  multiple: boolean('multiple').notNull().default(false),
  description: text('description'),
});

/**
 * Every plugin slug the catalogue has ever offered: a plugin loaded that was never offered (a new
 * built-in after an upgrade, a package newly in MUSTER_PLUGINS) is added at start-up; one an Owner
 * uninstalled was offered, and stays out until `muster plugins install`.
 */
export const pluginOffered = pgTable('plugin_offered', {
  slug: text('slug').primaryKey(),
  created_at: createdAt(),
});

/**
 * What the catalogue's plugins observe people doing (Dispatch's plugin events), written with the
 * catalogue from each plugin's `events`; cost models price them.
 */
export const pluginEvent = pgTable('plugin_event', {
  id: serial('id').primaryKey(),
  plugin_id: integer('plugin_id')
    .notNull()
    .references(() => plugin.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull().unique('plugin_event_slug_key'),
  name: text('name').notNull(),
  description: text('description'),
});

export const pluginInstance = pgTable(
  'plugin_instance',
  {
    id: serial('id').primaryKey(),
    ...projectScoped(),
    plugin_id: integer('plugin_id')
      .notNull()
      .references(() => plugin.id, { onDelete: 'cascade' }),
    /** The plugin's type, copied when the instance is created. */
    plugin_type: text('plugin_type').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    /** The configuration, AES-GCM encrypted; null: none given. */
    configuration: text('configuration'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('plugin_instance_project_idx').on(t.project_id, t.plugin_id),
    index('plugin_instance_organization_idx').on(t.organization_id, t.id),
    uniqueIndex('plugin_instance_enabled_type_key').on(t.project_id, t.plugin_type).where(sql`enabled`),
  ],
);
