// The plugin catalogue: one row per plugin this installation offers (`muster plugins install`
// writes them from the plugins loaded in the process). Every project has an instance of each
// (project/plugin-instances.ts).
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { allPlugins } from '../../plugins/registry.ts';
import type { Plugin } from '../../plugins/types.ts';
import { seedInstances } from '../project/plugin-instances.ts';
import { plugin, pluginEvent, pluginOffered } from './table.ts';

const catalogueRow = (p: Plugin) => ({
  slug: p.slug,
  title: p.title,
  type: p.type,
  version: p.version,
  author: p.author,
  author_url: p.author_url ?? '',
  multiple: p.multiple ?? false,
  description: p.description,
});

/**
 * Writes the events the given plugins declare, for those in the catalogue: missing ones are added;
 * with `refresh`, known ones take the declaration's plugin, name and description. None is removed
 * here: cost models may price them.
 */
async function writeEvents(db: Executor, plugins: Plugin[], refresh: boolean): Promise<void> {
  const declared = plugins.filter((p) => p.events?.length);
  if (declared.length === 0) return;
  const rows = await db
    .select({ id: plugin.id, slug: plugin.slug })
    .from(plugin)
    .where(
      inArray(
        plugin.slug,
        declared.map((p) => p.slug),
      ),
    );
  const idOf = new Map(rows.map((r) => [r.slug, r.id]));
  const values = declared.flatMap((p) =>
    idOf.has(p.slug) ? (p.events ?? []).map((e) => ({ plugin_id: idOf.get(p.slug)!, slug: e.slug, name: e.name, description: e.description })) : [],
  );
  if (values.length === 0) return;
  const insert = db.insert(pluginEvent).values(values);
  await (refresh
    ? insert.onConflictDoUpdate({
        target: pluginEvent.slug,
        set: { plugin_id: sql`excluded.plugin_id`, name: sql`excluded.name`, description: sql`excluded.description` },
      })
    : insert.onConflictDoNothing());
}

export interface InstallResult {
  added: string[];
  refreshed: string[];
}

/**
 * Writes catalogue rows for the loaded plugins: new ones are added (and every project gets an
 * instance of them); with `force`, existing rows are refreshed from the plugin's declaration.
 */
export async function installPlugins(db: Executor, opts: { force?: boolean; plugins?: Plugin[] } = {}): Promise<InstallResult> {
  const plugins = opts.plugins ?? allPlugins();
  return db.transaction(async (tx) => {
    const existing = new Set((await tx.select({ slug: plugin.slug }).from(plugin)).map((r) => r.slug));
    const fresh = plugins.filter((p) => !existing.has(p.slug));
    const refreshed = opts.force ? plugins.filter((p) => existing.has(p.slug)) : [];
    let addedIds: number[] = [];
    if (fresh.length) addedIds = (await tx.insert(plugin).values(fresh.map(catalogueRow)).returning({ id: plugin.id })).map((r) => r.id);
    for (const p of refreshed) await tx.update(plugin).set(catalogueRow(p)).where(eq(plugin.slug, p.slug));
    if (addedIds.length) await tx.execute(seedInstances(undefined, undefined, addedIds));
    if (plugins.length)
      await tx
        .insert(pluginOffered)
        .values(plugins.map((p) => ({ slug: p.slug })))
        .onConflictDoNothing();
    await writeEvents(tx, [...fresh, ...refreshed], opts.force ?? false);
    return { added: fresh.map((p) => p.slug), refreshed: refreshed.map((p) => p.slug) };
  });
}

/** Removes plugins from the catalogue, with every project's instances of them (and their workflows). */
export async function uninstallPlugins(db: Executor, slugs: string[]): Promise<string[]> {
  if (slugs.length === 0) return [];
  const removed = await db.delete(plugin).where(inArray(plugin.slug, slugs)).returning({ slug: plugin.slug });
  return removed.map((r) => r.slug);
}

/**
 * Adds the loaded plugins the catalogue has never offered: all of them on a new database, a new
 * built-in after an upgrade, a package newly named in MUSTER_PLUGINS. One that was uninstalled
 * stays out. On a catalogue that has its plugins, adds the events of loaded plugins that it lacks
 * (a database from before plugin events). Undefined when no plugin was added.
 */
export async function ensureCatalogue(db: Executor): Promise<InstallResult | undefined> {
  const offered = new Set((await db.select({ slug: pluginOffered.slug }).from(pluginOffered)).map((r) => r.slug));
  const unseen = allPlugins().filter((p) => !offered.has(p.slug));
  await writeEvents(
    db,
    allPlugins().filter((p) => offered.has(p.slug)),
    false,
  );
  if (unseen.length === 0) return undefined;
  return installPlugins(db, { plugins: unseen });
}
