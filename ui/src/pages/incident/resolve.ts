// The page's `:name` is how links name an incident (`/default/incidents/dispatch-default-default-12`,
// as Muster writes them into chat and mail); a bare number is taken as its id. A name is resolved
// through the list's filter (`name == X`), then the record is read by id like any other.
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client.ts';
import { fetchList } from '../../api/list.ts';
import type { FilterSpec } from '../../lib/filters.ts';

/** A numeric id in the path, or null when the path names the incident. */
export function idInPath(param: string): number | null {
  return /^\d+$/.test(param) ? Number(param) : null;
}

/** The list filter that finds the incident called `name`. */
export function nameFilter(name: string): FilterSpec {
  return { and: [{ or: [{ model: 'Incident', field: 'name', op: '==', value: name }] }] };
}

/** The id of the incident `param` names, looked up once (names do not change). */
export async function resolveIncidentId(organization: string, param: string, signal?: AbortSignal): Promise<number> {
  const id = idInPath(param);
  if (id !== null) return id;
  const page = await fetchList<{ id: number }>(organization, '/incidents', { itemsPerPage: 1, filter: nameFilter(param), include: ['id'] }, signal);
  const found = page.items[0];
  if (!found) throw new ApiError(404, `There is no incident called ${param} that you can see.`);
  return found.id;
}

export function useIncidentId(organization: string, param: string) {
  return useQuery({
    queryKey: [organization, 'incident-id', param],
    queryFn: ({ signal }) => resolveIncidentId(organization, param, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
