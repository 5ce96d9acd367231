// The plugin catalogue as API callers read it, and the rules of plugin instances: configuration
// checked against the plugin's schema, stored encrypted and shown masked; one enabled instance per
// type per project; everything scoped to the caller's organization.
import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { TObject } from '@sinclair/typebox';
import { readColumns } from '../../db/columns.ts';
import type { Executor } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { outboundFor } from '../../lib/outbound/client.ts';
import type { ListDefinition } from '../../list/definition.ts';
import { runList } from '../../list/engine.ts';
import { toTsQuery } from '../../list/search.ts';
import { pluginBySlug } from '../../plugins/registry.ts';
import {
  ConfigurationUnreadable,
  decryptConfiguration,
  encryptConfiguration,
  maskConfiguration,
  SECRET_MASK,
  secretFields,
  unmaskConfiguration,
} from '../../plugins/secrets.ts';
import type { Configuration } from '../../plugins/types.ts';
import { atLeast, requirePermission, type Ctx, type Role } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { projectOfBody } from '../../crud/service.ts';
import type { RefValue } from '../../crud/refs.ts';
import type { Reader } from '../../crud/group.ts';
import { UNRESTRICTED } from '../../server/viewer.ts';
import { audit } from '../audit/record.ts';
import { organization } from '../organization/table.ts';
import { project } from '../project/table.ts';
import type { PluginEventReadT, PluginInstanceCreateT, PluginInstanceReadT, PluginInstanceUpdateT, PluginReadT } from './schema.ts';
import { checkConfiguration, jsonSchemaOf } from './configuration.ts';
import { checkDestinations, keepsSecretsWhereTheyGo, urlsAsOrigins } from './destinations.ts';
import { plugin, pluginEvent, pluginInstance } from './table.ts';
import { checkWithVendor } from './vendor-check.ts';

type PluginRow = typeof plugin.$inferSelect;

const pluginColumns = readColumns(plugin);
const projectColumns = readColumns(project);

/** The schema of the plugin with this slug, when this process has it loaded. */
const schemaOf = (slug: string): TObject | undefined => pluginBySlug(slug)?.configuration;

const pluginRead = (row: PluginRow): PluginReadT => ({ ...row, configuration_schema: jsonSchemaOf(schemaOf(row.slug)) });

/** Catalogue search: title, slug, type and description, as Dispatch's plugin search vector. */
function catalogueSearch(q: string | undefined): SQL | undefined {
  const tsquery = toTsQuery(q);
  if (tsquery === null) return undefined;
  const text = sql`coalesce(${plugin.title}, '') || ' ' || ${plugin.slug} || ' ' || ${plugin.type} || ' ' || coalesce(${plugin.description}, '')`;
  return sql`to_tsvector('simple', ${text}) @@ to_tsquery('simple', ${tsquery})`;
}

const pluginFields = {
  id: 'int',
  title: 'text',
  slug: 'text',
  type: 'text',
  version: 'text',
  author: 'text',
  author_url: 'text',
  multiple: 'bool',
  description: 'text',
} as const;

const pluginList: ListDefinition<typeof pluginColumns> = {
  model: 'Plugin',
  tableName: 'plugin',
  table: plugin,
  columns: pluginColumns,
  idColumn: plugin.id,
  fields: pluginFields,
};

/** The catalogue (shared by every organization): any member may read it. */
export async function listPlugins(ctx: Ctx, query: ListQueryT) {
  const page = await runList<PluginRow>(ctx.db, ctx, pluginList, query, sql`TRUE`, catalogueSearch(query.q));
  return { ...page, items: page.items.map(pluginRead) };
}

// ---- plugin events -------------------------------------------------------------------------------

const eventColumns = readColumns(pluginEvent);
type EventRow = typeof pluginEvent.$inferSelect;

const eventList: ListDefinition<typeof eventColumns> = {
  model: 'PluginEvent',
  tableName: 'plugin_event',
  table: pluginEvent,
  columns: eventColumns,
  idColumn: pluginEvent.id,
  fields: { id: 'int', name: 'text', slug: 'text', description: 'text' },
  relations: [{ kind: 'one', model: 'Plugin', tableName: 'plugin', table: plugin, on: eq(plugin.id, pluginEvent.plugin_id), fields: pluginFields }],
};

