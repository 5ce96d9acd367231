// A configuration asked of the outside system it is for, when an instance is saved enabled: a
// plugin with a `check` (credentials, a project that exists) refuses what cannot work, and the
// Admin hears it as a 422 on the field to fix instead of from a job that fails later.
import { pluginBySlug } from '../../plugins/registry.ts';
import { type Configuration, ConfigurationRefused } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { validationError } from '../../server/errors.ts';
import { pluginEnv } from './active.ts';

/** Asks the vendor when the plugin can be asked: whether it was (a refusal throws the 422). */
export async function checkWithVendor(ctx: Ctx, slug: string, config: Configuration): Promise<boolean> {
  const plugin = pluginBySlug(slug);
  if (!plugin?.check) return false;
  const log = { info: (msg: string) => ctx.log?.debug({ plugin: slug }, msg), warn: (msg: string) => ctx.log?.warn({ plugin: slug }, msg) };
  try {
    await plugin.check(config, pluginEnv(ctx.settings, `check:${slug}`, log));
  } catch (err) {
    // Anything else (the system down, an answer not understood) is no proof the configuration is
    // wrong: the save goes through, and the jobs that use it say what fails.
    if (!(err instanceof ConfigurationRefused)) {
      log.warn(`checking the configuration failed: ${(err as Error).message}`);
      return true;
    }
    throw validationError([{ loc: ['body', 'configuration', err.field], msg: err.message, type: 'value_error.plugin_refused' }]);
  }
  return true;
}
