// Every suite, in the order they run; BENCH_SUITE=all leaves out those with `inAll: false`. A new suite: a file here exporting a Suite
// (see ../lib/suite.ts), added to this list.
import type { Suite } from '../lib/suite.ts';
import { casesSuite } from './cases.ts';
import { foundationSuite } from './foundation.ts';
import { incidentsSuite } from './incidents.ts';
import { memorySuite } from './memory.ts';
import { recordsSuite } from './records.ts';
import { searchSuite } from './search.ts';
import { signalsSuite } from './signals.ts';

export const SUITES: Suite[] = [foundationSuite, recordsSuite, incidentsSuite, casesSuite, searchSuite, signalsSuite, memorySuite];

/** `all`, or one suite's name. */
export function selectSuites(name: string): Suite[] {
  if (name === 'all') return SUITES.filter((s) => s.inAll !== false);
  const suite = SUITES.find((s) => s.name === name);
  if (!suite) throw new Error(`BENCH_SUITE must be one of ${[...SUITES.map((s) => s.name), 'all'].join(', ')}, got "${name}"`);
  return [suite];
}
