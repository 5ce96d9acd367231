// Talking to a Muster server under test: a small JSON client, seeding over the public API (so the
// data is exactly what clients would create). The suites (../suites/) build their scenarios on it.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    where: string,
  ) {
    super(`${where} answered ${status}: ${body.slice(0, 500)}`);
  }
}

/** One JSON request; throws ApiError on a non-2xx answer. */
export async function callApi<T = any>(method: string, url: string, opts: { body?: unknown; token?: string; timeoutMs?: number } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(url, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, `${method} ${url}`);
  return (text ? JSON.parse(text) : null) as T;
}

export interface MusterSession {
  /** http://HOST:PORT/api/v1 */
  api: string;
  /** Organization slug in URLs. */
  organization: string;
  organizationId: number;
  email: string;
  password: string;
  token: string;
}

export interface SessionOptions {
  organization?: string;
  email?: string;
  password?: string;
}

export const projectName = (i: number) => `project-${String(i).padStart(3, '0')}`;

/** Runs `task(i)` for i in [0, count) with at most `limit` running at once. */
export async function inParallel(count: number, limit: number, task: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/**
 * On a fresh server: registers a user (the first becomes Owner of the organization) and logs in;
 * returns the session that seeding and the scenarios use.
 */
export async function openSession(api: string, opts: SessionOptions = {}): Promise<MusterSession> {
  const organization = opts.organization ?? 'default';
  const email = opts.email ?? 'bench@example.com';
  const password = opts.password ?? 'correct horse battery staple';
  await callApi('POST', `${api}/${organization}/auth/register`, { body: { email, password } });
  const { token } = await callApi<{ token: string }>('POST', `${api}/${organization}/auth/login`, { body: { email, password } });
  const org = await callApi<{ id: number; slug: string }[] | { items: { id: number; slug: string }[] }>('GET', `${api}/organizations?itemsPerPage=-1`, {
    token,
  });
  const items = Array.isArray(org) ? org : org.items;
  const found = items.find((o) => o.slug === organization);
  if (!found) throw new Error(`organization ${organization} not in the user's organizations`);
  return { api, organization, organizationId: found.id, email, password, token };
}

/** Creates projects project-001, project-002, ... with descriptions, `concurrency` at a time; returns their ids in that order. */
export async function seedProjects(s: MusterSession, count: number, concurrency = 4): Promise<number[]> {
  const ids: number[] = new Array(count);
  await inParallel(count, concurrency, async (i) => {
    const name = projectName(i + 1);
    const { id } = await callApi<{ id: number }>('POST', `${s.api}/${s.organization}/projects`, {
      token: s.token,
      body: { name, description: `Benchmark project ${name}: incidents and cases of team ${i % 10}.`, organization: {} },
    });
    ids[i] = id;
  });
  return ids;
}

/** Query string of a Dispatch-style list request. */
export function listQuery(q: { page?: number; itemsPerPage?: number; filter?: unknown; sortBy?: string[]; descending?: boolean[]; q?: string }): string {
  const params = new URLSearchParams();
  if (q.page !== undefined) params.append('page', String(q.page));
  if (q.itemsPerPage !== undefined) params.append('itemsPerPage', String(q.itemsPerPage));
  if (q.q !== undefined) params.append('q', q.q);
  if (q.filter !== undefined) params.append('filter', JSON.stringify(q.filter));
  for (const s of q.sortBy ?? []) params.append('sortBy[]', s);
  for (const d of q.descending ?? []) params.append('descending[]', String(d));
  return params.toString();
}

// axios (the web UI's HTTP client) percent-encodes parameters but leaves these characters as they are.
const AXIOS_KEPT: [RegExp, string][] = [
  [/%3A/gi, ':'],
  [/%24/g, '$'],
  [/%2C/gi, ','],
  [/%20/g, '+'],
  [/%5B/gi, '['],
  [/%5D/gi, ']'],
];
const axiosEncode = (v: string) => AXIOS_KEPT.reduce((text, [re, ch]) => text.replace(re, ch), encodeURIComponent(v));

/**
 * A query string as the web UI's axios writes it: parameters in the order given, arrays as repeated
 * `key[]=value`, empty arrays left out, objects as JSON.
 */
export function uiQuery(params: [string, unknown][]): string {
  const parts: string[] = [];
  for (const [key, value] of params) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    const name = Array.isArray(value) ? `${key}[]` : key;
    for (const v of values) parts.push(`${axiosEncode(name)}=${axiosEncode(typeof v === 'object' ? JSON.stringify(v) : String(v))}`);
  }
  return parts.join('&');
}

/** An integer in [min, max], uniformly. */
export const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

/** One element of `items`, uniformly. */
export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

/** The Authorization header of the session's user. */
export const auth = (s: MusterSession) => ({ authorization: `Bearer ${s.token}` });
