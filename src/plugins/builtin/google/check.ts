// A Google plugin's configuration checked on save: the key must be a service account's, Google
// must give it a token acting as the configured user with the plugin's scopes (which proves the key
// current and the domain-wide delegation granted), and the Drive files it names must be there for
// that user. What Google refuses is refused; Google not answering lets the save through.
import { VendorError } from '../../../lib/outbound/vendor.ts';
import { type Configuration, ConfigurationRefused, type PluginEnv } from '../../types.ts';
import { apiOptions, googleAuth, serviceAccountKey } from './auth.ts';
import { translate } from './errors.ts';

/** Whether Google answered, refusing: a retry would not change its mind. */
const refused = (f: Error): f is VendorError => f instanceof VendorError && f.status > 0 && f.status < 500;

/** Checks the key and the delegation for `scopes`, then that each of `files` (field name to Drive id) can be read. */
export function checkGoogle(scopes: readonly string[], files: readonly string[] = []) {
  return async (config: Configuration, env: PluginEnv): Promise<void> => {
    try {
      serviceAccountKey(config);
    } catch (err) {
      throw new ConfigurationRefused('service_account_key', (err as Error).message);
    }
    try {
      await (await googleAuth(config, env, scopes)).getAccessToken();
    } catch (err) {
      const failure = translate('the token request', err);
      if (refused(failure)) throw new ConfigurationRefused(failure.detail === 'unauthorized_client' ? 'subject' : 'service_account_key', failure.message);
      return;
    }
    const named = files.filter((field) => typeof config[field] === 'string' && config[field] !== '');
    if (named.length === 0) return;
    const drive = (await import('@googleapis/drive')).drive({ version: 'v3', ...(await apiOptions(config, env, scopes)) });
    for (const field of named) {
      try {
        await drive.files.get({ fileId: String(config[field]), supportsAllDrives: true, fields: 'id' });
      } catch (err) {
        const failure = translate('Drive files.get', err);
        if (!refused(failure)) return;
        throw new ConfigurationRefused(
          field,
          failure.status === 404 ? `Drive has no file ${config[field]} that ${config.subject} can see (${field})` : failure.message,
        );
      }
    }
  };
}
