// Query parameters as Dispatch's web UI writes them (reference/dispatch-ui.md, "Conventions").

/** An incident or case table: the first page of 25, newest reported first, narrowed to projects by `or` leaves. */
export const tableQuery = (...projects: { field: 'id' | 'name'; value: number | string }[]) => ({
  page: 1,
  itemsPerPage: 25,
  'descending[]': true,
  'sortBy[]': 'reported_at',
  ...(projects.length ? { filter: JSON.stringify({ and: [{ or: projects.map((p) => ({ model: 'Project', op: '==', ...p })) }] }) } : {}),
});

/** The `include[]` of the incident dashboard: IncidentDialogFilter.vue's fetchData(), as the UI sends it. */
export const INCIDENT_DASHBOARD = [
  'closed_at',
  'commanders_location',
  'created_at',
  'duplicates',
  'incident_priority',
  'incident_severity',
  'incident_type',
  'name',
  'participants_location',
  'participants_team',
  'project',
  'reported_at',
  'reporters_location',
  'stable_at',
  'status',
  'tags',
  'title',
  'total_cost',
];

/** The `include[]` of the case dashboard: CaseDialogFilter.vue's fetchData(), as the UI sends it. */
export const CASE_DASHBOARD = [
  'case_priority',
  'case_severity',
  'case_type',
  'closed_at',
  'duplicates',
  'escalated_at',
  'incidents',
  'name',
  'project',
  'reported_at',
  'stable_at',
  'status',
  'tags',
  'title',
  'triage_at',
  'total_cost_classic',
  'total_cost_new',
];
