// What the dashboards show, computed from the records the list answers (cut to the fields the
// dashboard needs): counts per status, priority, type and severity, the time from report to a later
// moment (stable, triage, closed), costs per type and priority, and counts per month. Pure functions
// of the records, so tests pin every number the charts and the summary show.

/** A record as the dashboard fetches it: only some fields, nested assessment records by name. */
export type DashboardRecord = Record<string, unknown>;

/** Categories along one axis and one or more named series over them (also the forecast's shape). */
export interface Series {
  categories: string[];
  /** A null value is a gap (a month the series says nothing about). */
  series: { name: string; data: (number | null)[] }[];
}

/** The label a record without the grouped value is counted under. */
export const NONE = 'None';

interface Named {
  name?: string;
  view_order?: number;
}

/** The name of a nested record (`incident_priority`) or the text of a plain field (`status`). */
export function labelOf(record: DashboardRecord, field: string): string {
  const value = record[field];
  if (value && typeof value === 'object') return (value as Named).name ?? NONE;
  return typeof value === 'string' && value !== '' ? value : NONE;
}

/**
 * The groups of `field` in the order they are shown: a given order first (statuses as their life
 * runs), then by the nested record's `view_order` (priorities, severities), then by name; `None` last.
 */
export function groupOrder(records: DashboardRecord[], field: string, order: readonly string[] = []): string[] {
  const viewOrder = new Map<string, number>();
  for (const r of records) {
    const value = r[field] as Named | null | undefined;
    const label = labelOf(r, field);
    if (!viewOrder.has(label))
      viewOrder.set(label, typeof value === 'object' && value && typeof value.view_order === 'number' ? value.view_order : Number.POSITIVE_INFINITY);
  }
  const rank = (label: string) => (order.includes(label) ? order.indexOf(label) : order.length);
  return [...new Set([...order.filter((o) => viewOrder.has(o)), ...viewOrder.keys()])].sort(
    (a, b) => Number(a === NONE) - Number(b === NONE) || rank(a) - rank(b) || (viewOrder.get(a) ?? 0) - (viewOrder.get(b) ?? 0) || a.localeCompare(b),
  );
}

/** How many records fall in each group of `field`. */
export function countBy(records: DashboardRecord[], field: string, seriesName: string, order: readonly string[] = []): Series {
  const categories = groupOrder(records, field, order);
  const data = categories.map((c) => records.filter((r) => labelOf(r, field) === c).length);
  return { categories, series: [{ name: seriesName, data }] };
}

/** A number field of a record, 0 when absent (a cut item, a cost not yet computed). */
const amount = (record: DashboardRecord, field: string) => {
  const value = record[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
};

/** The sum of each cost field per group of `field`, one series per cost field, rounded to cents. */
export function costsBy(records: DashboardRecord[], field: string, costs: { field: string; label: string }[], order: readonly string[] = []): Series {
  const categories = groupOrder(records, field, order);
  return {
    categories,
    series: costs.map((cost) => ({
      name: cost.label,
      data: categories.map((c) => cents(records.filter((r) => labelOf(r, field) === c).reduce((sum, r) => sum + amount(r, cost.field), 0))),
    })),
  };
}

/** The total of a cost field over all records. */
export const totalOf = (records: DashboardRecord[], field: string) => cents(records.reduce((sum, r) => sum + amount(r, field), 0));

const cents = (x: number) => Math.round(x * 100) / 100;

/** An API time (UTC, with or without a zone) in milliseconds; null when absent or unreadable. */
export function timeOf(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const text = /Z$|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

export interface DurationStats {
  /** How many records reached the later moment. */
  count: number;
  /** Milliseconds; null when no record reached it. */
  mean: number | null;
  median: number | null;
}

/** Mean and median of `to - from` over the records that have both (a negative span counts as 0). */
export function durationStats(records: DashboardRecord[], from: string, to: string): DurationStats {
  const spans: number[] = [];
  for (const r of records) {
    const start = timeOf(r[from]);
    const end = timeOf(r[to]);
    if (start !== null && end !== null) spans.push(Math.max(end - start, 0));
  }
  if (spans.length === 0) return { count: 0, mean: null, median: null };
  spans.sort((a, b) => a - b);
  const middle = Math.floor(spans.length / 2);
  const median = spans.length % 2 ? spans[middle] : (spans[middle - 1] + spans[middle]) / 2;
  return { count: spans.length, mean: spans.reduce((s, x) => s + x, 0) / spans.length, median };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `45 min`, `5 h 20 min`, `3 d 4 h`; a dash when there is no value. */
export function durationText(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < HOUR) return `${Math.round(ms / MINUTE)} min`;
  if (ms < 2 * DAY) {
    const hours = Math.floor(ms / HOUR);
    const minutes = Math.round((ms - hours * HOUR) / MINUTE);
    return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  }
  const days = Math.floor(ms / DAY);
  const hours = Math.round((ms - days * DAY) / HOUR);
  return hours ? `${days} d ${hours} h` : `${days} d`;
}

/** `2026-03` of an API time, in UTC like every time the UI shows. */
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

/** The months from `first` to `last` (`YYYY-MM`), both included. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year, month] = first.split('-').map(Number);
  const [endYear, endMonth] = last.split('-').map(Number);
  while (year < endYear || (year === endYear && month <= endMonth)) {
    months.push(`${year}-${String(month).padStart(2, '0')}`);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

/**
 * Records reported per month, and the months' costs when cost fields are given: every month from
 * `since` (the window's start; else the first record's month) to the last record's or `until`'s,
 * months without a record counted 0.
 */
export function monthly(
  records: DashboardRecord[],
  seriesName: string,
  options: { since?: string; until?: string; costs?: { field: string; label: string }[] } = {},
): Series {
  const months = records.map((r) => timeOf(r.reported_at)).filter((t): t is number => t !== null);
  if (months.length === 0) return { categories: [], series: [{ name: seriesName, data: [] }] };
  const labels = months.map(monthOf).sort();
  const first = options.since && options.since.slice(0, 7) < labels[0] ? options.since.slice(0, 7) : labels[0];
  const lastRecord = labels[labels.length - 1];
  const last = options.until && options.until.slice(0, 7) > lastRecord ? options.until.slice(0, 7) : lastRecord;
  const categories = monthsBetween(first, last);
  const inMonth = (r: DashboardRecord, m: string) => {
    const t = timeOf(r.reported_at);
    return t !== null && monthOf(t) === m;
  };
  return {
    categories,
    series: [
      { name: seriesName, data: categories.map((m) => records.filter((r) => inMonth(r, m)).length) },
      ...(options.costs ?? []).map((cost) => ({
        name: cost.label,
        data: categories.map((m) => cents(records.filter((r) => inMonth(r, m)).reduce((s, r) => s + amount(r, cost.field), 0))),
      })),
    ],
  };
}

/** Records whose type counts in metrics (Dispatch leaves out types marked `exclude_from_metrics`). */
export const counted = (records: DashboardRecord[], typeField: string) =>
  records.filter((r) => !(r[typeField] as { exclude_from_metrics?: boolean } | null | undefined)?.exclude_from_metrics);

/** Nothing to draw: no category, or every value 0. */
export const isEmptySeries = (s: Series) => s.categories.length === 0 || s.series.every((x) => x.data.every((v) => !v));

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** `$1,234.50` */
export const moneyText = (x: number) => usd.format(x);
