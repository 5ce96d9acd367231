// The one way the UI talks to the API: JSON over fetch under /api/v1/{organization}, the token from
// sign-in as a Bearer header, and every failure turned into an ApiError whose message is the API's
// `detail` (a string, or the list of `{msg}` that validation errors carry), never a raw stack.
import { clearToken, readToken } from './token.ts';
import { remember } from './versions.ts';

export const API_BASE = '/api/v1';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

type Detail = string | { msg?: string; loc?: (string | number)[] }[] | { msg?: string } | undefined;

/** The human text of an error body's `detail`. */
export function detailText(detail: Detail, status: number): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((d) => {
      const where = d.loc?.filter((l) => l !== 'body' && l !== 'query').join('.');
      return where ? `${where}: ${d.msg ?? 'invalid'}` : (d.msg ?? 'invalid');
    });
    if (parts.length) return parts.join('; ');
  }
  if (detail && typeof detail === 'object' && 'msg' in detail && detail.msg) return detail.msg;
  return status === 0 ? 'The server could not be reached.' : `The server answered ${status}.`;
}

/** Called when the API says the token is no longer good (401): the app sends the person to sign in. */
let onUnauthorized: () => void = () => {};
export const setUnauthorizedHandler = (fn: () => void) => {
  onUnauthorized = fn;
};

export type Query = Record<string, string | number | boolean | (string | number)[] | undefined | null>;

export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** More request headers (If-Match of a conditional save). */
  headers?: Record<string, string>;
}

/** A request to `path` (after /api/v1), answering the parsed JSON body. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = readToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}${queryString(options.query)}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      // Revalidated with If-None-Match: an unchanged record answers 304 and the browser reuses its copy.
      cache: 'no-cache',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'The server could not be reached.');
  }
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) {
    if (response.status === 401 && token) {
      clearToken();
      onUnauthorized();
    }
    const detail = (body as { detail?: Detail } | null)?.detail;
    throw new ApiError(response.status, detailText(detail, response.status), detail);
  }
  // The version read (or written) is remembered with its tag, for saves conditional on it.
  const etag = response.headers.get('etag');
  if (etag && !options.query) remember(path, text, etag);
  return body as T;
}

/** The organization's API: `org('default')('/incidents')` is /api/v1/default/incidents. */
export const orgPath = (organization: string, path: string) => `/${encodeURIComponent(organization)}${path}`;
