// A vitest pool whose test processes run on another node binary than vitest's own: CI runs some
// projects on the newest supported runtime (Node 26) and the rest on the machine's node, in one
// run whose test processes all share one limit (maxWorkers) and one queue, so that neither runtime's
// share waits for the other's. The processes speak to vitest over IPC in V8's serialization, which
// reads the same across these versions. A test's children (`muster`, a fixture) start with
// process.execPath, and find the same node first on the PATH.
import { execFileSync, fork } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { ForksPoolWorker, type PoolOptions, type PoolRunnerInitializer } from 'vitest/node';

/** The major version of the node at `path`. */
function nodeMajor(path: string): number {
  return Number(execFileSync(path, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim());
}

class RuntimeWorker extends ForksPoolWorker {
  // vitest gives a process of a project's shared runner the next file only when the names match.
  override readonly name: string;

  constructor(
    options: PoolOptions,
    name: string,
    private readonly node: string,
  ) {
    super(options);
    this.name = name;
  }

  override async start() {
    // ForksPoolWorker.start keeps a process already forked, and wires its output.
    const self = this as unknown as { _fork?: ReturnType<typeof fork> };
    self._fork ??= fork(this.entrypoint, [], {
      execPath: this.node,
      env: { ...this.env, PATH: `${dirname(this.node)}${delimiter}${this.env.PATH ?? ''}` },
      execArgv: this.execArgv,
      stdio: 'pipe',
      serialization: 'advanced',
    });
    await super.start();
  }
}

/** A pool like vitest's `forks`, its processes run by the node at `node`, and that node's major version. */
export function runtimePool(node: string): { pool: PoolRunnerInitializer; major: number } {
  const major = nodeMajor(node);
  const name = `forks-node${major}`;
  return { pool: { name, createPoolWorker: (options) => new RuntimeWorker(options, name, node) }, major };
}
