// Where a configuration sends what it sends, read from the plugin's schema: its URLs (`format:
// "uri"`) and hosts (`host`, `format: "hostname"`) are checked against the outbound policy when
// the configuration is saved, and the fields that decide where or how a secret travels (each
// declares them: `x-secret-bound: ["password"]`) need that secret again when they change.
import type { TObject } from '@sinclair/typebox';
import type { Outbound } from '../../lib/outbound/client.ts';
import { OutboundRefused } from '../../lib/outbound/client.ts';
import { SECRET_MASK, secretFields } from '../../plugins/secrets.ts';
import type { Configuration } from '../../plugins/types.ts';
import { validationError, type ValidationItem } from '../../server/errors.ts';

type Property = { format?: string; 'x-secret-bound'?: string[] };

const propertiesOf = (schema: TObject | undefined) => Object.entries((schema?.properties ?? {}) as Record<string, Property>);

const isUrl = (s: Property) => s.format === 'uri' || s.format === 'uri-reference';
const isHost = (k: string, s: Property) => s.format === 'hostname' || k === 'host';

/**
 * The secrets each field is bound to: what it declares, else (a plugin that declares none) every
 * secret for a field that looks like a destination (a URL, a host, a port).
 */
export function boundSecrets(schema: TObject | undefined): Map<string, string[]> {
  const secrets = secretFields(schema);
  const out = new Map<string, string[]>();
  for (const [k, s] of propertiesOf(schema)) {
    const declared = s['x-secret-bound'];
    if (Array.isArray(declared)) out.set(k, declared);
    else if (isUrl(s) || isHost(k, s) || /^(port|url|endpoint)$|_url$/.test(k)) out.set(k, secrets);
  }
  return out;
}

/**
 * Refuses keeping a masked secret when a field it is bound to changed: otherwise an Admin could
 * send the stored password to a host of their own, or in clear, without ever knowing it.
 * `next` is the configuration to store (defaults applied), `sent` what the caller sent.
 */
export function keepsSecretsWhereTheyGo(sent: Configuration, next: Configuration, stored: Configuration, schema: TObject | undefined): void {
  const masked = new Set(secretFields(schema).filter((k) => sent[k] === SECRET_MASK));
  if (masked.size === 0) return;
  const needed = new Map<string, string[]>();
  for (const [field, secrets] of boundSecrets(schema)) {
    if (JSON.stringify(next[field]) === JSON.stringify(stored[field])) continue;
    for (const secret of secrets.filter((s) => masked.has(s))) needed.set(secret, [...(needed.get(secret) ?? []), field]);
  }
  if (needed.size === 0) return;
  throw validationError(
    [...needed].map(([secret, fields]) => ({
      loc: ['body', 'configuration', secret],
      msg: `Send ${secret} again to change ${fields.join(', ')}: a stored secret is not kept when where or how it is sent changes.`,
      type: 'value_error.secret_required',
    })),
  );
}

/** Refuses (422, on each field) URLs and hosts the outbound policy refuses now; they are checked again on every connection. */
export async function checkDestinations(config: Configuration, schema: TObject | undefined, outbound: Outbound): Promise<void> {
  const problems: ValidationItem[] = [];
  for (const [k, s] of propertiesOf(schema)) {
    const v = config[k];
    if (typeof v !== 'string' || v === '') continue;
    const destination = isUrl(s) ? { url: v } : isHost(k, s) ? { host: v } : undefined;
    if (!destination) continue;
    try {
      await outbound.check(destination);
    } catch (err) {
      if (!(err instanceof OutboundRefused)) throw err;
      problems.push({
        loc: ['body', 'configuration', k],
        msg: `${err.message}. Muster connects only to public addresses over http or https, unless the operator allows more.`,
        type: 'value_error.outbound_refused',
      });
    }
  }
  if (problems.length) throw validationError(problems);
}

/** A URL as a Member may see it: its origin (a capability URL's token stays with Admins). */
export function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? `${u.protocol}` : u.origin;
  } catch {
    return '';
  }
}

/** The configuration with each URL cut to its origin: what viewers below Admin see of it. */
export function urlsAsOrigins(config: Configuration, schema: TObject | undefined): Configuration {
  const out = { ...config };
  for (const [k, s] of propertiesOf(schema)) if (isUrl(s) && typeof out[k] === 'string' && out[k] !== '') out[k] = originOf(out[k] as string);
  return out;
}
