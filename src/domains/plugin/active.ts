// Finding the plugin a flow acts through: a project's enabled instance of a type, with its
// configuration decrypted. Flows call this; none of them decrypts or chooses on its own.
import { and, eq } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import { outboundFor } from '../../lib/outbound/client.ts';
import { pluginOfType } from '../../plugins/registry.ts';
import { organization } from '../organization/table.ts';
import { decryptConfiguration } from '../../plugins/secrets.ts';
import type { Configuration, PluginEnv, PluginOf, PluginType } from '../../plugins/types.ts';
import { plugin, pluginInstance } from './table.ts';

export interface ActiveInstance<T extends PluginType> {
  id: number;
  projectId: number;
  plugin: PluginOf<T>;
  config: Configuration;
}

const enabledRows = async (tx: Executor, projectId: number, type?: PluginType) =>
  tx
    .select({ id: pluginInstance.id, type: pluginInstance.plugin_type, configuration: pluginInstance.configuration, slug: plugin.slug })
    .from(pluginInstance)
    .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
    .where(and(eq(pluginInstance.project_id, projectId), type ? eq(pluginInstance.plugin_type, type) : undefined, eq(pluginInstance.enabled, true)));

type EnabledRow = Awaited<ReturnType<typeof enabledRows>>[number];

/** The transactions that read each project's enabled instances once (readPluginsOnce), with what they read. */
const readOnce = new WeakMap<Executor, Map<number, Promise<EnabledRow[]>>>();

/**
 * From now on in `tx`, a project's enabled instances of every type are read in one statement, once:
 * for a transaction that creates records, whose steps each ask for their own type for every record
 * of a batch, and that changes no plugin instance and moves no record to another project.
 */
export function readPluginsOnce(tx: Executor): void {
  if (!readOnce.has(tx)) readOnce.set(tx, new Map());
  if (!resolvedOnce.has(tx)) resolvedOnce.set(tx, new Map());
}

/** Whether `tx` reads plugins once (readPluginsOnce): what depends only on them may be kept for its length too. */
export const readsPluginsOnce = (tx: Executor): boolean => readOnce.has(tx);

/** The project's enabled instance of `type` (one at most: the table's own rule), read once per project where the transaction asked for it. */
async function enabledRow(tx: Executor, projectId: number, type: PluginType): Promise<EnabledRow | undefined> {
  const memo = readOnce.get(tx);
  if (!memo) return (await enabledRows(tx, projectId, type))[0];
  if (!memo.has(projectId)) memo.set(projectId, enabledRows(tx, projectId));
  return (await memo.get(projectId)!).find((r) => r.type === type);
}

/**
 * The project's enabled instance of a plugin of `type`, or undefined when there is none (or its
 * plugin is not loaded in this process, e.g. a third-party package removed from MUSTER_PLUGINS).
 * Where the transaction reads plugins once, each instance is also decrypted once.
 */
export async function activeInstance<T extends PluginType>(
  tx: Executor,
  settings: Settings,
  projectId: number,
  type: T,
): Promise<ActiveInstance<T> | undefined> {
  const memo = resolvedOnce.get(tx);
  if (!memo) return resolve(tx, settings, projectId, type);
  return remembered(memo, tx, settings, projectId, type);
}

async function resolve<T extends PluginType>(tx: Executor, settings: Settings, projectId: number, type: T): Promise<ActiveInstance<T> | undefined> {
  const row = await enabledRow(tx, projectId, type);
  if (!row) return undefined;
  const found = pluginOfType(row.slug, type);
  if (!found) return undefined;
  return { id: row.id, projectId, plugin: found, config: decryptConfiguration(row.configuration, settings.encryptionKey!) };
}

type Resolved = Map<string, Promise<unknown>>;

/** The instances resolved in each transaction that reads plugins once, by project and type. */
const resolvedOnce = new WeakMap<Executor, Resolved>();

