// Lists as the API pages them: `page`, `itemsPerPage`, `sortBy[]`/`descending[]`, `q`, `filter`,
// `include[]`; answered `{items, total}`. Tables read one page at a time, so 10,000 incidents page
// without being loaded; they refetch every few seconds while the tab is visible (live updates,
// answered 304 by the API while nothing changed).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FilterSpec } from '../lib/filters.ts';
import { api, orgPath, type Query } from './client.ts';

export interface Page<T> {
  items: T[];
  total: number;
}

export interface ListParams {
  page?: number;
  itemsPerPage?: number;
  sortBy?: string;
  descending?: boolean;
  /** Sorts after `sortBy`, for its ties (newest first within a status). */
  tieBreak?: { sortBy: string; descending: boolean }[];
  q?: string;
  filter?: FilterSpec | null;
  include?: string[];
  /** Extra query parameters a route takes. */
  extra?: Query;
}

/** How often tables and record pages look for changes, in milliseconds. */
export const LIVE_INTERVAL = 5000;

/** `sortBy[]` and `descending[]`, paired; one value each while there is one sort. */
function sorting({ sortBy, descending = false, tieBreak = [] }: ListParams): Query {
  if (!sortBy) return {};
  if (tieBreak.length === 0) return { 'sortBy[]': sortBy, 'descending[]': String(descending) };
  return { 'sortBy[]': [sortBy, ...tieBreak.map((t) => t.sortBy)], 'descending[]': [String(descending), ...tieBreak.map((t) => String(t.descending))] };
}

export function listQuery(params: ListParams): Query {
  return {
    page: params.page ?? 1,
    itemsPerPage: params.itemsPerPage ?? 25,
    ...sorting(params),
    q: params.q,
    filter: params.filter ? JSON.stringify(params.filter) : undefined,
    'include[]': params.include,
    ...params.extra,
  };
}

export const fetchList = <T>(organization: string, path: string, params: ListParams, signal?: AbortSignal) =>
  api<Page<T>>(orgPath(organization, path), { query: listQuery(params), signal });

/** A page of `path`, refetched live; keeps the previous page on screen while the next loads. */
export function useList<T>(organization: string, path: string, params: ListParams, options: { live?: boolean; enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [organization, path, 'list', params],
    queryFn: ({ signal }) => fetchList<T>(organization, path, params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: options.live === false ? false : LIVE_INTERVAL,
    enabled: options.enabled,
  });
}

/** Every item of a small list (pickers: priorities, types, projects), cached for a minute. */
export function useAll<T>(organization: string, path: string, extra?: Query) {
  return useQuery({
    queryKey: [organization, path, 'all', extra],
    queryFn: ({ signal }) => fetchList<T>(organization, path, { itemsPerPage: -1, extra }, signal).then((p) => p.items),
    staleTime: 60_000,
  });
}

/** One record, refetched live. */
export function useRecord<T>(organization: string, path: string | null, options: { live?: boolean } = {}) {
  return useQuery({
    queryKey: [organization, path],
    queryFn: ({ signal }) => api<T>(orgPath(organization, path!), { signal }),
    enabled: path !== null,
    refetchInterval: options.live === false ? false : LIVE_INTERVAL,
  });
}
