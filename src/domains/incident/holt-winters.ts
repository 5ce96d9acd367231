// Holt-Winters exponential smoothing with additive trend and additive seasonality, for the
// incident forecast (forecast.ts). Written out here rather than taken from a statistics package:
// the model is a dozen lines, and its behaviour must be fixed and testable by hand.
//
// The model (error-correction form, as statsmodels writes it), for observations y[0..n):
//   forecast  ŷ[t] = l + b + s[t mod m]
//   level     l'   = α (y[t] - s[t mod m]) + (1 - α)(l + b)
//   trend     b'   = β (l' - l) + (1 - β) b
//   season    s'   = γ (y[t] - l - b) + (1 - γ) s[t mod m]
// and h steps past the end: l + h b + s[(n + h - 1) mod m].
//
// Start values come from the first two seasons (hence at least 2m observations): the trend is the
// change of the seasons' means per step, a straight line through both means is the start level,
// and each season index is the mean deviation from that line at its position. A series that is
// exactly a line plus a repeating pattern therefore starts with the exact line and pattern, fits
// without error whatever the smoothing parameters, and forecasts by continuing both: that is what
// makes the forecast checkable by hand.
//
// Fitting: the smoothing parameters minimise the sum of squared one-step errors (statsmodels'
// objective) by a grid search, first in steps of 0.05, then in steps of 0.01 around the best point,
// within the usual admissible region 0 ≤ α ≤ 1, 0 ≤ β ≤ α, 0 ≤ γ ≤ 1 - α. A grid rather than a
// numerical optimiser because it is deterministic (the same history always gives the same
// forecast, on any machine), needs no dependency, and costs a few thousand passes over a few
// hundred months at most; forecasts are rounded up to whole incidents, so a finer optimum would not
// change the answer in practice.

export interface HoltWintersParams {
  alpha: number;
  beta: number;
  gamma: number;
}

export interface HoltWintersFit extends HoltWintersParams {
  /** Sum of squared one-step errors over the history. */
  sse: number;
  period: number;
  length: number;
  level: number;
  trend: number;
  /** Season indices by position: `season[t mod period]`. */
  season: number[];
}

interface State {
  level: number;
  trend: number;
  season: number[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Start values from the first two seasons (see the header). */
export function initialState(y: number[], m: number): State {
  const first = mean(y.slice(0, m));
  const second = mean(y.slice(m, 2 * m));
  const trend = (second - first) / m;
  const line = (t: number) => first + trend * (t - (m - 1) / 2);
  const season = Array.from({ length: m }, (_, i) => (y[i] - line(i) + (y[i + m] - line(i + m))) / 2);
  return { level: line(-1), trend, season };
}

/** One pass over the history: the end state and the sum of squared one-step errors. */
function run(y: number[], m: number, start: State, { alpha, beta, gamma }: HoltWintersParams) {
  let { level, trend } = start;
  const season = [...start.season];
  let sse = 0;
  for (let t = 0; t < y.length; t++) {
    const s = season[t % m];
    const error = y[t] - (level + trend + s);
    sse += error * error;
    const previous = level + trend;
    const nextLevel = alpha * (y[t] - s) + (1 - alpha) * previous;
    trend = beta * (nextLevel - level) + (1 - beta) * trend;
    season[t % m] = gamma * (y[t] - previous) + (1 - gamma) * s;
    level = nextLevel;
  }
  return { sse, level, trend, season };
}

const steps = (from: number, to: number, step: number) => {
  const out: number[] = [];
  // Integer counting keeps the grid exact (0.05 * k, not repeated additions).
  for (let k = Math.ceil(from / step - 1e-9); k * step <= to + 1e-9; k++) out.push(Math.round(k * step * 1e6) / 1e6);
  return out;
};

/** Fits with the given smoothing parameters. */
export function fitWith(y: number[], params: HoltWintersParams, period = 12): HoltWintersFit {
  const end = run(y, period, initialState(y, period), params);
  return { ...params, ...end, period, length: y.length };
}

/**
 * The best fit of the series by grid search (see the header), or null when the series is shorter
 * than two seasons. Among equally good parameters the smallest (in α, β, γ order) wins.
 */
export function fitHoltWinters(y: number[], period = 12): HoltWintersFit | null {
  if (y.length < 2 * period) return null;
  const start = initialState(y, period);
  const best = { alpha: 0, beta: 0, gamma: 0, sse: Infinity };
  const search = (alphas: number[], near?: HoltWintersParams, radius = 0) => {
    for (const alpha of alphas) {
      const betas = steps(near ? Math.max(0, near.beta - radius) : 0, near ? Math.min(alpha, near.beta + radius) : alpha, near ? 0.01 : 0.05);
      const gammas = steps(near ? Math.max(0, near.gamma - radius) : 0, near ? Math.min(1 - alpha, near.gamma + radius) : 1 - alpha, near ? 0.01 : 0.05);
      for (const beta of betas) {
        for (const gamma of gammas) {
          const { sse } = run(y, period, start, { alpha, beta, gamma });
          // Relative tolerance: float noise must not decide between equally good fits.
          const tolerance = Number.isFinite(best.sse) ? 1e-9 * Math.max(1, best.sse) : 0;
          if (sse < best.sse - tolerance) Object.assign(best, { alpha, beta, gamma, sse });
        }
      }
    }
  };
  search(steps(0, 1, 0.05));
  const coarse: HoltWintersParams = { ...best };
  search(steps(Math.max(0, coarse.alpha - 0.05), Math.min(1, coarse.alpha + 0.05), 0.01), coarse, 0.05);
  return fitWith(y, { alpha: best.alpha, beta: best.beta, gamma: best.gamma }, period);
}

/** The next `horizon` values after the history. */
export function forecast(fit: HoltWintersFit, horizon: number): number[] {
  return Array.from({ length: horizon }, (_, i) => {
    const h = i + 1;
    return fit.level + h * fit.trend + fit.season[(fit.length + h - 1) % fit.period];
  });
}
