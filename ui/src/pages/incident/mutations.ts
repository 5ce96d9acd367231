// The incident page's changes. An edit sends the record as it was when the edit began, changed where
// asked, conditional on that version (If-Match): the API ignores the fields it does not take, so a
// change to one field never clears another, and a colleague's save in between is kept (api/save.ts).
// After any success main.tsx has every query read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, orgPath } from '../../api/client.ts';
import { SaveConflict, saveChanges } from '../../api/save.ts';
import { useSaveNotice } from '../../components/SaveNotice.tsx';
import type { Incident } from './types.ts';

export type IncidentChanges = Partial<Record<keyof Incident, unknown>>;

export const updateBody = (incident: Incident, changes: IncidentChanges) => ({ ...incident, ...changes });

const who = (p: { individual: { email: string } } | null | undefined) => p?.individual.email ?? '';

/** The incident's fields as people read them (in an update body), to tell whose change is whose. */
export const describeIncident = (i: Incident): Record<string, string> => ({
  Title: i.title,
  Description: i.description,
  Resolution: i.resolution ?? '',
  Status: i.status,
  Priority: i.incident_priority.name,
  Severity: i.incident_severity.name,
  Type: i.incident_type.name,
  Visibility: i.visibility,
  Commander: who(i.commander),
  Reporter: who(i.reporter),
  Tags: i.tags.map((t) => `${t.tag_type?.name ?? ''}: ${t.name}`).join(', '),
  Costs: i.incident_costs.map((c) => `${c.incident_cost_type.name} ${c.amount}`).join(', '),
});

export interface IncidentEdit {
  changes: IncidentChanges;
  /** The version the edit began from (default: the one on screen now). */
  base?: Incident;
}

/** PUT /{org}/incidents/{id} with `changes` on their base; the answer goes on screen at once. */
export function useIncidentUpdate(organization: string, incident: Incident) {
  const client = useQueryClient();
  const notify = useSaveNotice();
  const key = [organization, `/incidents/${incident.id}`];
  const path = orgPath(organization, `/incidents/${incident.id}`);
  const mutation = useMutation({
    mutationFn: ({ changes, base = incident }: IncidentEdit) => saveChanges(path, base, changes, (r, c) => updateBody(r, c) as Incident, describeIncident),
    onSuccess: ({ read, theirs }) => {
      client.setQueryData(key, read);
      notify(theirs.length ? { theirs } : null);
    },
    onError: (error, { changes }) => {
      if (!(error instanceof SaveConflict)) return;
      const fresh = error.fresh as Incident;
      client.setQueryData(key, fresh);
      notify({ theirs: [], clashes: error.clashes, keepMine: () => mutation.mutate({ changes, base: fresh }) });
    },
  });
  return mutation;
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
