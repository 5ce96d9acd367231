// The filters of the cases table, as the case list engine names them (src/domains/case/list.ts and
// lifecycle/list.ts): the case's own fields, its project, assessment (CaseType, CasePriority,
// CaseSeverity) and its assignee as IndividualContact. Keys are URL parameters; `q` (the text
// search) is the table state's.
import type { FilterDef } from '../../lib/filters.ts';
import { CASE_STATUSES } from './types.ts';

export const CASE_FILTERS: FilterDef[] = [
  { key: 'status', label: 'Status', field: 'status', options: [...CASE_STATUSES] },
  { key: 'priority', label: 'Priority', model: 'CasePriority', field: 'name' },
  { key: 'severity', label: 'Severity', model: 'CaseSeverity', field: 'name' },
  { key: 'type', label: 'Type', model: 'CaseType', field: 'name' },
  { key: 'project', label: 'Project', model: 'Project', field: 'name' },
  { key: 'assignee', label: 'Assignee', model: 'IndividualContact', field: 'email' },
  { key: 'mine', label: 'Assigned to me', model: 'IndividualContact', field: 'email', kind: 'me' },
  { key: 'from', label: 'Reported from', field: 'reported_at', kind: 'after' },
  { key: 'to', label: 'Reported until', field: 'reported_at', kind: 'before' },
];

/** The sortable columns, as `sortBy[]` names them (assignee is a many-relation: not sortable). */
export const CASE_SORTS: Record<string, string> = {
  name: 'name',
  title: 'title',
  // In the order a case moves through its statuses, not alphabetical.
  status: 'status_order',
  priority: 'case_priority.name',
  severity: 'case_severity.name',
  type: 'case_type.name',
  project: 'project.name',
  reported_at: 'reported_at',
  visibility: 'visibility',
};

/**
 * What the table reads of each case: what its columns show, not the whole minimal read (the API
 * reads these through its cases-table projection).
 */
export const CASE_TABLE_FIELDS = [
  'id',
  'name',
  'title',
  'status',
  'visibility',
  'reported_at',
  'case_priority.name',
  'case_severity.name',
  'case_type.name',
  'project.name',
  'assignee.individual.email',
];
