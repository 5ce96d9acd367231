// The reported-at window of a dashboard, kept in the URL: `?window=month` (this month), `?window=7`
// (the last 7, 30, 90 or 365 days, 30 when absent) or `?window=custom&from=2026-01-01&to=2026-03-31`;
// dates are UTC days, as every time the UI shows.
import type { FilterDef } from '../../lib/filters.ts';

export const PRESETS = ['month', '7', '30', '90', '365'] as const;
export const DEFAULT_WINDOW = '30';

export interface Window {
  /** `month`, `7`, `30`, `90`, `365` or `custom`. */
  key: string;
  /** First day (`YYYY-MM-DD`), included; none for an open custom start. */
  from?: string;
  /** Last day, included; none up to now. */
  to?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The window the URL names, its days computed from `now`. */
export function windowFrom(params: URLSearchParams, now: Date): Window {
  const key = params.get('window') ?? DEFAULT_WINDOW;
  if (key === 'custom') {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    return { key, from: DATE.test(from) ? from : undefined, to: DATE.test(to) ? to : undefined };
  }
  if (key === 'month') return { key, from: `${day(now.getTime()).slice(0, 8)}01` };
  const days = (PRESETS as readonly string[]).includes(key) ? Number(key) : Number(DEFAULT_WINDOW);
  // Today counts as one of the days: the last 30 days start 29 days before today.
  return { key: String(days), from: day(now.getTime() - (days - 1) * 86_400_000) };
}

/** URL parameters with the window set to `next` (custom keeps or takes its dates). */
export function paramsWithWindow(params: URLSearchParams, next: Window): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const k of ['window', 'from', 'to']) out.delete(k);
  if (next.key !== DEFAULT_WINDOW) out.set('window', next.key);
  if (next.key === 'custom') {
    if (next.from) out.set('from', next.from);
    if (next.to) out.set('to', next.to);
  }
  return out;
}

/** The window as list filter definitions and values (`reported_at >= from`, `<= to`, whole days). */
export const WINDOW_DEFS: FilterDef[] = [
  { key: 'from', label: 'Reported from', field: 'reported_at', kind: 'after' },
  { key: 'to', label: 'Reported until', field: 'reported_at', kind: 'before' },
];

export const windowValues = (w: Window): Record<string, string[]> => ({
  ...(w.from ? { from: [w.from] } : {}),
  ...(w.to ? { to: [w.to] } : {}),
});

/** `this month`, `the last 30 days`, `2026-01-01 to 2026-03-31`, `since 2026-01-01`, `all time`. */
export function windowText(w: Window): string {
  if (w.key === 'month') return 'this month';
  if (w.key !== 'custom') return `the last ${w.key} days`;
  if (w.from && w.to) return `${w.from} to ${w.to}`;
  if (w.from) return `since ${w.from}`;
  if (w.to) return `until ${w.to}`;
  return 'all time';
}

/** A day as people type it: `YYYY-MM-DD`, a real date. */
export const isDay = (text: string) => DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && day(Date.parse(`${text}T00:00:00Z`)) === text;
