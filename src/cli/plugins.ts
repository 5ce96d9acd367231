// `muster plugins`: the plugins this installation can run (Muster's own and the packages named in
// MUSTER_PLUGINS), and the catalogue rows every project's instances refer to.
import { Command, Option } from 'commander';
import { loadSettings, readSettings } from '../config.ts';
import { openReady } from '../app/bootstrap.ts';
import type { Database } from '../db/connection.ts';
import { installPlugins, uninstallPlugins } from '../domains/plugin/catalogue.ts';
import { allPlugins, loadPluginPackages } from '../plugins/registry.ts';
import { formatTable } from './table.ts';

/**
 * The database, brought up to date with the third-party plugins loaded first: opening it adds the
 * plugins the catalogue never offered, which `fn` is told of.
 */
async function withCatalogue<T>(fn: (database: Database, addedOnOpen: string[]) => Promise<T>): Promise<T> {
  const settings = loadSettings();
  await loadPluginPackages(settings.plugins);
  let addedOnOpen: string[] = [];
  const database = await openReady(settings, undefined, (r) => {
    addedOnOpen = r.pluginsAdded;
  });
  try {
    return await fn(database, addedOnOpen);
  } finally {
    await database.close();
  }
}

export function pluginsCommand(): Command {
  const plugins = new Command('plugins').description('List, install and uninstall plugins');

  plugins
    .command('list')
    .description('List the plugins this installation can run (built-in and MUSTER_PLUGINS)')
    .action(async () => {
      await loadPluginPackages(readSettings().plugins);
      const rows = allPlugins().map((p) => [p.title, p.slug, p.version, p.type, p.author, p.description]);
      console.log(formatTable(['Title', 'Slug', 'Version', 'Type', 'Author', 'Description'], rows));
    });

  plugins
    .command('install')
    .description('Add the loaded plugins missing from the catalogue (every project gets an instance of each)')
    .addOption(new Option('--force', 'also refresh the catalogue rows of plugins already installed'))
    .action(async (opts: { force?: boolean }) => {
      const result = await withCatalogue(async (database, addedOnOpen) => {
        const r = await installPlugins(database.db, { force: opts.force });
        return { ...r, added: [...addedOnOpen, ...r.added], refreshed: r.refreshed.filter((s) => !addedOnOpen.includes(s)) };
      });
      const done = new Set([...result.added, ...result.refreshed]);
      const kept = allPlugins()
        .map((p) => p.slug)
        .filter((s) => !done.has(s));
      if (result.added.length) console.log(`Added: ${result.added.join(', ')}`);
      if (result.refreshed.length) console.log(`Refreshed: ${result.refreshed.join(', ')}`);
      if (kept.length) console.log(`Already installed: ${kept.join(', ')} (--force refreshes them)`);
    });

  plugins
    .command('uninstall')
    .description("Remove plugins from the catalogue, with every project's instances of them and their workflows")
    .argument('<slugs...>', 'slugs of the plugins to remove')
    .action(async (slugs: string[]) => {
      const removed = await withCatalogue((database) => uninstallPlugins(database.db, slugs));
      if (removed.length) console.log(`Uninstalled: ${removed.join(', ')}`);
      const unknown = slugs.filter((s) => !removed.includes(s));
      if (unknown.length) throw new Error(`not installed: ${unknown.join(', ')} (muster plugins list shows the plugins, by slug)`);
    });

  return plugins;
}
