// The case pages' requests: a case found by its name (or id), its update and its escalation, and the
// names a project's pickers offer.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, orgPath } from '../../api/client.ts';
import { useAll } from '../../api/list.ts';
import { SaveConflict, saveChanges } from '../../api/save.ts';
import { ifMatch } from '../../api/versions.ts';
import { useSaveNotice } from '../../components/SaveNotice.tsx';
import { type CaseChanges, describeCase, updateBody } from './transitions.ts';
import type { Case, IncidentMinimal, Named } from './types.ts';

/** A PUT of the case as read, changed: conditional on that version when the UI has its tag. */
export const putCase = (organization: string, c: Case, changes: CaseChanges) => {
  const path = orgPath(organization, `/cases/${c.id}`);
  return api<Case>(path, { method: 'PUT', body: updateBody(c, changes), headers: ifMatch(path, c) });
};

/**
 * A mutation that applies changes to the case `c` as shown, conditional on that version (If-Match): a
 * colleague's save in between is kept, or shown beside this one when both changed the same field
 * (api/save.ts). The screen re-reads after it (main.tsx).
 */
export function useCaseUpdate(organization: string, c: Case | undefined) {
  const client = useQueryClient();
  const notify = useSaveNotice();
  const mutation = useMutation({
    mutationFn: async ({ changes, base = c }: { changes: CaseChanges; base?: Case }) => {
      if (!base) throw new Error('The case has not loaded yet.');
      const saved = await saveChanges(orgPath(organization, `/cases/${base.id}`), base, changes, updateBody, describeCase);
      return { ...saved, read: saved.read as Case };
    },
    onSuccess: ({ read, theirs }) => {
      client.setQueryData([organization, `/cases/${read.id}`], read);
      notify(theirs.length ? { theirs } : null);
    },
    onError: (error, { changes }) => {
      if (!(error instanceof SaveConflict)) return;
      const fresh = error.fresh as Case;
      client.setQueryData([organization, `/cases/${fresh.id}`], fresh);
      notify({ theirs: [], clashes: error.clashes, keepMine: () => mutation.mutate({ changes, base: fresh }) });
    },
  });
  return {
    ...mutation,
    mutate: (changes: CaseChanges, options?: { onSuccess?: (read: Case) => void }) =>
      mutation.mutate({ changes }, { onSuccess: ({ read }) => options?.onSuccess?.(read) }),
  };
}

export function useEscalate(organization: string, caseId: number) {
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => api<IncidentMinimal>(orgPath(organization, `/cases/${caseId}/escalate`), { method: 'PUT', body }),
  });
}

/** The filter of records of one project, as the pickers' lists take it. */
export const projectFilter = (projectId: number | undefined) =>
  projectId === undefined ? undefined : JSON.stringify({ and: [{ or: [{ model: 'Project', field: 'id', op: '==', value: projectId }] }] });

/** The enabled records of a small list (types, priorities, severities), of one project when given. */
export function useNames(organization: string, path: string, projectId?: number) {
  const all = useAll<Named & { enabled?: boolean; view_order?: number }>(organization, path, { filter: projectFilter(projectId) });
  const items = (all.data ?? []).filter((x) => x.enabled !== false).sort((a, b) => (a.view_order ?? 0) - (b.view_order ?? 0));
  return { ...all, items, names: [...new Set(items.map((x) => x.name))] };
}