/** Event search: name, slug and description, as Dispatch's plugin event search vector. */
function eventSearch(q: string | undefined): SQL | undefined {
  const tsquery = toTsQuery(q);
  if (tsquery === null) return undefined;
  const text = sql`${pluginEvent.name} || ' ' || ${pluginEvent.slug} || ' ' || coalesce(${pluginEvent.description}, '')`;
  return sql`to_tsvector('simple', ${text}) @@ to_tsquery('simple', ${tsquery})`;
}

/** Plugin events by id, each with its plugin. */
export const pluginEventReader: Reader<PluginEventReadT> = async (db, ids) => {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.select(eventColumns).from(pluginEvent).where(inArray(pluginEvent.id, wanted));
  return new Map((await readEvents(db, rows)).map((e) => [e.id, e]));
};

async function readEvents(db: Executor, rows: EventRow[]): Promise<PluginEventReadT[]> {
  if (rows.length === 0) return [];
  const plugins = await db
    .select(pluginColumns)
    .from(plugin)
    .where(
      inArray(
        plugin.id,
        rows.map((r) => r.plugin_id),
      ),
    );
  const byId = new Map(plugins.map((p) => [p.id, pluginRead(p)]));
  return rows.map(({ plugin_id, ...event }) => ({ ...event, plugin: byId.get(plugin_id)! }));
}

/** The catalogue's plugin events (shared by every organization): any member may read them. */
export async function listPluginEvents(ctx: Ctx, query: ListQueryT) {
  const page = await runList<EventRow>(ctx.db, ctx, eventList, query, sql`TRUE`, eventSearch(query.q));
  return { ...page, items: await readEvents(ctx.db, page.items) };
}

// ---- instances ------------------------------------------------------------------------------------

const instanceColumns = {
  id: pluginInstance.id,
  project_id: pluginInstance.project_id,
  plugin_id: pluginInstance.plugin_id,
  plugin_type: pluginInstance.plugin_type,
  enabled: pluginInstance.enabled,
  configuration: pluginInstance.configuration,
};
type InstanceRow = { id: number; project_id: number; plugin_id: number; plugin_type: string; enabled: boolean; configuration: string | null };

const instanceList: ListDefinition<typeof instanceColumns> = {
  model: 'PluginInstance',
  tableName: 'plugin_instance',
  table: pluginInstance,
  columns: instanceColumns,
  idColumn: pluginInstance.id,
  fields: { id: 'int', enabled: 'bool', plugin_type: 'text', created_at: 'timestamp', updated_at: 'timestamp' },
  relations: [
    { kind: 'one', model: 'Plugin', tableName: 'plugin', table: plugin, on: eq(plugin.id, pluginInstance.plugin_id), fields: pluginFields },
    {
      kind: 'one',
      model: 'Project',
      tableName: 'project',
      table: project,
      on: eq(project.id, pluginInstance.project_id),
      fields: { id: 'int', name: 'text', default: 'bool' },
    },
    {
      kind: 'one',
      model: 'Organization',
      tableName: 'organization',
      table: organization,
      on: eq(organization.id, pluginInstance.organization_id),
      fields: { id: 'int', name: 'text', slug: 'text' },
    },
  ],
};

const inOrganization = (ctx: Ctx) => eq(pluginInstance.organization_id, ctx.organization.id);
const notFound = () => errors.notFound('A plugin instance');

/** The stored configuration in clear; an unreadable one (MUSTER_ENCRYPTION_KEY changed) as undefined. */
/**
 * What opens stored configurations: a request's or a job's context (its settings' key), and who
 * reads them (URLs whole for Admins and above, their origins for anyone else).
 */
type Keyed = { settings: { encryptionKey?: string }; role?: Role };

function storedConfiguration(ctx: Keyed, row: Pick<InstanceRow, 'configuration'>): Configuration | undefined {
  if (!ctx.settings.encryptionKey) return undefined;
  try {
    return decryptConfiguration(row.configuration, ctx.settings.encryptionKey);
  } catch (err) {
    if (err instanceof ConfigurationUnreadable) return undefined;
    throw err;
  }
}

/**
 * The configuration as callers see it. Without the plugin loaded, which fields are secret is
 * unknown, so every value is masked.
 */
