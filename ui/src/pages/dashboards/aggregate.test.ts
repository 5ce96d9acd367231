import { describe, expect, it } from 'vitest';
import { costsBy, counted, countBy, durationStats, durationText, isEmptySeries, moneyText, monthly, NONE, totalOf } from './aggregate.ts';
import { CASE_DASHBOARD, INCIDENT_DASHBOARD } from './kinds.ts';
import { summaryStats } from './Summary.tsx';

const high = { name: 'High', view_order: 1 };
const low = { name: 'Low', view_order: 3 };
const medium = { name: 'Medium', view_order: 2 };
const outage = { name: 'Outage', exclude_from_metrics: false };
const drill = { name: 'Drill', exclude_from_metrics: true };
const security = { name: 'Security', exclude_from_metrics: false };

// Incidents as the dashboard's list call answers them (cut to its include[] fields).
const incidents = [
  {
    name: 'INC-1',
    status: 'Closed',
    reported_at: '2026-01-10T10:00:00',
    stable_at: '2026-01-10T12:00:00',
    closed_at: '2026-01-11T10:00:00',
    incident_priority: low,
    incident_severity: { name: 'Minor', view_order: 2 },
    incident_type: outage,
    total_cost: 100.5,
  },
  {
    name: 'INC-2',
    status: 'Stable',
    reported_at: '2026-01-20T00:00:00Z',
    stable_at: '2026-01-20T04:00:00Z',
    closed_at: null,
    incident_priority: high,
    incident_severity: { name: 'Major', view_order: 1 },
    incident_type: security,
    total_cost: 200,
  },
  {
    name: 'INC-3',
    status: 'Active',
    reported_at: '2026-03-02T08:00:00',
    stable_at: null,
    closed_at: null,
    incident_priority: high,
    incident_severity: { name: 'Major', view_order: 1 },
    incident_type: outage,
    total_cost: 0.25,
  },
  {
    name: 'INC-4',
    status: 'Active',
    reported_at: '2026-03-05T08:00:00',
    incident_priority: medium,
    incident_severity: null,
    incident_type: security,
  },
];

describe('dashboard counts', () => {
  it('counts by status in the order a life runs, leaving out statuses no record has', () => {
    expect(countBy(incidents, 'status', 'Incidents', ['Active', 'Stable', 'Closed'])).toEqual({
      categories: ['Active', 'Stable', 'Closed'],
      series: [{ name: 'Incidents', data: [2, 1, 1] }],
    });
    expect(countBy(incidents.slice(2), 'status', 'Incidents', ['Active', 'Stable', 'Closed']).categories).toEqual(['Active']);
  });

  it('orders priorities and severities by their view order, types by name, records without one last', () => {
    expect(countBy(incidents, 'incident_priority', 'Incidents')).toEqual({
      categories: ['High', 'Medium', 'Low'],
      series: [{ name: 'Incidents', data: [2, 1, 1] }],
    });
    expect(countBy(incidents, 'incident_severity', 'Incidents')).toEqual({
      categories: ['Major', 'Minor', NONE],
      series: [{ name: 'Incidents', data: [2, 1, 1] }],
    });
    expect(countBy(incidents, 'incident_type', 'Incidents').categories).toEqual(['Outage', 'Security']);
  });

  it('leaves out records of types excluded from metrics', () => {
    const withDrill = [...incidents, { name: 'INC-5', status: 'Active', reported_at: '2026-03-06T00:00:00', incident_type: drill }];
    expect(counted(withDrill, 'incident_type').map((r) => r.name)).toEqual(['INC-1', 'INC-2', 'INC-3', 'INC-4']);
  });

  it('says when a series has nothing to draw', () => {
    expect(isEmptySeries(countBy([], 'status', 'Incidents', ['Active']))).toBe(true);
    expect(isEmptySeries(costsBy(incidents.slice(3), 'incident_type', [{ field: 'total_cost', label: 'Cost' }]))).toBe(true);
    expect(isEmptySeries(countBy(incidents, 'status', 'Incidents'))).toBe(false);
  });
});

