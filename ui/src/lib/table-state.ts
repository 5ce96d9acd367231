// A table's paging, sort and search kept in the URL (`?page=2&size=50&sort=reported_at&desc=1&q=db`),
// so a view is a link: reload, back, and a pasted link all show the same rows.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface TableState {
  page: number;
  size: number;
  sort: string | undefined;
  desc: boolean;
  q: string;
}

export const PAGE_SIZES = ['10', '25', '50', '100'];

export function tableStateFrom(params: URLSearchParams, defaults: { sort?: string; desc?: boolean; size?: number } = {}): TableState {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    size: Number.isInteger(size) && size > 0 && size <= 500 ? size : (defaults.size ?? 25),
    sort: params.get('sort') ?? defaults.sort,
    desc: params.has('desc') ? params.get('desc') === '1' : (defaults.desc ?? false),
    q: params.get('q') ?? '',
  };
}

export function useTableState(defaults: { sort?: string; desc?: boolean; size?: number } = {}) {
  const [params, setParams] = useSearchParams();
  const { sort, desc, size } = defaults;
  const state = useMemo(() => tableStateFrom(params, { sort, desc, size }), [params, sort, desc, size]);
  const update = useCallback(
    (changes: Partial<TableState>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            const name = key === 'size' ? 'size' : key;
            if (value === undefined || value === '' || (key === 'page' && value === 1)) next.delete(name);
            else next.set(name, key === 'desc' ? (value ? '1' : '0') : String(value));
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return { state, update, params, setParams };
}
