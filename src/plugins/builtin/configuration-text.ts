// Reading a plugin's stored configuration: a field is text only when it is a non-empty string.
import type { Configuration } from '../types.ts';

/** The field's text, or undefined when it is missing, empty or not a string. */
export const text = (config: Configuration, key: string): string | undefined =>
  typeof config[key] === 'string' && config[key] !== '' ? (config[key] as string) : undefined;

/** A base URL without its trailing slashes, so paths can follow it. */
export const baseUrl = (url: string) => url.replace(/\/+$/, '');
