// Where a dashboard's count leads: the incidents or cases table filtered as the count was (the same
// reported-at days, projects, types and priorities; a status's count adds its status). The tables
// take these as their own filter parameters, except the incidents table's project, which it filters
// by id: the dashboard's project names travel there as an expression (`expr`) instead.
import type { FilterValues } from '../../lib/filters.ts';
import { EXPRESSION_PARAM } from '../incidents/incident-filters.ts';
import type { DashboardKind } from './kinds.ts';
import type { Window } from './window.ts';

export function listLink(organization: string, kind: DashboardKind, values: FilterValues, window: Window, status?: string): string {
  const params = new URLSearchParams();
  for (const key of ['type', 'priority']) for (const v of values[key] ?? []) params.append(key, v);
  if (window.from) params.set('from', window.from);
  if (window.to) params.set('to', window.to);
  if (status) params.set('status', status);
  const projects = values.project ?? [];
  if (projects.length && kind.key === 'incidents')
    params.set(EXPRESSION_PARAM, JSON.stringify([{ or: projects.map((value) => ({ model: 'Project', field: 'name', op: '==', value })) }]));
  else for (const p of projects) params.append('project', p);
  return `/${organization}/${kind.key}?${params}`;
}
