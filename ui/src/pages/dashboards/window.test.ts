import { describe, expect, it } from 'vitest';
import { toFilterJson } from '../../lib/filters.ts';
import { alignForecast, lastThreeMonths } from './forecast.ts';
import { isDay, paramsWithWindow, WINDOW_DEFS, windowFrom, windowText, windowValues } from './window.ts';

const now = new Date('2026-05-20T15:00:00Z');

describe('the reported-at window', () => {
  it('is the last 30 days by default, today included', () => {
    const w = windowFrom(new URLSearchParams(), now);
    expect(w).toEqual({ key: '30', from: '2026-04-21' });
    expect(windowText(w)).toBe('the last 30 days');
    expect(toFilterJson(WINDOW_DEFS, windowValues(w))).toEqual({ and: [{ or: [{ field: 'reported_at', op: '>=', value: '2026-04-21T00:00:00.000' }] }] });
  });

  it('reads 90 and 365 days and custom dates from the URL, and ignores what it does not know', () => {
    expect(windowFrom(new URLSearchParams('window=365'), now).from).toBe('2025-05-21');
    expect(windowFrom(new URLSearchParams('window=8'), now)).toEqual({ key: '30', from: '2026-04-21' });
    const custom = windowFrom(new URLSearchParams('window=custom&from=2026-01-01&to=2026-03-31'), now);
    expect(custom).toEqual({ key: 'custom', from: '2026-01-01', to: '2026-03-31' });
    expect(toFilterJson(WINDOW_DEFS, windowValues(custom))).toEqual({
      and: [
        { or: [{ field: 'reported_at', op: '>=', value: '2026-01-01T00:00:00.000' }] },
        { or: [{ field: 'reported_at', op: '<=', value: '2026-03-31T23:59:59.999' }] },
      ],
    });
    expect(windowFrom(new URLSearchParams('window=custom&from=junk'), now)).toEqual({ key: 'custom', from: undefined, to: undefined });
    expect(windowText({ key: 'custom' })).toBe('all time');
  });

  it('has this month and the last 7 days as presets', () => {
    const month = windowFrom(new URLSearchParams('window=month'), now);
    expect(month).toEqual({ key: 'month', from: '2026-05-01' });
    expect(windowText(month)).toBe('this month');
    expect(windowFrom(new URLSearchParams('window=7'), now)).toEqual({ key: '7', from: '2026-05-14' });
  });

  it('takes typed days only when they are whole, real dates', () => {
    expect(['2026-02-28', '2024-02-29'].map(isDay)).toEqual([true, true]);
    expect(['2026-02-30', '2026-2-1', '2026-02', ''].map(isDay)).toEqual([false, false, false, false]);
  });

  it('writes the window into the URL, keeping the other filters', () => {
    const params = new URLSearchParams('project=default&window=custom&from=2026-01-01');
    expect(paramsWithWindow(params, { key: '90' }).toString()).toBe('project=default&window=90');
    expect(paramsWithWindow(params, { key: '30' }).toString()).toBe('project=default');
    expect(paramsWithWindow(params, { key: 'custom', from: '2026-02-01', to: '2026-02-28' }).toString()).toBe(
      'project=default&window=custom&from=2026-02-01&to=2026-02-28',
    );
  });
});

describe('the forecast', () => {
  it('is empty when the API has no history to forecast from', () => {
    const empty = {
      categories: [],
      series: [
        { name: 'Predicted', data: [] },
        { name: 'Actual', data: [] },
      ],
    };
    expect(alignForecast(empty, now)).toEqual({ categories: [], series: [] });
    expect(alignForecast(undefined, now)).toEqual({ categories: [], series: [] });
  });

  it('sets the actual counts against their own months', () => {
    expect(lastThreeMonths(now)).toEqual(['2026-02', '2026-03', '2026-04']);
    const months = ['2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];
    const full = alignForecast(
      {
        categories: months,
        series: [
          { name: 'Predicted', data: [1, 2, 3, 4, 5] },
          { name: 'Actual', data: [7, 8, 9] },
        ],
      },
      now,
    );
    expect(full.series[1]).toEqual({ name: 'Actual', data: [7, 8, 9, null, null] });
    // Only the last window could be forecast: the categories start at the current month.
    const short = alignForecast(
      {
        categories: ['2026-05', '2026-06'],
        series: [
          { name: 'Predicted', data: [4, 5] },
          { name: 'Actual', data: [7, 8, 9] },
        ],
      },
      now,
    );
    expect(short.series).toEqual([
      { name: 'Predicted', data: [4, 5] },
      { name: 'Actual', data: [null, null] },
    ]);
  });
});
