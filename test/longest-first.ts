// The order the test files start in. vitest's own order runs the projects one after another by
// name, so in a run of `once embedded embedded-own-process` the browser suites, the longest files
// of all (40-100 s each under CI's load), started last and ran on alone at the end. The longest
// start first here: the browser suites, then the `muster` program's, then the others; within a
// project vitest's order stands (failed first, then longest, or largest when it has no timings).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const isBrowserSuite = (spec: TestSpecification) => /[\\/]test[\\/]e2e[\\/]/.test(spec.moduleId);

const rank = (spec: TestSpecification) => (isBrowserSuite(spec) ? 0 : spec.project.name === 'cli' ? 1 : 2);

export class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: files of one rank keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
