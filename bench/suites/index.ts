// Every suite, in the order BENCH_SUITE=all runs them. A new suite: a file here exporting a Suite
// (see ../lib/suite.ts), added to this list.
import type { Suite } from '../lib/suite.ts';
import { foundationSuite } from './foundation.ts';
import { recordsSuite } from './records.ts';

export const SUITES: Suite[] = [foundationSuite, recordsSuite];

/** `all`, or one suite's name. */
export function selectSuites(name: string): Suite[] {
  if (name === 'all') return SUITES;
  const suite = SUITES.find((s) => s.name === name);
  if (!suite) throw new Error(`BENCH_SUITE must be one of ${[...SUITES.map((s) => s.name), 'all'].join(', ')}, got "${name}"`);
  return [suite];
}