function shownConfiguration(ctx: Keyed, row: InstanceRow, slug: string): Configuration | null {
  const config = storedConfiguration(ctx, row);
  if (!config) return null;
  return atLeast(ctx.role, 'Admin') ? masked(config, slug) : urlsAsOrigins(masked(config, slug), schemaOf(slug));
}

/** A configuration in clear as callers (and the audit log) see it: secrets masked, every value when the plugin is not loaded. */
function masked(config: Configuration, slug: string): Configuration {
  if (!pluginBySlug(slug)) return Object.fromEntries(Object.keys(config).map((k) => [k, SECRET_MASK]));
  return maskConfiguration(config, schemaOf(slug));
}

// ---- the audit log: an instance as its entries show it, configuration masked as the read masks it ----

interface AuditedInstance {
  plugin: string;
  project_id: number;
  enabled: boolean;
  configuration: Configuration | null;
}

const audited = (slug: string, row: { project_id: number; enabled: boolean }, config: Configuration | undefined): AuditedInstance => ({
  plugin: slug,
  project_id: row.project_id,
  enabled: row.enabled,
  configuration: config ? masked(config, slug) : null,
});

/** The secret fields whose stored values differ (named, never shown). */
function changedSecrets(slug: string, before: Configuration | undefined, after: Configuration | undefined): string[] {
  return secretFields(schemaOf(slug)).filter((k) => JSON.stringify(before?.[k]) !== JSON.stringify(after?.[k]));
}

async function auditInstance(
  tx: Executor,
  ctx: Ctx,
  action: 'created' | 'updated' | 'enabled' | 'disabled' | 'deleted',
  id: number,
  slug: string,
  change: { before?: AuditedInstance; after?: AuditedInstance; details?: Record<string, unknown> },
) {
  await audit(tx, ctx, {
    action: `plugin_instance.${action}`,
    target: { type: 'plugin_instance', id, label: slug },
    before: change.before,
    after: change.after,
    details: change.details,
  });
}

/** The read shape of instance rows, with their plugins and projects. */
async function readInstances(ctx: Keyed, db: Executor, rows: InstanceRow[]): Promise<PluginInstanceReadT[]> {
  if (rows.length === 0) return [];
  const pluginIds = [...new Set(rows.map((r) => r.plugin_id))];
  const projectIds = [...new Set(rows.map((r) => r.project_id))];
  const [plugins, projects] = await Promise.all([
    db.select(pluginColumns).from(plugin).where(inArray(plugin.id, pluginIds)),
    db.select(projectColumns).from(project).where(inArray(project.id, projectIds)),
  ]);
  const pluginById = new Map(plugins.map((p) => [p.id, pluginRead(p)]));
  const projectById = new Map(projects.map((p) => [p.id, p]));
  return rows.map((r) => {
    const p = pluginById.get(r.plugin_id)!;
    return {
      id: r.id,
      enabled: r.enabled,
      configuration: shownConfiguration(ctx, r, p.slug),
      configuration_schema: p.configuration_schema,
      plugin: p,
      project: projectById.get(r.project_id) ?? null,
    } as PluginInstanceReadT;
  });
}

/** Any member may list the organization's instances (secrets masked). */
export async function listInstances(ctx: Ctx, query: ListQueryT) {
  const page = await runList<InstanceRow>(ctx.db, ctx, instanceList, query, inOrganization(ctx), instanceSearch(query.q));
  return { ...page, items: await readInstances(ctx, ctx.db, page.items) };
}

/** Instance search goes through the plugin's words. */
function instanceSearch(q: string | undefined): SQL | undefined {
  const matches = catalogueSearch(q);
  return matches && sql`EXISTS (SELECT 1 FROM ${plugin} WHERE ${plugin.id} = ${pluginInstance.plugin_id} AND ${matches})`;
}

async function findInstance(db: Executor, ctx: Ctx, id: number, lock = false): Promise<InstanceRow> {
  const q = db
    .select(instanceColumns)
    .from(pluginInstance)
    .where(and(inOrganization(ctx), eq(pluginInstance.id, id)));
  const [row] = await (lock ? q.for('update') : q);
  if (!row) throw notFound();
  return row;
}

/**
 * PluginInstanceRead by id, for records that nest the instance they run through (workflows), the
 * configuration masked. The viewer is the caller's context; one without settings (no key to open
 * configurations with) reads them as null.
 */
