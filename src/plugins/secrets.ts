// Plugin configurations at rest: encrypted with AES-256-GCM under a key derived from
// MUSTER_ENCRYPTION_KEY, and shown to API callers with their secret fields masked. An update that
// sends the mask back keeps the stored secret.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { TObject } from '@sinclair/typebox';
import type { Configuration } from './types.ts';

export const SECRET_MASK = '**********';
const VERSION = 'v1';

const keyOf = (secret: string) => Buffer.from(hkdfSync('sha256', secret, 'muster', 'plugin configuration', 32));

export function encryptConfiguration(config: Configuration, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(config), 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

export class ConfigurationUnreadable extends Error {}

/** The stored configuration in clear; throws ConfigurationUnreadable when the key is not the one it was sealed with. */
export function decryptConfiguration(stored: string | null, secret: string): Configuration {
  if (!stored) return {};
  const [version, iv, tag, body] = stored.split(':');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new ConfigurationUnreadable('not an encrypted plugin configuration');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    const clear = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    return JSON.parse(clear) as Configuration;
  } catch {
    throw new ConfigurationUnreadable('the plugin configuration cannot be decrypted with MUSTER_ENCRYPTION_KEY (was the key changed?)');
  }
}

/** The names of a configuration schema's secret fields. */
export function secretFields(schema: TObject | undefined): string[] {
  if (!schema) return [];
  return Object.entries(schema.properties ?? {})
    .filter(([, s]) => (s as { writeOnly?: boolean }).writeOnly === true)
    .map(([k]) => k);
}

/** The configuration as callers see it: every secret that has a value replaced by the mask. */
export function maskConfiguration(config: Configuration, schema: TObject | undefined): Configuration {
  const out = { ...config };
  for (const k of secretFields(schema)) if (out[k] !== undefined && out[k] !== null && out[k] !== '') out[k] = SECRET_MASK;
  return out;
}

/** An update's configuration with masked secrets replaced by the stored ones. */
export function unmaskConfiguration(sent: Configuration, stored: Configuration, schema: TObject | undefined): Configuration {
  const out = { ...sent };
  for (const k of secretFields(schema)) if (out[k] === SECRET_MASK) out[k] = stored[k];
  return out;
}
