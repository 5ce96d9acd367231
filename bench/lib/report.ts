// Result tables: each scenario's throughput and p99 latency beside baselines measured in the same
// run, as percentages, because absolute numbers drift on a shared machine.
import type { ScenarioResult } from './load.ts';
import { mb, medianKb, peakMb } from './memory.ts';

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
export const fmtPercent = (p: number) => (Number.isFinite(p) ? `${p.toFixed(1)}%` : 'n/a');
export const fmtRps = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
// autocannon records latencies in whole milliseconds: 0 means under one.
export const fmtMs = (n: number) => (n < 1 ? '<1' : n.toFixed(0));

const fmtMb = (n: number | undefined) => (n === undefined ? '' : n.toFixed(0));

/**
 * Baseline rows first, then the scenarios, each followed by the loads that ran beside it (marked
 * `+`, with the rate they were asked for); one % column per baseline. RSS is the highest resident
 * memory of the server under test during the measurement.
 */
export function resultTable(baselines: Baseline[], results: ScenarioResult[]): string {
  const headers = ['scenario', 'conn', 'req/s', 'p99 ms', ...baselines.map((b) => `% of ${b.key}`), 'RSS MB', 'non-2xx', 'errors'];
  const row = (r: ScenarioResult, beside = false) => [
    beside ? `  + ${r.name} at ${r.rate}/s` : r.rate ? `${r.name} at ${r.rate}/s` : r.name,
    String(r.connections),
    fmtRps(r.rps),
    fmtMs(r.p99),
    ...baselines.map((b) => (beside ? '' : fmtPercent(percent(r.rps, b.result.rps)))),
    fmtMb(peakMb(r.rss)),
    String(r.non2xx),
    String(r.errors),
  ];
  const rows = [...baselines.map((b) => row(b.result)), ...results.flatMap((r) => [row(r), ...(r.background ?? []).map((x) => row(x, true))])];
  return formatTable(headers, rows);
}

/** Lines explaining non-2xx answers and errors (background loads included), empty when there were none. */
export function problems(results: ScenarioResult[]): string[] {
  const out: string[] = [];
  for (const r of results.flatMap((x) => [x, ...(x.background ?? [])])) {
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
/**
 * The CPU per answered request of the Muster process and, where they could be read, of the
 * PostgreSQL backends of its database: figures the load of a shared machine moves far less than the
 * throughput or the latency. Informational (always a PASS line); `per` names what a request is.
 */
export function cpuPerRequest(label: string, r: ScenarioResult, per: string): GoalCheck[] {
  if (r.cpuSeconds === undefined || r.requests === 0) return [];
  const ms = (seconds: number) => ((seconds * 1000) / r.requests).toFixed(2);
  const database = r.databaseCpuSeconds === undefined ? '' : `, PostgreSQL backends ${ms(r.databaseCpuSeconds)} ms (${r.databaseCpuSeconds.toFixed(1)} s)`;
  return [
    {
      pass: true,
      line: `${label}: INFO: ${r.name} Muster CPU ${ms(r.cpuSeconds)} ms per ${per} (${r.cpuSeconds.toFixed(1)} s over ${r.requests} answers)${database}`,
    },
  ];
}

export function latencyGoal(label: string, scenario: ScenarioResult, maxMs: number): GoalCheck {
  if (scenario.requests === 0) return noAnswer(label, scenario, maxMs);
  const pass = scenario.p99 < maxMs;
  return {
    pass,
    line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${scenario.name} p99 ${fmtMs(scenario.p99)} ms at ${fmtRps(scenario.rps)} req/s (goal: p99 < ${maxMs} ms)`,
  };
}

/** No request finished within the measurement: there is no latency to compare, and the goal is missed. */
const noAnswer = (label: string, scenario: ScenarioResult, maxMs: number): GoalCheck => ({
  pass: false,
  line: `${label}: FAIL: ${scenario.name}: no answer within the ${scenario.duration} s measured (${scenario.errors} errors, ${scenario.timeouts} timeouts) (goal: p99 < ${maxMs} ms)`,
});

/** `scenario` must answer at least `minRps` requests per second, every one of them 2xx. */
export function throughputGoal(label: string, scenario: ScenarioResult, minRps: number, sustainSeconds?: number): GoalCheck {
  const clean = scenario.non2xx === 0 && scenario.errors === 0;
  const pass = scenario.rps >= minRps && clean;
  const over = `over ${scenario.duration} s at ${scenario.connections} connections`;
  const short = sustainSeconds && scenario.duration < sustainSeconds ? `; the goal is for ${sustainSeconds} s: BENCH_DURATION=${sustainSeconds}` : '';
  return {
    pass,
    line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${scenario.name} ${fmtRps(scenario.rps)} req/s ${over}, ${scenario.non2xx} non-2xx, ${scenario.errors} errors (goal: >= ${minRps} req/s, 0 errors${short})`,
  };
}

/**
 * `scenario`'s p99 below `maxMs` while its background loads ran at (nearly) the rate asked of them:
 * a load that fell short of 90% of its rate did not give the condition the goal is about.
 */
export function latencyUnderLoadGoal(label: string, scenario: ScenarioResult, maxMs: number): GoalCheck {
  if (scenario.requests === 0) return noAnswer(label, scenario, maxMs);
  const behind = scenario.background ?? [];
  const short = behind.filter((b) => b.rate && b.rps < 0.9 * b.rate);
  const pass = scenario.p99 < maxMs && short.length === 0;
  const beside = behind.map((b) => `${b.name} ${fmtRps(b.rps)}/s of ${b.rate}/s asked, p99 ${fmtMs(b.p99)} ms`).join('; ');
  const why = short.length ? `; ${short.map((b) => b.name).join(', ')} fell short of its rate` : '';
  return {
    pass,
    line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${scenario.name} p99 ${fmtMs(scenario.p99)} ms at ${fmtRps(scenario.rps)} req/s beside ${beside || 'nothing'}${why} (goal: p99 < ${maxMs} ms)`,
  };
}

/**
 * Resident memory of the server flat over `scenario`'s measurement: the median of the samples of its
 * last fifth (minute 5 of 5) at most `maxGrowthPercent` above that of its first fifth (minute 1).
 * Medians, because garbage collection moves single samples by tens of megabytes either way.
 */
export function memoryGoal(label: string, scenario: ScenarioResult, maxGrowthPercent: number): GoalCheck {
  const samples = scenario.rss ?? [];
  const fifth = scenario.duration / 5;
  const medians = [0, 1, 2, 3, 4].map((k) => medianKb(samples, k * fifth, (k + 1) * fifth));
  const [first, last] = [medians[0], medians[4]];
  const names = [scenario, ...(scenario.background ?? [])].map((r) => r.name).join(' + ');
  if (first === undefined || last === undefined)
    return { pass: false, line: `${label}: FAIL: ${names}: resident memory could not be sampled (/proc/<pid>/status)` };
  const growth = last - first;
  const p = percent(growth, first);
  const pass = p <= maxGrowthPercent;
  const minutes = (fifth / 60).toFixed(1);
  return {
    pass,
    line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${names}: RSS median ${mb(first).toFixed(0)} MB over the first ${minutes} min, ${mb(last).toFixed(0)} MB over the last ${minutes} min, growth ${mb(growth).toFixed(1)} MB (${p.toFixed(1)}%); medians by fifths (MB): ${medians.map((m) => (m === undefined ? '-' : mb(m).toFixed(0))).join(', ')}; peak ${fmtMb(peakMb(samples))} MB (goal: flat, growth <= ${maxGrowthPercent}%)`,
  };
}