export const pluginInstanceReader: Reader<PluginInstanceReadT> = async (db, ids, viewer) => {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.select(instanceColumns).from(pluginInstance).where(inArray(pluginInstance.id, wanted));
  const keyed = viewer !== UNRESTRICTED && 'settings' in viewer ? (viewer as Keyed) : { settings: {} };
  return new Map((await readInstances(keyed, db, rows)).map((r) => [r.id, r]));
};

async function readInstance(ctx: Ctx, id: number): Promise<PluginInstanceReadT> {
  const [read] = await readInstances(ctx, ctx.db, [await findInstance(ctx.db, ctx, id)]);
  return read;
}

export async function getInstance(ctx: Ctx, id: number): Promise<PluginInstanceReadT> {
  requirePermission(ctx.role, 'SensitiveProjectAction');
  return readInstance(ctx, id);
}

/** The catalogue row a body names: by id, else by slug. 422 on `plugin` otherwise. */
async function pluginOfBody(db: Executor, ref: RefValue): Promise<PluginRow> {
  const by = typeof ref?.id === 'number' ? eq(plugin.id, ref.id) : typeof ref?.slug === 'string' ? eq(plugin.slug, ref.slug) : undefined;
  const [row] = by ? await db.select(pluginColumns).from(plugin).where(by) : [];
  if (!row) throw invalid(['plugin'], 'Plugin not found.', 'value_error.not_found');
  return row;
}

/** Dispatch keeps the stored configuration when an update sends none, null or `{}`. */
const sent = (config: Configuration | null | undefined): config is Configuration => !!config && Object.keys(config).length > 0;

/**
 * The configuration to store: what was sent (masked secrets replaced by the stored ones) or else
 * what is stored. It is checked against the plugin's schema when it changes and whenever the
 * instance is to be enabled, so an enabled instance always holds a configuration its plugin takes.
 */
function nextConfiguration(slug: string, stored: Configuration, body: Configuration | null | undefined, enabling: boolean): Configuration | undefined {
  const schema = schemaOf(slug);
  if (enabling && !pluginBySlug(slug)) {
    throw invalid(['body', 'enabled'], `The plugin ${slug} is not loaded in this server (see MUSTER_PLUGINS); it cannot be enabled.`);
  }
  if (!sent(body)) {
    if (enabling) checkConfiguration(structuredClone(stored), schema);
    return undefined;
  }
  const config = unmaskConfiguration(body, stored, schema);
  for (const [k, v] of Object.entries(config)) if (v === undefined) delete config[k];
  checkConfiguration(config, schema);
  keepsSecretsWhereTheyGo(body, config, stored, schema);
  return config;
}

/** Disables the project's other enabled instance of the type, before this one is enabled; each is an audit entry. */
async function disableOthers(tx: Executor, ctx: Ctx, projectId: number, type: string, keepId?: number) {
  const others = and(eq(pluginInstance.project_id, projectId), eq(pluginInstance.plugin_type, type), eq(pluginInstance.enabled, true));
  const disabled = await tx
    .update(pluginInstance)
    .set({ enabled: false, updated_at: new Date() })
    .where(keepId === undefined ? others : and(others, ne(pluginInstance.id, keepId)))
    .returning({ id: pluginInstance.id, plugin_id: pluginInstance.plugin_id });
  for (const other of disabled) {
    const [{ slug }] = await tx.select({ slug: plugin.slug }).from(plugin).where(eq(plugin.id, other.plugin_id));
    await auditInstance(tx, ctx, 'disabled', other.id, slug, {
      before: { plugin: slug, project_id: projectId, enabled: true, configuration: null },
      after: { plugin: slug, project_id: projectId, enabled: false, configuration: null },
      details: { reason: `another ${type} instance of the project was enabled` },
    });
  }
}

/** Two callers enabling instances of one type at once: the database keeps one, the other is told. */
const raced = (err: unknown) => {
  throw isUniqueViolation(err) ? errors.conflict('Another instance of this plugin type was enabled at the same time; try again.') : err;
};

/**
 * Creates an instance. What the plugin's vendor says of the configuration is asked before the
 * transaction, so that a slow vendor holds no connection and no lock while it answers.
 */
