// A throw-away PostgreSQL server of the tests' own, to stop and start under a running Muster (an
// outage). It needs PostgreSQL's server binaries and, when the tests run as root, the `postgres`
// user to run them as.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

const BIN = binDir();
const asRoot = process.getuid?.() === 0;
/** Whether this machine can run a throw-away cluster. */
export const CAN_RUN_CLUSTER = !!BIN && (!asRoot || existsSync('/usr/sbin/runuser'));

export interface Cluster {
  url: string;
  port: number;
  start(): void;
  /** `fast` ends sessions with 57P01 (admin shutdown); `immediate` drops them like a crash. */
  stop(mode?: 'fast' | 'immediate'): void;
  destroy(): void;
}

function run(cmd: string, args: string[]) {
  const argv = asRoot ? ['-u', 'postgres', '--', cmd, ...args] : args;
  execFileSync(asRoot ? 'runuser' : cmd, argv, { stdio: 'pipe' });
}

export function createCluster(port: number): Cluster {
  if (!BIN) throw new Error('no PostgreSQL server binaries');
  const dir = mkdtempSync(join(tmpdir(), 'muster-pg-'));
  if (asRoot)
    chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  const data = join(dir, 'data');
  run(join(BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const cluster: Cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => run(join(BIN, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']),
    stop: (mode = 'fast') => run(join(BIN, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']),
    destroy() {
      try {
        cluster.stop('immediate');
      } catch {
        /* not running */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