function remembered<T extends PluginType>(memo: Resolved, tx: Executor, settings: Settings, projectId: number, type: T) {
  const key = `${projectId}:${type}`;
  if (!memo.has(key)) memo.set(key, resolve(tx, settings, projectId, type));
  return memo.get(key) as Promise<ActiveInstance<T> | undefined>;
}

/**
 * activeInstance for the many records of one call (a batch of new records mostly shares a project):
 * each project's instance of a type resolved once, for the transaction's length where it reads
 * plugins once, else for the lookup's.
 */
export function instanceLookup(tx: Executor, settings: Settings) {
  const memo: Resolved = resolvedOnce.get(tx) ?? new Map();
  return <T extends PluginType>(projectId: number, type: T) => remembered(memo, tx, settings, projectId, type);
}

/** An instance by id (enabled or not), when its plugin is of `type`; for workflows, which name their instance. */
export async function instanceOfType<T extends PluginType>(
  tx: Executor,
  settings: Settings,
  instanceId: number,
  type: T,
): Promise<ActiveInstance<T> | undefined> {
  const [row] = await tx
    .select({ id: pluginInstance.id, projectId: pluginInstance.project_id, configuration: pluginInstance.configuration, slug: plugin.slug })
    .from(pluginInstance)
    .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
    .where(eq(pluginInstance.id, instanceId));
  const found = row && pluginOfType(row.slug, type);
  if (!row || !found) return undefined;
  return { id: row.id, projectId: row.projectId, plugin: found, config: decryptConfiguration(row.configuration, settings.encryptionKey!) };
}

/**
 * Every enabled instance of the plugin `slug` in the organization with this URL slug (any project),
 * in project order, configurations decrypted: a request from an outside system (Slack's) is
 * checked against each one's secret. None when the organization is unknown.
 */
export async function enabledInstancesIn<T extends PluginType>(
  tx: Executor,
  settings: Settings,
  organizationSlug: string,
  slug: string,
  type: T,
): Promise<(ActiveInstance<T> & { organizationId: number })[]> {
  const found = pluginOfType(slug, type);
  if (!found) return [];
  const rows = await tx
    .select({
      id: pluginInstance.id,
      projectId: pluginInstance.project_id,
      organizationId: pluginInstance.organization_id,
      configuration: pluginInstance.configuration,
    })
    .from(pluginInstance)
    .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
    .innerJoin(organization, eq(organization.id, pluginInstance.organization_id))
    .where(and(eq(organization.slug, organizationSlug), eq(plugin.slug, slug), eq(pluginInstance.enabled, true)))
    .orderBy(pluginInstance.project_id, pluginInstance.id);
  return rows.map((row) => ({
    id: row.id,
    projectId: row.projectId,
    organizationId: row.organizationId,
    plugin: found,
    config: decryptConfiguration(row.configuration, settings.encryptionKey!),
  }));
}

/** Every organization's enabled instances of a plugin, with the organization's slug (Slack apps holding a Socket Mode connection). */
export async function enabledInstancesEverywhere<T extends PluginType>(
  tx: Executor,
  settings: Settings,
  slug: string,
  type: T,
): Promise<(ActiveInstance<T> & { organizationId: number; organization: string })[]> {
  const organizations = await tx
    .selectDistinct({ slug: organization.slug })
    .from(pluginInstance)
    .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
    .innerJoin(organization, eq(organization.id, pluginInstance.organization_id))
    .where(and(eq(plugin.slug, slug), eq(pluginInstance.enabled, true)))
    .orderBy(organization.slug);
  const found = await Promise.all(
    organizations.map(async (o) => (await enabledInstancesIn(tx, settings, o.slug, slug, type)).map((i) => ({ ...i, organization: o.slug }))),
  );
  return found.flat();
}

/** What a plugin function is given: the job's id as idempotency key, links, a log, the way out. */
export function pluginEnv(settings: Settings, idempotencyKey: string, log: { info(m: string): void; warn(m: string): void }): PluginEnv {
  return { idempotencyKey, uiUrl: settings.uiUrl, namePrefix: settings.namePrefix, log, outbound: outboundFor(settings.outboundAllow) };
}