describe('dashboard spans', () => {
  it('takes the mean and median from report to stable over the records that reached it', () => {
    // 2 h and 4 h.
    expect(durationStats(incidents, 'reported_at', 'stable_at')).toEqual({ count: 2, mean: 3 * 3600_000, median: 3 * 3600_000 });
  });

  it('takes the median of an odd count as its middle value, and knows when nothing closed', () => {
    const spans = [1, 2, 10].map((h) => ({ reported_at: '2026-01-01T00:00:00Z', closed_at: new Date(Date.UTC(2026, 0, 1, h)).toISOString() }));
    expect(durationStats(spans, 'reported_at', 'closed_at')).toEqual({ count: 3, mean: 13 * 1200_000, median: 2 * 3600_000 });
    expect(durationStats(incidents.slice(1), 'reported_at', 'closed_at')).toEqual({ count: 0, mean: null, median: null });
  });

  it('writes spans in words', () => {
    expect(durationText(null)).toBe('-');
    expect(durationText(45 * 60_000)).toBe('45 min');
    expect(durationText(5 * 3600_000 + 20 * 60_000)).toBe('5 h 20 min');
    expect(durationText(24 * 3600_000)).toBe('24 h');
    expect(durationText(3 * 86_400_000 + 4 * 3600_000)).toBe('3 d 4 h');
  });
});

describe('dashboard costs', () => {
  it('sums incident costs by type and by priority, to the cent', () => {
    const cost = [{ field: 'total_cost', label: 'Cost' }];
    expect(costsBy(incidents, 'incident_type', cost)).toEqual({ categories: ['Outage', 'Security'], series: [{ name: 'Cost', data: [100.75, 200] }] });
    expect(costsBy(incidents, 'incident_priority', cost)).toEqual({
      categories: ['High', 'Medium', 'Low'],
      series: [{ name: 'Cost', data: [200.25, 0, 100.5] }],
    });
    expect(totalOf(incidents, 'total_cost')).toBe(300.75);
    expect(moneyText(300.75)).toBe('$300.75');
  });

  it('sums both case cost models, one series each', () => {
    const cases = [
      { case_type: { name: 'Phishing' }, total_cost_new: 10, total_cost_classic: 30 },
      { case_type: { name: 'Phishing' }, total_cost_new: 5, total_cost_classic: 0 },
      { case_type: { name: 'Malware' }, total_cost_new: 1, total_cost_classic: 2 },
    ];
    expect(costsBy(cases, 'case_type', CASE_DASHBOARD.costs)).toEqual({
      categories: ['Malware', 'Phishing'],
      series: [
        { name: 'Cost (new model)', data: [1, 15] },
        { name: 'Cost (classic model)', data: [2, 30] },
      ],
    });
  });
});

describe('dashboard trends', () => {
  it('counts per month (UTC) from the window start, months without a record at 0, with costs when asked', () => {
    expect(monthly(incidents, 'Incidents', { since: '2025-12-15', costs: [{ field: 'total_cost', label: 'Cost' }] })).toEqual({
      categories: ['2025-12', '2026-01', '2026-02', '2026-03'],
      series: [
        { name: 'Incidents', data: [0, 2, 0, 2] },
        { name: 'Cost', data: [0, 300.5, 0, 0.25] },
      ],
    });
    expect(monthly([], 'Incidents')).toEqual({ categories: [], series: [{ name: 'Incidents', data: [] }] });
  });
});

describe('dashboard summary', () => {
  it('has the counts, spans and costs of the incidents', () => {
    const stats = Object.fromEntries(summaryStats(INCIDENT_DASHBOARD, incidents).map((s) => [s.label, s.note ? `${s.value} (${s.note})` : s.value]));
    expect(stats).toEqual({
      Incidents: '4',
      Active: '2',
      Stable: '1',
      Closed: '1',
      'Time to stable, mean': '3 h (2 of 4)',
      'Time to stable, median': '3 h (2 of 4)',
      'Time to close, mean': '24 h (1 of 4)',
      'Time to close, median': '24 h (1 of 4)',
      'Total cost': '$300.75',
      'Average cost': '$75.19',
    });
  });

  it('has no average of nothing', () => {
    const stats = summaryStats(CASE_DASHBOARD, []);
    expect(stats.find((s) => s.label === 'Cases')?.value).toBe('0');
    expect(stats.find((s) => s.label === 'Average cost (new model)')?.value).toBe('-');
    expect(stats.find((s) => s.label === 'Time to triage, mean')?.value).toBe('-');
  });
});
