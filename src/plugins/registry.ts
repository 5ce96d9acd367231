// The plugins this process knows: Muster's built-ins, then the npm packages named in MUSTER_PLUGINS
// (loaded once at start-up, the same on every node). The catalogue rows (`muster plugins install`)
// and the instances of each project refer to them by slug.
import { Ajv } from 'ajv';
import { PLUGIN_TYPE_ALIASES, PLUGIN_TYPES, type Plugin, type PluginOf, type PluginType } from './types.ts';
import { emailPlugin } from './builtin/email.ts';
import { ticketPlugin } from './builtin/ticket.ts';
import { genericWorkflowPlugin } from './builtin/generic-workflow.ts';
import { participantPlugin } from './builtin/participant.ts';
import { contactPlugin } from './builtin/contact.ts';
import { oncallPlugin } from './builtin/oncall.ts';
import { webhookPlugin } from './builtin/webhook.ts';
import { slackPlugin } from './builtin/slack/plugin.ts';
import { storagePlugin } from './builtin/storage.ts';
import { jitsiPlugin } from './builtin/jitsi.ts';
import { participantGroupPlugin } from './builtin/participant-group.ts';
import { documentPlugin } from './builtin/document.ts';
import { documentResolverPlugin } from './builtin/document-resolver.ts';
import { zoomPlugin } from './builtin/zoom/plugin.ts';
import { teamsPlugin } from './builtin/teams/plugin.ts';
import { pagerdutyPlugin } from './builtin/pagerduty/plugin.ts';
import { goalertPlugin } from './builtin/goalert/plugin.ts';
import { grafanaOncallPlugin } from './builtin/grafana-oncall/plugin.ts';
import { googleDocsPlugin } from './builtin/google/docs.ts';
import { googleDrivePlugin } from './builtin/google/drive.ts';
import { googleGroupsPlugin } from './builtin/google/groups.ts';
import { googleCalendarPlugin } from './builtin/google/calendar.ts';
import { jiraPlugin } from './builtin/jira/plugin.ts';
import { musterWorkflowPlugin } from './builtin/muster-workflow.ts';
import { tracedPlugin } from './traced.ts';

/** Muster's own plugins, in the order `muster plugins list` shows them. */
export const BUILTIN_PLUGINS: Plugin[] = [
  ticketPlugin,
  participantPlugin,
  contactPlugin,
  oncallPlugin,
  emailPlugin,
  webhookPlugin,
  genericWorkflowPlugin,
  slackPlugin,
  storagePlugin,
  jitsiPlugin,
  participantGroupPlugin,
  documentPlugin,
  documentResolverPlugin,
  zoomPlugin,
  teamsPlugin,
  pagerdutyPlugin,
  goalertPlugin,
  grafanaOncallPlugin,
  googleDocsPlugin,
  googleDrivePlugin,
  googleGroupsPlugin,
  googleCalendarPlugin,
  jiraPlugin,
  musterWorkflowPlugin,
];

const known = new Map<string, Plugin>(BUILTIN_PLUGINS.map((p) => [p.slug, p]));

export class PluginLoadError extends Error {}

const isPluginType = (t: unknown): t is PluginType => typeof t === 'string' && (PLUGIN_TYPES as readonly string[]).includes(t);

const isEventDeclaration = (e: unknown) =>
  !!e &&
  typeof e === 'object' &&
  ['slug', 'name', 'description'].every((k) => typeof (e as Record<string, unknown>)[k] === 'string' && (e as Record<string, unknown>)[k] !== '');

/** Checks that a module's export declares what every plugin must; throws naming what is missing. */
export function checkPlugin(candidate: unknown, source: string): Plugin {
  const given = candidate as Partial<Plugin> | null;
  if (!given || typeof given !== 'object') throw new PluginLoadError(`${source}: does not export a plugin`);
  const alias = typeof given.type === 'string' ? PLUGIN_TYPE_ALIASES[given.type] : undefined;
  const p = (alias ? { ...given, type: alias } : given) as Partial<Plugin>;
  for (const field of ['slug', 'title', 'version', 'author', 'description'] as const) {
    if (typeof p[field] !== 'string' || !p[field]) throw new PluginLoadError(`${source}: the plugin has no ${field}`);
  }
  if (!isPluginType(p.type)) throw new PluginLoadError(`${source}: unknown plugin type ${JSON.stringify(p.type)} (one of ${PLUGIN_TYPES.join(', ')})`);
  if (p.events !== undefined && !(Array.isArray(p.events) && p.events.every(isEventDeclaration)))
    throw new PluginLoadError(`${source}: its events must each have a slug, a name and a description`);
  if (p.configuration !== undefined && (p.configuration as { type?: string }).type !== 'object')
    throw new PluginLoadError(`${source}: its configuration must be an object schema`);
  if (p.configuration !== undefined) {
    // Masking covers the top-level fields: a secret deeper down would be shown in clear.
    const nested = Object.entries(p.configuration.properties ?? {}).filter(
      ([, f]) => JSON.stringify(f).slice(1).includes('"writeOnly":true') && (f as { writeOnly?: boolean }).writeOnly !== true,
    );
    if (nested.length)
      throw new PluginLoadError(`${source}: secret fields must be top-level properties of the configuration (${nested.map(([k]) => k).join(', ')} holds one)`);
    // A schema that cannot be compiled is refused now, not at the first instance written with it.
    try {
      new Ajv({ strict: false, allErrors: true }).compile(p.configuration);
    } catch (err) {
      throw new PluginLoadError(`${source}: its configuration schema does not compile: ${(err as Error).message}`);
    }
  }
  return { author_url: '', ...p } as Plugin;
}

/** Adds plugins to this process's registry; a slug already known is refused. */
export function registerPlugins(plugins: Plugin[], source: string): void {
  const eventSlugs = new Set([...known.values()].flatMap((p) => (p.events ?? []).map((e) => e.slug)));
  for (const p of plugins) {
    if (known.has(p.slug)) throw new PluginLoadError(`${source}: a plugin with slug ${p.slug} is already loaded`);
    for (const e of p.events ?? []) {
      if (eventSlugs.has(e.slug)) throw new PluginLoadError(`${source}: a plugin event with slug ${e.slug} is already loaded`);
      eventSlugs.add(e.slug);
    }
    known.set(p.slug, p);
  }
}

/** Loads the npm packages named in MUSTER_PLUGINS (comma-separated); each exports a plugin or a list. */
export async function loadPluginPackages(names: string | undefined): Promise<Plugin[]> {
  const loaded: Plugin[] = [];
  for (const name of (names ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)) {
    let mod: { default?: unknown; plugins?: unknown };
    try {
      mod = await import(name);
    } catch (err) {
      throw new PluginLoadError(`MUSTER_PLUGINS names ${name}, which cannot be loaded: ${(err as Error).message}`);
    }
    const exported = mod.default ?? mod.plugins;
    const list = (Array.isArray(exported) ? exported : [exported]).map((p) => checkPlugin(p, name));
    registerPlugins(list, name);
    loaded.push(...list);
  }
  return loaded;
}

/** Every plugin this process knows. */
export const allPlugins = (): Plugin[] => [...known.values()];

/** The plugin with this slug, if this process knows it. */
export const pluginBySlug = (slug: string): Plugin | undefined => known.get(slug);

/** The plugin with this slug when it is of type `type`. */
export function pluginOfType<T extends PluginType>(slug: string, type: T): PluginOf<T> | undefined {
  const p = known.get(slug);
  return p?.type === type ? tracedPlugin(p as PluginOf<T>) : undefined;
}
