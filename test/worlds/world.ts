// Test fixtures shared by the tests of the reference-record groups: an application with an Owner,
// an Admin and a Member of `default`, a second organization (`elsewhere`, the Owner's too) whose
// records `default` must never reach, and small readers of list and error bodies.
import { afterAll, beforeAll } from 'vitest';
import type { Settings } from '../../src/config.ts';
import { call, createTestApp, register, type Res, type TestApp } from '../helpers.ts';

export interface World {
  t: TestApp;
  owner: string;
  admin: string;
  member: string;
  /** The `elsewhere` organization's default project and a search filter in it. */
  elsewhere: { projectId: number; filterId: number };
}

export async function createWorld(overrides: Partial<Settings> = {}): Promise<World> {
  return populate(await createTestApp(overrides));
}

/** The world's people and the `elsewhere` organization, in an application already made. */
export async function populate(t: TestApp): Promise<World> {
  const owner = await register(t.app, 'owner@example.com');
  const admin = await register(t.app, 'admin@example.com');
  const member = await register(t.app, 'member@example.com');
  const me = await call(t.app, 'GET', '/default/auth/me', { token: admin });
  await call(t.app, 'PUT', `/default/users/${me.body.id}`, { token: owner, body: { id: me.body.id, role: 'Admin' } });
  await call(t.app, 'POST', '/organizations', { token: owner, body: { name: 'Elsewhere' } });
  const project = (await call(t.app, 'GET', '/elsewhere/projects', { token: owner })).body.items[0];
  const filter = await call(t.app, 'POST', '/elsewhere/search/filters', {
    token: owner,
    body: { name: 'Theirs', expression: [], project: { id: project.id } },
  });
  return { t, owner, admin, member, elsewhere: { projectId: project.id, filterId: filter.body.id } };
}

/**
 * The world of a test file: an empty object now, filled by createWorld before the file's tests run
 * and closed after them. Helpers built over it (`cases(w)`, `signals(w)`) read it when called.
 */
export function useWorld(overrides: Partial<Settings> = {}): World {
  const w = {} as World;
  beforeAll(async () => {
    Object.assign(w, await createWorld(overrides));
  });
  afterAll(() => w.t?.close());
  return w;
}

export const names = (res: Res) => res.body.items.map((i: { name: string }) => i.name);

/** The 422 items as `loc:type`, `body.` prefix kept, for comparing whole error bodies briefly. */
export const problems = (res: Res) => (res.body.detail as { loc: (string | number)[]; type: string }[]).map((d) => `${d.loc.join('.')}:${d.type}`).sort();

/** List query parameters: a filter spec, sort fields and paging, as a client writes them. */
export const listQuery = (opts: { filter?: unknown; sort?: string; descending?: boolean; q?: string; page?: number; itemsPerPage?: number }) => ({
  ...(opts.filter === undefined ? {} : { filter: JSON.stringify(opts.filter) }),
  ...(opts.sort ? { 'sortBy[]': opts.sort, 'descending[]': opts.descending ?? false } : {}),
  ...(opts.q ? { q: opts.q } : {}),
  itemsPerPage: opts.itemsPerPage ?? -1,
  ...(opts.page ? { page: opts.page } : {}),
});
