// The order in which a run hands its test files to the test processes. vitest's own takes the projects
// by name, and within one the files it last saw take longest first (the larger first when it has
// not seen them, as in CI). A run then ended on the `muster` program's and the browser's files, the
// longest (tens of seconds each, mostly waiting on the processes they start), while the other
// processes sat idle. Here the projects come in the order given, each project's files in vitest's
// order, and a project's files stay together, so a shared process (isolate: false) keeps taking
// the next file of its project.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer taking the named projects first, in that order, then the others by name. */
export function projectsFirst(first: string[]) {
  const rank = (spec: TestSpecification) => {
    const i = first.indexOf(spec.project.name);
    return i === -1 ? first.length : i;
  };
  return class ProjectsFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      // Array.prototype.sort is stable: each project keeps vitest's order.
      return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
    }
  };
}
