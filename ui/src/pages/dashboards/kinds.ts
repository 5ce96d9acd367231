// The two dashboards, incidents and cases, as declarations: what each fetches (`include[]`, as
// Dispatch's UI asks), how its records group, which spans and costs it shows, how it filters.
import type { FilterDef } from '../../lib/filters.ts';

export interface Span {
  /** The summary's and chart's name: "Time to stable". */
  label: string;
  /** The later moment, a field of the record. */
  to: string;
}

export interface CostField {
  field: string;
  label: string;
}

export interface DashboardKind {
  /** The URL segment under /dashboards. */
  key: 'incidents' | 'cases';
  title: string;
  /** Plural noun, capitalised as a series name: "Incidents". */
  plural: string;
  /** The list's API path. */
  path: string;
  include: string[];
  statuses: readonly string[];
  /** The record's type, priority and severity fields. */
  type: string;
  priority: string;
  severity: string;
  /** The list paths of the type and priority pickers. */
  typesPath: string;
  prioritiesPath: string;
  filters: FilterDef[];
  spans: Span[];
  costs: CostField[];
  /** The API has a forecast of this kind (incidents only). */
  forecast: boolean;
}

const projectFilter: FilterDef = { key: 'project', label: 'Projects', model: 'Project', field: 'name' };

export const INCIDENT_DASHBOARD: DashboardKind = {
  key: 'incidents',
  title: 'Incident dashboard',
  plural: 'Incidents',
  path: '/incidents',
  // The fields Dispatch's incident dashboard asks for, less the locations, teams and tags it alone shows.
  include: [
    'closed_at',
    'created_at',
    'incident_priority',
    'incident_severity',
    'incident_type',
    'name',
    'project',
    'reported_at',
    'stable_at',
    'status',
    'title',
    'total_cost',
  ],
  statuses: ['Active', 'Stable', 'Closed'],
  type: 'incident_type',
  priority: 'incident_priority',
  severity: 'incident_severity',
  typesPath: '/incident_types',
  prioritiesPath: '/incident_priorities',
  filters: [
    projectFilter,
    { key: 'type', label: 'Types', model: 'IncidentType', field: 'name' },
    { key: 'priority', label: 'Priorities', model: 'IncidentPriority', field: 'name' },
  ],
  spans: [
    { label: 'Time to stable', to: 'stable_at' },
    { label: 'Time to close', to: 'closed_at' },
  ],
  costs: [{ field: 'total_cost', label: 'Cost' }],
  forecast: true,
};

export const CASE_DASHBOARD: DashboardKind = {
  key: 'cases',
  title: 'Case dashboard',
  plural: 'Cases',
  path: '/cases',
  include: [
    'case_priority',
    'case_severity',
    'case_type',
    'closed_at',
    'created_at',
    'escalated_at',
    'name',
    'project',
    'reported_at',
    'status',
    'title',
    'total_cost_classic',
    'total_cost_new',
    'triage_at',
  ],
  statuses: ['New', 'Triage', 'Escalated', 'Stable', 'Closed'],
  type: 'case_type',
  priority: 'case_priority',
  severity: 'case_severity',
  typesPath: '/case_types',
  prioritiesPath: '/case_priorities',
  filters: [
    projectFilter,
    { key: 'type', label: 'Types', model: 'CaseType', field: 'name' },
    { key: 'priority', label: 'Priorities', model: 'CasePriority', field: 'name' },
  ],
  // A case has no stable moment of its own: its spans are to triage, to escalation and to close.
  spans: [
    { label: 'Time to triage', to: 'triage_at' },
    { label: 'Time to escalate', to: 'escalated_at' },
    { label: 'Time to close', to: 'closed_at' },
  ],
  costs: [
    { field: 'total_cost_new', label: 'Cost (new model)' },
    { field: 'total_cost_classic', label: 'Cost (classic model)' },
  ],
  forecast: false,
};

export const DASHBOARDS = [INCIDENT_DASHBOARD, CASE_DASHBOARD];
