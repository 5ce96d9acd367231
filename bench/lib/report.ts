// Result tables: each scenario's throughput and p99 latency beside baselines measured in the same
// run, as percentages, because absolute numbers drift on a shared machine.
import type { ScenarioResult } from './load.ts';

export interface Baseline {
  /** Column heading, e.g. "A". */
  key: string;
  result: ScenarioResult;
}

/** A plain text table: first column left-aligned, the others right-aligned. */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export const percent = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : NaN);
const fmtPercent = (p: number) => (Number.isFinite(p) ? `${p.toFixed(1)}%` : 'n/a');
const fmtRps = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
// autocannon records latencies in whole milliseconds: 0 means under one.
const fmtMs = (n: number) => (n < 1 ? '<1' : n.toFixed(0));

/** Baseline rows first, then the scenarios; one % column per baseline. */
export function resultTable(baselines: Baseline[], results: ScenarioResult[]): string {
  const headers = ['scenario', 'req/s', 'p99 ms', ...baselines.map((b) => `% of ${b.key}`), 'non-2xx', 'errors'];
  const row = (r: ScenarioResult) => [
    r.name,
    fmtRps(r.rps),
    fmtMs(r.p99),
    ...baselines.map((b) => fmtPercent(percent(r.rps, b.result.rps))),
    String(r.non2xx),
    String(r.errors),
  ];
  return formatTable(headers, [...baselines.map((b) => row(b.result)), ...results.map(row)]);
}

/** Lines explaining non-2xx answers and errors, empty when there were none. */
export function problems(results: ScenarioResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    if (r.non2xx === 0 && r.errors === 0) continue;
    const codes = Object.entries(r.statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, n]) => `${n}x${code}`)
      .join(', ');
    out.push(`${r.name}: ${r.non2xx} non-2xx${codes ? ` (${codes})` : ''}, ${r.errors} errors (${r.timeouts} timeouts) of ${r.requests} responses`);
  }
  return out;
}

export interface GoalCheck {
  pass: boolean;
  line: string;
}

/** `scenario` must reach `minPercent` of `baseline`'s throughput. */
export function goalCheck(label: string, scenario: ScenarioResult, baseline: Baseline, minPercent: number): GoalCheck {
  const p = percent(scenario.rps, baseline.result.rps);
  const pass = p >= minPercent;
  return {
    pass,
    line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${scenario.name} ${fmtRps(scenario.rps)} req/s is ${fmtPercent(p)} of baseline ${baseline.key} ${fmtRps(baseline.result.rps)} req/s (goal: >= ${minPercent}%)`,
  };
}

/** `scenario`'s p99 latency must stay below `maxMs` (autocannon's whole milliseconds). */
export function latencyGoal(label: string, scenario: ScenarioResult, maxMs: number): GoalCheck {
  const pass = scenario.p99 < maxMs;
  return {
    pass,
    line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${scenario.name} p99 ${fmtMs(scenario.p99)} ms at ${fmtRps(scenario.rps)} req/s (goal: p99 < ${maxMs} ms)`,
  };
}
