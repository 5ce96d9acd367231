// The incident page's changes. An edit sends the whole read record back with the changes, as
// Dispatch's web UI does (the API ignores the fields it does not take), so a change to one field
// never clears another. After any success main.tsx has every query read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, orgPath } from '../../api/client.ts';
import type { Incident } from './types.ts';

export type IncidentChanges = Partial<Record<keyof Incident, unknown>>;

export const updateBody = (incident: Incident, changes: IncidentChanges) => ({ ...incident, ...changes });

/** PUT /{org}/incidents/{id} with the record and `changes`; the answer goes on screen at once. */
export function useIncidentUpdate(organization: string, incident: Incident) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: IncidentChanges) =>
      api<Incident>(orgPath(organization, `/incidents/${incident.id}`), { method: 'PUT', body: updateBody(incident, changes) }),
    onSuccess: (read) => client.setQueryData([organization, `/incidents/${incident.id}`], read),
  });
}

/** A request about the incident (`/event`, `/participants`, `/report/tactical`, …) or elsewhere (`/tasks`). */
export function useIncidentAction<V>(
  organization: string,
  request: (value: V) => { path: string; method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; body?: unknown },
) {
  return useMutation({
    mutationFn: (value: V) => {
      const { path, method = 'POST', body } = request(value);
      return api<unknown>(orgPath(organization, path), { method, body });
    },
  });
}
