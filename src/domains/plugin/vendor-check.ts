// A configuration checked against the outside system it is for, when an enabled instance is saved:
// the plugin's optional `check` (the key works, the service exists). What it refuses is a 422 on
// the configuration, in the plugin's words; a plugin without `check` is taken on its schema alone.
import type { Settings } from '../../config.ts';
import { pluginBySlug } from '../../plugins/registry.ts';
import type { Configuration } from '../../plugins/types.ts';
import { invalid } from '../../server/errors.ts';
import { pluginEnv } from './active.ts';

export async function checkWithVendor(slug: string, config: Configuration, settings: Settings, log?: { warn(obj: object, msg: string): void }): Promise<void> {
  const check = pluginBySlug(slug)?.check;
  if (!check) return;
  const env = pluginEnv(settings, `check:${slug}:${Date.now()}`, { info() {}, warn: (msg) => log?.warn({ plugin: slug }, msg) });
  try {
    await check(config, env);
  } catch (err) {
    throw invalid(['body', 'configuration'], (err as Error).message, 'value_error.plugin_check');
  }
}
