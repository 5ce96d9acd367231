// CSV of incidents (RFC 4180): every row matching the table's filter and sort, read page by page
// from the API (cut to the exported fields with include[]), so the file holds all of them, not only
// the page on screen.
import { fetchList, type ListParams } from '../../api/list.ts';
import type { CsvColumn } from '../../lib/csv.ts';
import type { Incident } from './types.ts';

const email = (p: Incident['commander']) => p?.individual?.email ?? '';

export const INCIDENT_CSV_COLUMNS: CsvColumn<Incident>[] = [
  { header: 'name', value: (i) => i.name },
  { header: 'title', value: (i) => i.title },
  { header: 'status', value: (i) => i.status },
  { header: 'priority', value: (i) => i.incident_priority?.name },
  { header: 'severity', value: (i) => i.incident_severity?.name },
  { header: 'type', value: (i) => i.incident_type?.name },
  { header: 'project', value: (i) => i.project?.name },
  { header: 'commander', value: (i) => email(i.commander) },
  { header: 'reporter', value: (i) => email(i.reporter) },
  { header: 'visibility', value: (i) => i.visibility },
  { header: 'reported_at', value: (i) => i.reported_at },
  { header: 'stable_at', value: (i) => i.stable_at },
  { header: 'closed_at', value: (i) => i.closed_at },
  { header: 'tags', value: (i) => (i.tags ?? []).map((t) => t.name).join('; ') },
  { header: 'total_cost', value: (i) => i.total_cost },
  { header: 'description', value: (i) => i.description },
];

/** The fields the columns read, for include[]. */
export const INCIDENT_CSV_FIELDS = [
  'id',
  'name',
  'title',
  'status',
  'incident_priority.name',
  'incident_severity.name',
  'incident_type.name',
  'project.name',
  'commander.individual.email',
  'reporter.individual.email',
  'visibility',
  'reported_at',
  'stable_at',
  'closed_at',
  'tags[].name',
  'total_cost',
  'description',
];

export const EXPORT_PAGE_SIZE = 200;

/** Every incident the list params match, one page after another; `onProgress` hears the count so far. */
export async function fetchAllIncidents(
  organization: string,
  params: ListParams,
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<Incident[]> {
  const rows: Incident[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetchList<Incident>(
      organization,
      '/incidents',
      { ...params, page, itemsPerPage: EXPORT_PAGE_SIZE, include: INCIDENT_CSV_FIELDS },
      options.signal,
    );
    rows.push(...answer.items);
    options.onProgress?.(rows.length, answer.total);
    if (answer.items.length < EXPORT_PAGE_SIZE || rows.length >= answer.total) return rows;
  }
}
