// Query parameters as Dispatch's web UI writes them (reference/dispatch-ui.md, "Conventions").

/** An incident or case table: the first page of 25, newest reported first, narrowed to projects by `or` leaves. */
export const tableQuery = (...projects: { field: 'id' | 'name'; value: number | string }[]) => ({
  page: 1,
  itemsPerPage: 25,
  'descending[]': true,
  'sortBy[]': 'reported_at',
  ...(projects.length ? { filter: JSON.stringify({ and: [{ or: projects.map((p) => ({ model: 'Project', op: '==', ...p })) }] }) } : {}),
});
