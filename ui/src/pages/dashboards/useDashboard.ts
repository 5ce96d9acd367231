// What a dashboard reads, as Dispatch's UI reads it: every record of the window in one list call
// (`itemsPerPage=-1`, only the `include[]` fields the dashboard needs, the `reported_at` window and
// the chosen project, type and priority as `filter`), and the incident forecast under the same
// filters but not the window (the forecast is of the whole history).
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { fetchList } from '../../api/list.ts';
import { useOrganization } from '../../api/session.ts';
import { toFilterJson, valuesFromParams } from '../../lib/filters.ts';
import { counted, type DashboardRecord } from './aggregate.ts';
import type { ForecastAnswer } from './forecast.ts';
import type { DashboardKind } from './kinds.ts';
import { WINDOW_DEFS, windowFrom, windowValues } from './window.ts';

/** Dashboards are not live tables: their reads are kept a minute. */
const STALE = 60_000;

export function useDashboard(kind: DashboardKind) {
  const organization = useOrganization();
  const [params, setParams] = useSearchParams();
  // One "now" per visit, so the window (and the query key) do not move while the page is open.
  const [now] = useState(() => new Date());
  const window = useMemo(() => windowFrom(params, now), [params, now]);
  const values = useMemo(() => valuesFromParams(kind.filters, params), [kind, params]);
  const filter = useMemo(() => toFilterJson([...kind.filters, ...WINDOW_DEFS], { ...values, ...windowValues(window) }), [kind, values, window]);
  const forecastFilter = useMemo(() => toFilterJson(kind.filters, values), [kind, values]);

  const records = useQuery({
    queryKey: [organization, kind.path, 'dashboard', filter],
    queryFn: ({ signal }) =>
      fetchList<DashboardRecord>(
        organization,
        kind.path,
        { itemsPerPage: -1, sortBy: 'reported_at', descending: false, filter, include: kind.include },
        signal,
      ).then((page) => counted(page.items, kind.type)),
    staleTime: STALE,
  });
  const forecast = useQuery({
    queryKey: [organization, '/incidents/metric/forecast', forecastFilter],
    queryFn: ({ signal }) =>
      api<ForecastAnswer>(orgPath(organization, '/incidents/metric/forecast'), {
        query: { filter: forecastFilter ? JSON.stringify(forecastFilter) : undefined },
        signal,
      }),
    enabled: kind.forecast,
    staleTime: STALE,
  });
  return { organization, params, setParams, now, window, values, records, forecast };
}
