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

/**
 * The project's enabled instance of a plugin of `type`, or undefined when there is none (or its
 * plugin is not loaded in this process, e.g. a third-party package removed from MUSTER_PLUGINS).
 */
export async function activeInstance<T extends PluginType>(
  tx: Executor,
  settings: Settings,
  projectId: number,
  type: T,
): Promise<ActiveInstance<T> | undefined> {
  const [row] = await tx
    .select({ id: pluginInstance.id, configuration: pluginInstance.configuration, slug: plugin.slug })
    .from(pluginInstance)
    .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
    .where(and(eq(pluginInstance.project_id, projectId), eq(pluginInstance.plugin_type, type), eq(pluginInstance.enabled, true)))
    .limit(1);
  if (!row) return undefined;
  const found = pluginOfType(row.slug, type);
  if (!found) return undefined;
  return { id: row.id, projectId, plugin: found, config: decryptConfiguration(row.configuration, settings.encryptionKey!) };
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
