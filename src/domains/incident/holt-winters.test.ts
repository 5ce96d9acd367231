import { describe, expect, it } from 'vitest';
import { fitHoltWinters, fitWith, forecast, initialState } from './holt-winters.ts';
import { forecastFromCounts, monthLabel, toCount } from './forecast.ts';

const range = (n: number) => Array.from({ length: n }, (_, t) => t);
const pattern = [5, 3, 8, 1, 0, 2, 7, 4, 6, 9, 2, 3];

describe('Holt-Winters, additive trend and season', () => {
  it('starts from the first two seasons: a line through their means and the deviations from it', () => {
    // Period 2: season means 2 and 4, so the trend is 1 per step and the line 1.5, 2.5, 3.5, 4.5;
    // deviations (-0.5, 0.5) then (-1.5, 1.5) average to season indices -1 and 1; level at t = -1 is 0.5.
    expect(initialState([1, 3, 2, 6], 2)).toEqual({ level: 0.5, trend: 1, season: [-1, 1] });
  });

  it('follows the recursions step by step (computed by hand, α = β = γ = 0.5, period 2)', () => {
    const fit = fitWith([1, 3, 2, 6], { alpha: 0.5, beta: 0.5, gamma: 0.5 }, 2);
    // Errors 0.5, -0.875, -0.59375, 1.6328125.
    expect(fit.sse).toBeCloseTo(0.25 + 0.765625 + 0.3525390625 + 2.66607666015625, 12);
    expect(fit.level).toBeCloseTo(4.62109375, 12);
    expect(fit.trend).toBeCloseTo(1.166015625, 12);
    expect(fit.season[0]).toBeCloseTo(-1.046875, 12);
    expect(fit.season[1]).toBeCloseTo(1.37890625, 12);
    const [h1, h2] = forecast(fit, 2);
    expect(h1).toBeCloseTo(4.62109375 + 1.166015625 - 1.046875, 12);
    expect(h2).toBeCloseTo(4.62109375 + 2 * 1.166015625 + 1.37890625, 12);
  });

  it('continues a straight line exactly', () => {
    const fit = fitHoltWinters(range(24).map((t) => 10 + 2 * t))!;
    expect(fit.sse).toBeCloseTo(0, 9);
    expect(forecast(fit, 12).map(toCount)).toEqual(range(12).map((h) => 10 + 2 * (24 + h)));
  });

  it('repeats a seasonal pattern exactly', () => {
    const fit = fitHoltWinters([...pattern, ...pattern, ...pattern])!;
    expect(fit.sse).toBeCloseTo(0, 9);
    expect(forecast(fit, 12).map(toCount)).toEqual(pattern);
  });

  it('continues a line plus a pattern, starting mid-season', () => {
    const y = (t: number) => 20 + t + pattern[t % 12];
    const fit = fitHoltWinters(range(30).map(y))!;
    expect(forecast(fit, 12).map(toCount)).toEqual(range(12).map((h) => y(30 + h)));
  });

  it('needs two full seasons', () => {
    expect(fitHoltWinters(range(23))).toBeNull();
    expect(fitHoltWinters(range(24))).not.toBeNull();
  });

  it('chooses smoothing by least squares: a level shift is followed, not averaged away', () => {
    // Flat at 10 for two years, then 20 for a year: a fit that follows the new level beats one that ignores it.
    const y = [...Array(24).fill(10), ...Array(12).fill(20)];
    const fit = fitHoltWinters(y)!;
    const frozen = fitWith(y, { alpha: 0, beta: 0, gamma: 0 });
    expect(fit.sse).toBeLessThan(frozen.sse);
    expect(fit.alpha).toBeGreaterThan(0);
    expect(forecast(fit, 1)[0]).toBeGreaterThan(15);
  });
});

describe('forecast from monthly counts', () => {
  const counts = (from: [number, number], values: number[]) =>
    new Map(values.map((n, i) => [monthLabel(from[0] * 12 + from[1] - 1 + i), n] as [string, number]));
  const now = new Date('2024-06-15T12:00:00Z');

  it('gives 15 months: one forecast for each of the last three months, then twelve ahead, with the actuals', () => {
    // 10 + t incidents in month t from 2022-01 (t = 0) to 2024-05 (t = 28).
    const res = forecastFromCounts(
      counts(
        [2022, 1],
        range(29).map((t) => 10 + t),
      ),
      now,
    );
    expect(res.categories).toEqual([
      '2024-03',
      '2024-04',
      '2024-05',
      '2024-06',
      '2024-07',
      '2024-08',
      '2024-09',
      '2024-10',
      '2024-11',
      '2024-12',
      '2025-01',
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
    ]);
    // The window ending 2024-02 (t = 25) forecasts 2024-03 as 36, and so on.
    expect(res.series).toEqual([
      { name: 'Predicted', data: range(15).map((i) => 36 + i) },
      { name: 'Actual', data: [36, 37, 38] },
    ]);
  });

  it('leaves out the windows with less than 24 months of history', () => {
    // From 2022-06: 21, 22, 23 and 24 months up to 2024-02, -03, -04, -05; only the last window fits.
    const res = forecastFromCounts(counts([2022, 6], Array(24).fill(4)), now);
    expect(res.categories).toEqual(range(12).map((h) => monthLabel(2024 * 12 + 5 + h)));
    expect(res.series[0].data).toEqual(Array(12).fill(4));
    expect(res.series[1].data).toEqual([4, 4, 4]);
  });

  it('answers the empty form without two seasons of history', () => {
    const empty = {
      categories: [],
      series: [
        { name: 'Predicted', data: [] },
        { name: 'Actual', data: [] },
      ],
    };
    expect(forecastFromCounts(counts([2022, 7], Array(23).fill(4)), now)).toEqual(empty);
    expect(forecastFromCounts(new Map(), now)).toEqual(empty);
  });

  it('fills months without incidents with 0, up to the end of each window', () => {
    // A pattern of two years ending 2023-12, then nothing: 2024-01..05 count 0.
    const res = forecastFromCounts(counts([2022, 1], [...pattern, ...pattern]), now);
    expect(res.categories[0]).toBe('2024-03');
    expect(res.categories).toHaveLength(15);
    expect(res.series[1].data).toEqual([0, 0, 0]);
  });

  it('never predicts fewer than 0 incidents', () => {
    // 30, 29, ..., 2 from 2022-01 to 2024-05: the line goes through 0 and below.
    const res = forecastFromCounts(
      counts(
        [2022, 1],
        range(29).map((t) => 30 - t),
      ),
      now,
    );
    expect(res.series[0].data).toEqual([4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('rounds forecasts up to whole incidents, ignoring float noise', () => {
    expect([toCount(3.2), toCount(3.0000000000004), toCount(-2.5), toCount(0.0000001)]).toEqual([4, 3, 0, 0]);
  });
});
