// One signal filter and its project. The API serves filters only as a list and their read objects
// do not name their project, so the filter is listed by id, and its project is the one whose list
// of filters holds it.
import { useQuery } from '@tanstack/react-query';
import { fetchList, useAll } from '../../api/list.ts';
import type { FilterSpec } from '../../lib/filters.ts';
import type { Named, SignalFilter } from './types.ts';

const byId = (id: number, more: object[] = []) => [{ field: 'id', op: '==', value: id }, ...more] as unknown as FilterSpec;

export function useFilter(organization: string, id: number | null) {
  const projects = useAll<Named>(organization, '/projects');
  const filter = useQuery({
    queryKey: [organization, '/signals/filters', 'one', id],
    queryFn: async ({ signal }) => {
      const page = await fetchList<SignalFilter>(organization, '/signals/filters', { itemsPerPage: 1, filter: byId(id!) }, signal);
      if (!page.items[0]) throw new Error('There is no such signal filter.');
      return page.items[0];
    },
    enabled: id !== null,
  });
  const project = useQuery({
    queryKey: [organization, '/signals/filters', 'project', id, projects.data?.map((p) => p.id)],
    queryFn: async ({ signal }) => {
      for (const p of projects.data ?? []) {
        const page = await fetchList(
          organization,
          '/signals/filters',
          { itemsPerPage: 1, filter: byId(id!, [{ model: 'Project', field: 'id', op: '==', value: p.id }]) },
          signal,
        );
        if (page.total > 0) return { id: p.id, name: p.name };
      }
      return null;
    },
    enabled: id !== null && !!projects.data,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { filter, project, projects };
}
