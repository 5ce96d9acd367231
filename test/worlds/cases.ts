// Test fixtures of the case tests: the shared world (Owner, Admin and Member of `default`, and an
// `elsewhere` organization) and short helpers to create and change cases over HTTP.
import { call } from '../helpers.ts';
import type { World } from './world.ts';

export { createWorld, useWorld, listQuery, problems, type World } from './world.ts';

export const cases = (w: World) => ({
  create: (body: Record<string, unknown> = {}, token = w.member) =>
    call(w.t.app, 'POST', '/default/cases', { token, body: { title: 'Suspicious login', description: 'A login from a new country.', ...body } }),
  get: (id: number, token = w.member) => call(w.t.app, 'GET', `/default/cases/${id}`, { token }),
  update: (id: number, body: Record<string, unknown>, token = w.member) => call(w.t.app, 'PUT', `/default/cases/${id}`, { token, body }),
  /** Sends the case's read object back with `changes`, as the web UI does. */
  edit: async (id: number, changes: Record<string, unknown>, token = w.owner) => {
    const current = (await call(w.t.app, 'GET', `/default/cases/${id}`, { token: w.owner })).body;
    return call(w.t.app, 'PUT', `/default/cases/${id}`, { token, body: { ...current, ...changes } });
  },
  escalate: (id: number, body: Record<string, unknown> = {}, token = w.member) =>
    call(w.t.app, 'PUT', `/default/cases/${id}/escalate`, { token, body: { title: 'Escalated', description: 'From a case.', ...body } }),
  list: (query: Record<string, any> = {}, token = w.member) => call(w.t.app, 'GET', '/default/cases', { token, query: { itemsPerPage: -1, ...query } }),
  remove: (id: number, token = w.owner) => call(w.t.app, 'DELETE', `/default/cases/${id}`, { token }),
});

export const person = (email: string) => ({ individual: { email } });

/** `email: [role, ...]` of every participant, renounced roles marked. */
export const roles = (body: { participants: any[] }) =>
  Object.fromEntries(
    body.participants.map((p) => [p.individual.email, p.participant_roles.map((r: any) => (r.renounced_at ? `${r.role} (renounced)` : r.role))]),
  );
