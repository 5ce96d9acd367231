// The echarts option of a dashboard chart, from a Series: bars or lines over the categories, a
// legend when there are several series, values formatted (money for costs). A pure function, so
// the chart itself carries no logic; types only from echarts, so this file adds nothing to a chunk.
import type { Series } from './aggregate.ts';

export type ChartKind = 'bar' | 'line';

export function chartOption(data: Series, kind: ChartKind, format: (x: number) => string = String) {
  const several = data.series.length > 1;
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 8, right: 16, top: several ? 36 : 16, bottom: 8, containLabel: true },
    legend: several ? { top: 0 } : undefined,
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? format(v) : '-') },
    xAxis: { type: 'category', data: data.categories, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { formatter: (v: number) => format(v) } },
    series: data.series.map((s) => ({ name: s.name, type: kind, data: s.data, connectNulls: false, showSymbol: kind === 'line', barMaxWidth: 56 })),
  };
}

/** The chart in words, for screen readers: `Active 2, Closed 1` (each series named when several). */
export function seriesSummary(data: Series, format: (x: number) => string = String): string {
  const several = data.series.length > 1;
  return data.series
    .map((s) => {
      const points = data.categories
        .map((c, i) => (s.data[i] === null || s.data[i] === undefined ? null : `${c} ${format(s.data[i] as number)}`))
        .filter(Boolean)
        .join(', ');
      return several ? `${s.name}: ${points}` : points;
    })
    .join('; ');
}
