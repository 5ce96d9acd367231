// Test fixtures of the incident tests: the shared world (Owner, Admin and Member of `default`, and
// an `elsewhere` organization) and short helpers to create and change incidents over HTTP.
import { call, type Res } from '../helpers.ts';
import type { World } from './world.ts';

export { createWorld, useWorld, listQuery, problems, type World } from './world.ts';

export const api = (w: World) => ({
  create: (body: Record<string, unknown>, token = w.member) =>
    call(w.t.app, 'POST', '/default/incidents', { token, body: { title: 'Something broke', description: 'It broke.', ...body } }),
  get: (id: number, token = w.member) => call(w.t.app, 'GET', `/default/incidents/${id}`, { token }),
  update: (id: number, body: Record<string, unknown>, token = w.member) => call(w.t.app, 'PUT', `/default/incidents/${id}`, { token, body }),
  /** Sends the incident's read object back with `changes`, as the web UI does. */
  edit: async (id: number, changes: Record<string, unknown>, token = w.owner) => {
    const current = (await call(w.t.app, 'GET', `/default/incidents/${id}`, { token: w.owner })).body;
    return call(w.t.app, 'PUT', `/default/incidents/${id}`, { token, body: { ...current, ...changes } });
  },
  list: (query: Record<string, any> = {}, token = w.member) => call(w.t.app, 'GET', '/default/incidents', { token, query: { itemsPerPage: -1, ...query } }),
  post: (id: number, action: string, token = w.member, body?: unknown) => call(w.t.app, 'POST', `/default/incidents/${id}/${action}`, { token, body }),
  remove: (id: number, token = w.owner) => call(w.t.app, 'DELETE', `/default/incidents/${id}`, { token }),
});

/** `email: [role, renounced?]...` of every participant, for comparing briefly. */
export const roles = (res: Res) =>
  Object.fromEntries(
    (res.body.participants as any[]).map((p) => [p.individual.email, p.participant_roles.map((r: any) => (r.renounced_at ? `${r.role} (renounced)` : r.role))]),
  );

export const person = (email: string) => ({ individual: { email } });
