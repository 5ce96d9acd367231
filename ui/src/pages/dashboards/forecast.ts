// The incident forecast as the API answers it (GET /{organization}/incidents/metric/forecast):
// `categories` (months), a `Predicted` series over all of them and an `Actual` series of the three
// months before the current one. The actual counts are set against their own months, so they stay
// right when the history was too short for the forecasts of past months.
import { monthsBetween, type Series } from './aggregate.ts';

export interface ForecastAnswer {
  categories: string[];
  series: { name: string; data: number[] }[];
}

/** The three months before `now`'s (UTC), oldest first. */
export function lastThreeMonths(now: Date): string[] {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1)).toISOString().slice(0, 7);
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  return monthsBetween(start, end);
}

/** The forecast with every series laid on the categories; months a series has no value for are gaps. */
export function alignForecast(answer: ForecastAnswer | undefined, now: Date): Series {
  if (!answer || answer.categories.length === 0) return { categories: [], series: [] };
  const categories = answer.categories;
  return {
    categories,
    series: answer.series.map((s) => {
      if (s.name !== 'Actual' || s.data.length === categories.length) return { name: s.name, data: s.data };
      const months = lastThreeMonths(now).slice(-s.data.length);
      return { name: s.name, data: categories.map((c) => (months.includes(c) ? s.data[months.indexOf(c)] : null)) };
    }),
  };
}
