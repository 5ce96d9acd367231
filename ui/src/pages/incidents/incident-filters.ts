// The filters of the incidents table, as the incident list engine reaches them
// (src/domains/incident/list.ts): the incident's own fields, its project, assessment, tags and the
// people taking part (IndividualContact: commander and reporter included, as Dispatch filters
// "commander" and "participant"). A saved view of another shape travels as `expr`, applied as it is.
import { type FilterDef, type FilterSpec, type FilterValues, toFilterJson, valuesFromFilterJson } from '../../lib/filters.ts';

export const INCIDENT_STATUSES = ['Active', 'Stable', 'Closed'];
export const VISIBILITIES = ['Open', 'Restricted'];

/** What a row of the incidents table shows: the API's incidents-table projection (include[] with `expand`). */
export const INCIDENT_TABLE_FIELDS = [
  'id',
  'name',
  'title',
  'status',
  'visibility',
  'incident_priority.name',
  'incident_severity.name',
  'commander.individual.email',
  'reported_at',
  'closed_at',
  'last_update_at',
];

export const INCIDENT_FILTERS: FilterDef[] = [
  { key: 'status', label: 'Status', field: 'status', options: INCIDENT_STATUSES },
  { key: 'priority', label: 'Priority', model: 'IncidentPriority', field: 'name' },
  { key: 'severity', label: 'Severity', model: 'IncidentSeverity', field: 'name' },
  { key: 'type', label: 'Type', model: 'IncidentType', field: 'name' },
  { key: 'project', label: 'Project', model: 'Project', field: 'id' },
  { key: 'tag', label: 'Tag', model: 'Tag', field: 'id' },
  // Before `participant`: a saved leaf naming the signed-in person reads back as "mine".
  { key: 'mine', label: 'Only incidents I take part in', model: 'IndividualContact', field: 'email', kind: 'me' },
  { key: 'participant', label: 'Participant or commander (email)', model: 'IndividualContact', field: 'email' },
  { key: 'from', label: 'Reported from', field: 'reported_at', kind: 'after' },
  { key: 'to', label: 'Reported until', field: 'reported_at', kind: 'before' },
];

/** The URL parameter of a saved view's expression that the filter controls cannot show. */
export const EXPRESSION_PARAM = 'expr';

/** A spec as the engine takes it: the grammar allows lists (AND-ed) anywhere. */
export type AnySpec = FilterSpec | unknown[];

/** The `expr` parameter read back; null when absent or not JSON. */
export function expressionFrom(params: URLSearchParams): unknown[] | null {
  const text = params.get(EXPRESSION_PARAM);
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  } catch {
    return null;
  }
}

/** The list's `filter`: the chosen values, AND-ed with a saved expression applied as it is. */
export function incidentFilter(values: FilterValues, me: string | undefined, expression: unknown[] | null): AnySpec | null {
  const chosen = toFilterJson(INCIDENT_FILTERS, values, me);
  const saved = expression?.length ? expression : null;
  if (!saved) return chosen;
  if (!chosen) return saved;
  return [...saved, chosen];
}

/** A saved view's expression (a list, as search filters store them) for the current filter. */
export const expressionOf = (filter: AnySpec | null): unknown[] => (filter === null ? [] : Array.isArray(filter) ? filter : [filter]);

/**
 * How a saved view applies: as filter values when it has the shape the controls write, else its
 * expression as it is (`expr`).
 */
export function applyView(expression: unknown[], me: string | undefined): { values: FilterValues; expression: unknown[] | null } {
  if (expression.length === 0) return { values: {}, expression: null };
  if (expression.length === 1) {
    const values = valuesFromFilterJson(INCIDENT_FILTERS, expression[0], me);
    if (values) return { values, expression: null };
  }
  return { values: {}, expression };
}

/** How many filters are set (the saved expression counts as one). */
export const activeFilterCount = (values: FilterValues, expression: unknown[] | null) =>
  Object.values(values).filter((v) => v.some((x) => x !== '')).length + (expression?.length ? 1 : 0);
