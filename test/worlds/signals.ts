// Test fixtures of the signal tests: the shared world, entity types, filters and definitions made
// over HTTP, and ingestion.
import { call, type Res } from '../helpers.ts';
import type { World } from './world.ts';

export { createWorld, useWorld, listQuery, problems, type World } from './world.ts';

let n = 0;
/** A name no other call of the test file used. */
export const unique = (prefix: string) => `${prefix} ${++n}`;

export const signals = (w: World, org = 'default') => ({
  entityType: async (body: Record<string, unknown>, token = w.owner) => {
    const res = await call(w.t.app, 'POST', `/${org}/entity_type`, { token, body: { name: unique('Type'), project: { name: 'default' }, ...body } });
    if (res.status !== 200) throw new Error(`entity type: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; name: string };
  },
  filter: (body: Record<string, unknown>, token = w.owner) =>
    call(w.t.app, 'POST', `/${org}/signals/filters`, { token, body: { name: unique('Filter'), expression: [], project: { name: 'default' }, ...body } }),
  define: (body: Record<string, unknown>, token = w.owner) =>
    call(w.t.app, 'POST', `/${org}/signals`, {
      token,
      body: { name: unique('Signal'), owner: 'secops', external_id: unique('ext').replace(' ', '-'), enabled: true, project: { name: 'default' }, ...body },
    }),
  ingest: (
    raw: Record<string, unknown>,
    opts: { token?: string; created_at?: string; headers?: Record<string, string>; project?: unknown } = {},
  ): Promise<Res> =>
    call(w.t.app, 'POST', `/${org}/signals/instances`, {
      token: opts.token ?? w.member,
      headers: opts.headers,
      body: { project: opts.project ?? { name: 'default' }, raw, ...(opts.created_at ? { created_at: opts.created_at } : {}) },
    }),
  instances: (query: Record<string, any> = {}, token = w.owner) =>
    call(w.t.app, 'GET', `/${org}/signals/instances`, { token, query: { itemsPerPage: -1, ...query } }),
});

/** An ISO time `seconds` after `base`. */
export const later = (base: string, seconds: number) => new Date(Date.parse(base) + seconds * 1000).toISOString();
