// A page's `:name` is how links name an incident or a case (`/default/incidents/muster-default-default-12`,
// as Muster writes them into chat and mail); a bare number is taken as the id. A name is resolved
// through the list's filter (`name == X`), then the record is read by id like any other.
import { useQuery } from '@tanstack/react-query';
import type { FilterSpec } from '../lib/filters.ts';
import { ApiError } from './client.ts';
import { fetchList } from './list.ts';

export interface NamedKind {
  path: '/incidents' | '/cases';
  model: 'Incident' | 'Case';
  noun: string;
}
export const INCIDENT: NamedKind = { path: '/incidents', model: 'Incident', noun: 'incident' };
export const CASE: NamedKind = { path: '/cases', model: 'Case', noun: 'case' };

/** A numeric id in the path, or null when the path names the record. */
export function idInPath(param: string): number | null {
  return /^\d+$/.test(param) ? Number(param) : null;
}

/** The list filter that finds the record called `name`. */
export function nameFilter(kind: NamedKind, name: string): FilterSpec {
  return { and: [{ or: [{ model: kind.model, field: 'name', op: '==', value: name }] }] };
}

/** The id of the record `param` names; a 404 in words when the caller can see none of that name. */
export async function resolveRecordId(organization: string, kind: NamedKind, param: string, signal?: AbortSignal): Promise<number> {
  const id = idInPath(param);
  if (id !== null) return id;
  const page = await fetchList<{ id: number }>(organization, kind.path, { itemsPerPage: 1, filter: nameFilter(kind, param), include: ['id'] }, signal);
  const found = page.items[0];
  if (!found) throw new ApiError(404, `There is no ${kind.noun} called ${param} that you can see.`);
  return found.id;
}

/** The id of the record `param` names, looked up once (names do not change). */
export function useRecordId(organization: string, kind: NamedKind, param: string) {
  return useQuery({
    queryKey: [organization, kind.path, 'id-of', param],
    queryFn: ({ signal }) => resolveRecordId(organization, kind, param, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
