// Acting in a Google Workspace as one of its users: a service account's key with domain-wide
// delegation (google-auth-library's JWT client, `subject` the user it acts as). Every request the
// client and the API libraries make goes through Muster's outbound client, given to gaxios as its
// fetch; the token request goes to the key's own `token_uri`, which the library would otherwise
// ignore. The libraries' own retries are off: a call runs in a job, and the job is what retries.
import { Readable } from 'node:stream';
import type { JWT } from 'google-auth-library';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import type { Configuration, PluginEnv } from '../../types.ts';

/** Where google-auth-library sends every token request, whatever the key says. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** How long one call may take before it counts as failed (and its job retries). */
const TIMEOUT_MS = 15_000;

/** The OAuth scopes each plugin asks for; docs/plugins.md lists them for the admin console. */
export const SCOPES = {
  docs: ['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/documents'],
  drive: ['https://www.googleapis.com/auth/drive'],
  groups: ['https://www.googleapis.com/auth/admin.directory.group'],
  calendar: ['https://www.googleapis.com/auth/calendar'],
} as const;

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
}

/** The key's fields Muster uses; an unusable key is an error an Admin can act on, quoting nothing of it. */
export function serviceAccountKey(config: Configuration): ServiceAccountKey {
  let key: Partial<ServiceAccountKey>;
  try {
    key = JSON.parse(String(config.service_account_key ?? ''));
  } catch {
    throw new VendorError('The Google service account key is not the JSON key file Google gives (IAM > Service accounts > Keys)', 0);
  }
  if (typeof key?.client_email !== 'string' || typeof key.private_key !== 'string')
    throw new VendorError('The Google service account key lacks client_email or private_key: give the whole JSON key file', 0);
  return { ...key, token_uri: typeof key.token_uri === 'string' && key.token_uri ? key.token_uri : GOOGLE_TOKEN_URL } as ServiceAccountKey;
}

/** A request body gaxios made as a stream (uploads), read into bytes: the outbound client takes bytes. */
async function bytesOf(body: unknown): Promise<unknown> {
  if (!(body instanceof Readable)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** gaxios's fetch: through the outbound client, the token request to the key's `token_uri`. */
function fetchThrough(env: PluginEnv, tokenUri: string) {
  return async (input: string | URL, init: RequestInit & { agent?: unknown; duplex?: string } = {}): Promise<Response> => {
    const url = String(input) === GOOGLE_TOKEN_URL ? tokenUri : String(input);
    const { agent: _agent, duplex: _duplex, ...rest } = init;
    return env.outbound.fetch(url, { ...rest, body: (await bytesOf(init.body)) as BodyInit | undefined, timeoutMs: TIMEOUT_MS });
  };
}

/**
 * The authorised client the API libraries are given, acting as the configured user with `scopes`.
 * Google's libraries load on first use (as the API clients do), not with every `muster` start.
 */
export async function googleAuth(config: Configuration, env: PluginEnv, scopes: readonly string[]): Promise<JWT> {
  const key = serviceAccountKey(config);
  const { JWT } = await import('google-auth-library');
  const jwt = new JWT({
    email: key.client_email,
    key: key.private_key,
    keyId: key.private_key_id,
    scopes: [...scopes],
    subject: typeof config.subject === 'string' ? config.subject : undefined,
    transporterOptions: { fetchImplementation: fetchThrough(env, key.token_uri) as never },
  });
  jwt.transporter.interceptors.request.add({
    resolved: async (options) => Object.assign(options, { retry: false, retryConfig: { ...options.retryConfig, retry: 0, noResponseRetries: 0 } }),
  });
  return jwt;
}

/** Options every API client is made with: the configured root (Google's own when unset) and no retries of its own. */
export async function apiOptions(config: Configuration, env: PluginEnv, scopes: readonly string[]) {
  return { auth: await googleAuth(config, env, scopes), ...rootOption(config), retry: false, retryConfig: { retry: 0, noResponseRetries: 0 } };
}

/**
 * The configured API root as a method's option: an upload's URL (`/upload/...`) follows only the
 * root given to the method itself, not the client's.
 */
export function rootOption(config: Configuration): { rootUrl?: string } {
  return typeof config.api_root_url === 'string' && config.api_root_url ? { rootUrl: `${config.api_root_url.replace(/\/+$/, '')}/` } : {};
}