export async function createInstance(ctx: Ctx, body: PluginInstanceCreateT): Promise<PluginInstanceReadT> {
  requirePermission(ctx.role, 'SensitiveProjectAction');
  const row = await pluginOfBody(ctx.db, body.plugin as RefValue);
  await projectOfBody(ctx.db, ctx, body.project as RefValue);
  const enabled = body.enabled ?? false;
  const config = nextConfiguration(row.slug, {}, body.configuration, enabled) ?? {};
  await checkDestinations(config, schemaOf(row.slug), outboundFor(ctx.settings.outboundAllow));
  if (enabled) await checkWithVendor(ctx, row.slug, config);
  const id = await ctx.db
    .transaction(async (tx) => {
      // Found again in the transaction: a project deleted meanwhile answers as one never there.
      const proj = await projectOfBody(tx, ctx, body.project as RefValue);
      if (enabled) await disableOthers(tx, ctx, proj.id, row.type);
      const [created] = await tx
        .insert(pluginInstance)
        .values({
          organization_id: ctx.organization.id,
          project_id: proj.id,
          plugin_id: row.id,
          plugin_type: row.type,
          enabled,
          configuration: encryptConfiguration(config, ctx.settings.encryptionKey!),
        })
        .returning({ id: pluginInstance.id });
      await auditInstance(tx, ctx, 'created', created.id, row.slug, { after: audited(row.slug, { project_id: proj.id, enabled }, config) });
      return created.id;
    })
    .catch(raced);
  return readInstance(ctx, id);
}

/**
 * Updates an instance. The configuration to store (masked secrets resolved from the stored ones)
 * is worked out and asked of the vendor before the transaction, as on create; when the vendor was
 * asked, the transaction then finds the instance as it was read, or answers 409 (another save came
 * in between, and what was checked is not what would be stored).
 */
export async function updateInstance(ctx: Ctx, id: number, body: PluginInstanceUpdateT): Promise<PluginInstanceReadT> {
  requirePermission(ctx.role, 'SensitiveProjectAction');
  const row = await findInstance(ctx.db, ctx, id);
  const [{ slug }] = await ctx.db.select({ slug: plugin.slug }).from(plugin).where(eq(plugin.id, row.plugin_id));
  const enabled = body.enabled ?? row.enabled;
  const enabling = enabled && !row.enabled;
  const stored = storedConfiguration(ctx, row);
  const config = nextConfiguration(slug, stored ?? {}, body.configuration, enabling);
  if (config) await checkDestinations(config, schemaOf(slug), outboundFor(ctx.settings.outboundAllow));
  const asked = enabled && (config || enabling) ? await checkWithVendor(ctx, slug, config ?? stored ?? {}) : false;
  await ctx.db
    .transaction(async (tx) => {
      const now = await findInstance(tx, ctx, id, true);
      // Without a vendor's check nothing was vouched for: the last save wins whole, as in Dispatch.
      if (asked && (now.enabled !== row.enabled || now.configuration !== row.configuration))
        throw errors.conflict('The plugin instance was changed while its configuration was being checked; try again.');
      if (enabling) await disableOthers(tx, ctx, row.project_id, row.plugin_type, row.id);
      await tx
        .update(pluginInstance)
        .set({
          enabled,
          ...(config ? { configuration: encryptConfiguration(config, ctx.settings.encryptionKey!) } : {}),
          updated_at: new Date(),
        })
        .where(eq(pluginInstance.id, id));
      const secrets = config ? changedSecrets(slug, stored, config) : [];
      await auditInstance(tx, ctx, enabled === row.enabled ? 'updated' : enabled ? 'enabled' : 'disabled', id, slug, {
        before: audited(slug, row, stored),
        after: audited(slug, { project_id: row.project_id, enabled }, config ?? stored),
        details: secrets.length ? { secrets_changed: secrets } : undefined,
      });
    })
    .catch(raced);
  return readInstance(ctx, id);
}

/** Deletes the instance; workflows that run through it go with it. */
export async function deleteInstance(ctx: Ctx, id: number): Promise<null> {
  requirePermission(ctx.role, 'SensitiveProjectAction');
  await ctx.db.transaction(async (tx) => {
    const row = await findInstance(tx, ctx, id, true);
    const [{ slug }] = await tx.select({ slug: plugin.slug }).from(plugin).where(eq(plugin.id, row.plugin_id));
    await tx.delete(pluginInstance).where(eq(pluginInstance.id, id));
    await auditInstance(tx, ctx, 'deleted', id, slug, { before: audited(slug, row, storedConfiguration(ctx, row)) });
  });
  return null;
}
