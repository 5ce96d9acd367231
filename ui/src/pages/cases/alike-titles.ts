// Every case a signal opens bears the signal's name, so a page of the cases table can hold several
// rows with one title. For those rows only, each case's newest alert is read (one small request a
// case, kept a minute) for what sets it apart, shown beside the title; other rows cost nothing.
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fetchList } from '../../api/list.ts';
import { apartOf } from './SignalSummary.tsx';
import type { SignalInstance } from './types.ts';

/** The ids of the rows whose title another row of the page shares. */
export function alikeIds(rows: { id: number; title: string }[]): number[] {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.title, (count.get(r.title) ?? 0) + 1);
  return rows.filter((r) => (count.get(r.title) ?? 0) > 1).map((r) => r.id);
}

/** For each row of `rows` that shares its title, what sets its case's alert apart (when it has one). */
export function useApart(organization: string, rows: { id: number; title: string }[] | undefined): Map<number, string> {
  const ids = alikeIds(rows ?? []);
  const newest = useQueries({
    queries: ids.map((id) => ({
      queryKey: [organization, '/signals/instances', 'newest of case', id],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        fetchList<SignalInstance>(
          organization,
          '/signals/instances',
          { itemsPerPage: 1, sortBy: 'created_at', descending: true, filter: { model: 'Case', field: 'id', op: '==', value: id } },
          signal,
        ),
      staleTime: 60_000,
    })),
  });
  const found = ids.flatMap((id, n): [number, string][] => {
    const value = apartOf(newest[n].data?.items ?? []);
    return value ? [[id, value]] : [];
  });
  // The same map while nothing changed, so the table's columns are not made anew at every render.
  const key = JSON.stringify(found);
  return useMemo(() => new Map<number, string>(JSON.parse(key)), [key]);
}
