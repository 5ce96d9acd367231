// A configuration checked with the outside system it is for, when an enabled instance's is saved
// (the plugin's optional `check`): credentials or ids the system refuses are refused now, with its
// reason, rather than found out by the first job that fails. A system that does not answer does not
// stop the save: the configuration is used, and checked again, by every job.
import type { Settings } from '../../config.ts';
import { pluginBySlug } from '../../plugins/registry.ts';
import { type Configuration, ConfigurationRefused } from '../../plugins/types.ts';
import { validationError } from '../../server/errors.ts';
import { pluginEnv } from './active.ts';

const quiet = { info() {}, warn() {} };

/** Refuses (422) a configuration the plugin's outside system refuses. */
export async function checkWithVendor(settings: Settings, slug: string, config: Configuration): Promise<void> {
  const found = pluginBySlug(slug);
  if (!found?.check) return;
  try {
    await found.check(config, pluginEnv(settings, `check:${slug}`, quiet));
  } catch (err) {
    if (!(err instanceof ConfigurationRefused)) return;
    throw validationError([{ loc: ['body', 'configuration', ...(err.field ? [err.field] : [])], msg: err.message, type: 'value_error.configuration_refused' }]);
  }
}
