// The timeline as people read it: its entries narrowed by kind (the event's type), source and text,
// each entry's deep link, and the whole (or narrowed) timeline written as CSV for a post-incident
// review. Pure functions, tested in timeline.test.ts.
import { parseTime } from '../../components/Time.tsx';
import { type CsvColumn, toCsv } from '../../lib/csv.ts';
import type { TimelineEvent } from './types.ts';

export interface TimelineFilter {
  /** Event types to keep (`Custom event`, `Field updated`, …); none kept means all. */
  kinds: string[];
  sources: string[];
  /** Words that must all appear in the description, owner or source (any case). */
  text: string;
  /** Only the last 10 minutes, only what came since the last update (tactical report), or all. */
  within?: Within;
}

export const WITHIN = { all: 'All', '10m': 'Last 10 minutes', update: 'Since the last update' } as const;
export type Within = keyof typeof WITHIN;

export const NO_FILTER: TimelineFilter = { kinds: [], sources: [], text: '', within: 'all' };

/** The earliest time (ms) an entry may have under `within`; 0 for all (and for no update yet). */
export function cutoffOf(within: Within | undefined, now: number, lastUpdate: string | null | undefined): number {
  if (within === '10m') return now - 10 * 60_000;
  if (within === 'update' && lastUpdate) return parseTime(lastUpdate);
  return 0;
}

/** Newest first, as a team reads what is happening. */
export const newestFirst = <E extends Pick<TimelineEvent, 'started_at'>>(events: E[]) =>
  [...events].sort((a, b) => String(b.started_at).localeCompare(String(a.started_at)));

export const kindOf = (e: Pick<TimelineEvent, 'type'>) => e.type || 'Other';

export function filterTimeline<E extends Pick<TimelineEvent, 'type' | 'source' | 'description' | 'owner'>>(events: E[], filter: TimelineFilter): E[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return events.filter((e) => {
    if (filter.kinds.length && !filter.kinds.includes(kindOf(e))) return false;
    if (filter.sources.length && !filter.sources.includes(e.source)) return false;
    if (words.length) {
      const hay = `${e.description} ${e.owner ?? ''} ${e.source}`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) return false;
    }
    return true;
  });
}

/** The distinct values of a field, sorted, for the filter pickers. */
export const distinct = (values: string[]) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

/** The anchor of an entry on the page: `#event-<uuid>`. */
export const eventAnchor = (uuid: string) => `event-${uuid}`;

/** The uuid an anchor names, or null when the hash is not an entry's. */
export const eventOfHash = (hash: string) => {
  const match = /^#?event-([0-9a-f-]{36})$/i.exec(hash);
  return match ? match[1] : null;
};

/** The entry's deep link: `/{org}/incidents/{name}?tab=timeline#event-<uuid>`. */
export const eventLink = (organization: string, incidentName: string, uuid: string) =>
  `/${encodeURIComponent(organization)}/incidents/${encodeURIComponent(incidentName)}?tab=timeline#${eventAnchor(uuid)}`;

const CSV_COLUMNS: CsvColumn<Pick<TimelineEvent, 'started_at' | 'type' | 'source' | 'owner' | 'description' | 'uuid'>>[] = [
  { header: 'started_at', value: (e) => e.started_at },
  { header: 'type', value: kindOf },
  { header: 'source', value: (e) => e.source },
  { header: 'owner', value: (e) => e.owner },
  { header: 'description', value: (e) => e.description },
  { header: 'uuid', value: (e) => e.uuid },
];

/** The timeline as CSV: a header row, then one row per entry, CRLF line ends. */
export const timelineCsv = (events: Pick<TimelineEvent, 'started_at' | 'type' | 'source' | 'owner' | 'description' | 'uuid'>[]) => toCsv(CSV_COLUMNS, events);

/** The filter kept in the URL (`?tab=timeline&kind=Custom+event&source=Slack&words=db`), so a narrowed view is a link too. */
export function timelineFilterFromParams(params: URLSearchParams): TimelineFilter {
  const within = params.get('within');
  return {
    kinds: params.getAll('kind'),
    sources: params.getAll('source'),
    text: params.get('words') ?? '',
    within: within && within in WITHIN ? (within as Within) : 'all',
  };
}

export function paramsWithTimelineFilter(params: URLSearchParams, filter: TimelineFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['kind', 'source', 'words', 'within']) next.delete(key);
  if (filter.within && filter.within !== 'all') next.set('within', filter.within);
  for (const k of filter.kinds) next.append('kind', k);
  for (const s of filter.sources) next.append('source', s);
  if (filter.text) next.set('words', filter.text);
  return next;
}

/** What an entry carries beyond its line: a report's fields, a task's words; labelled, in order. */
export function contentOf(e: Pick<TimelineEvent, 'description' | 'details'>): [string, string][] {
  const details = (e.details ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof details[key] === 'string' && details[key] ? (details[key] as string) : null);
  if (/report created$/.test(e.description)) {
    const fields: [string, string][] = [
      ['Conditions', 'conditions'],
      ['Actions', 'actions'],
      ['Needs', 'needs'],
      ['Current status', 'current_status'],
      ['Overview', 'overview'],
      ['Next steps', 'next_steps'],
    ];
    return fields.flatMap(([label, key]) => (text(key) ? [[label, text(key)!] as [string, string]] : []));
  }
  if (details.task_id !== undefined && text('description')) return [['Task', text('description')!]];
  return [];
}

/** Sources of what Muster writes itself (and what Dispatch wrote, for imported incidents). */
const SYSTEM_SOURCE = /(Muster|Dispatch) Core App$/;

/**
 * Whether an entry is the system's bookkeeping (people joining, fields set, resources made) rather
 * than what people say and do: custom events, reports, tasks and status changes are never noise.
 */
export function isSystem(e: Pick<TimelineEvent, 'type' | 'source' | 'description' | 'details'>): boolean {
  if (kindOf(e) === 'Custom event' || !SYSTEM_SOURCE.test(e.source)) return false;
  if (contentOf(e).length || /status changed/i.test(e.description)) return false;
  return true;
}

export type TimelineRow<E> = { event: E } | { system: E[] };

/**
 * The entries with each run of two or more consecutive system entries folded into one row; `keep`
 * (the entry a link names) is never folded away.
 */
export function foldSystem<E extends Pick<TimelineEvent, 'uuid' | 'type' | 'source' | 'description' | 'details'>>(
  events: E[],
  keep?: string | null,
): TimelineRow<E>[] {
  const rows: TimelineRow<E>[] = [];
  let run: E[] = [];
  const flush = () => {
    if (run.length >= 2) rows.push({ system: run });
    else for (const event of run) rows.push({ event });
    run = [];
  };
  for (const e of events) {
    if (isSystem(e) && e.uuid !== keep) run.push(e);
    else {
      flush();
      rows.push({ event: e });
    }
  }
  flush();
  return rows;
}
