// A small network of Linux network namespaces on one machine, for the failover test: a bridge in the
// root namespace, one namespace per host (each with its own address on the bridge), and a service
// address that a host holds and that can move to another (what keepalived's VIP or a Kubernetes
// Service gives clients: one stable address for "the primary"). PostgreSQL runs inside two of the
// hosts as a primary and a synchronous streaming replica. Needs root, `ip` and PostgreSQL's server
// binaries.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'pipe' }).toString();
const inNs = (ns: string, cmd: string, args: string[]) => sh('ip', ['netns', 'exec', ns, cmd, ...args]);

/** Whether this machine can build the network: root, iproute2 and PostgreSQL's binaries. */
export function canBuildNetwork(): boolean {
  if (process.getuid?.() !== 0 || !PG_BIN) return false;
  try {
    sh('ip', ['netns', 'list']);
    return true;
  } catch {
    return false;
  }
}

const PG_BIN = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const v = readdirSync(root)
    .filter((d) => existsSync(join(root, d, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return v ? join(root, v, 'bin') : undefined;
})();

export interface Network {
  /** The address of a host on the bridge. */
  address(host: string): string;
  /** The service address, held by one host at a time. */
  serviceAddress: string;
  /** Gives the service address to `host`, taking it from whoever held it; clients forget the old hardware address (a gratuitous ARP's effect). */
  moveServiceAddress(host: string): void;
  /** Runs a program inside a host's namespace. */
  spawn(host: string, cmd: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string }): ChildProcess;
  run(host: string, cmd: string, args: string[]): string;
  destroy(): void;
}

/** The namespaces `prefix-<host>` for `hosts`, on a /24 `subnet` (its first three octets). */
export function createNetwork(prefix: string, subnet: string, hosts: string[]): Network {
  const bridge = `${prefix}-br`;
  const ns = (host: string) => `${prefix}-${host}`;
  const address = (host: string) => `${subnet}.${11 + hosts.indexOf(host)}`;
  const serviceAddress = `${subnet}.10`;
  const destroy = () => {
    for (const host of hosts) {
      try {
        sh('ip', ['netns', 'del', ns(host)]);
      } catch {
        /* not made */
      }
    }
    try {
      sh('ip', ['link', 'del', bridge]);
    } catch {
      /* not made */
    }
  };
  destroy();
  sh('ip', ['link', 'add', bridge, 'type', 'bridge']);
  sh('ip', ['addr', 'add', `${subnet}.1/24`, 'dev', bridge]);
  sh('ip', ['link', 'set', bridge, 'up']);
  hosts.forEach((host, i) => {
    const outside = `${prefix}-v${i}`;
    sh('ip', ['netns', 'add', ns(host)]);
    sh('ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns(host)]);
    sh('ip', ['link', 'set', outside, 'master', bridge, 'up']);
    inNs(ns(host), 'ip', ['link', 'set', 'lo', 'up']);
    inNs(ns(host), 'ip', ['addr', 'add', `${address(host)}/24`, 'dev', 'eth0']);
    inNs(ns(host), 'ip', ['link', 'set', 'eth0', 'up']);
  });
  return {
    address,
    serviceAddress,
    moveServiceAddress(to) {
      for (const host of hosts) {
        if (host === to) continue;
        try {
          inNs(ns(host), 'ip', ['addr', 'del', `${serviceAddress}/32`, 'dev', 'eth0']);
        } catch {
          /* not held there */
        }
      }
      inNs(ns(to), 'ip', ['addr', 'add', `${serviceAddress}/32`, 'dev', 'eth0']);
      for (const host of hosts) inNs(ns(host), 'ip', ['neigh', 'flush', 'all']);
      sh('ip', ['neigh', 'flush', 'dev', bridge]);
    },
    spawn: (host, cmd, args, opts) => spawn('ip', ['netns', 'exec', ns(host), cmd, ...args], { ...opts, stdio: ['ignore', 'pipe', 'pipe'] }),
    run: (host, cmd, args) => inNs(ns(host), cmd, args),
    destroy,
  };
}

export interface PgNode {
  host: string;
  data: string;
  start(): void;
  /** Ends the server as a crash does (SIGQUIT to every process: no checkpoint, sessions dropped). */
  crash(): void;
  promote(): void;
  /** Runs one SQL statement through psql inside the host and returns its unaligned output. */
  psql(sql: string): string;
}

export interface ReplicatedPair {
  primary: PgNode;
  replica: PgNode;
  port: number;
  destroy(): void;
}

/**
 * A primary on `primaryHost` and a streaming replica of it on `replicaHost`, both listening on `port`
 * in their namespaces. `synchronous` makes every commit wait for the replica to have flushed it
 * (synchronous_commit=on with synchronous_standby_names='*'): what the primary acknowledged is on the
 * replica when the primary dies.
 */
export function createReplicatedPair(net: Network, primaryHost: string, replicaHost: string, port: number, synchronous = true): ReplicatedPair {
  if (!PG_BIN) throw new Error('no PostgreSQL server binaries');
  const dir = mkdtempSync(join(tmpdir(), 'muster-failover-'));
  const uid = Number(sh('id', ['-u', 'postgres']).trim());
  const gid = Number(sh('id', ['-g', 'postgres']).trim());
  chownSync(dir, uid, gid);
  // Each server's own socket directory: the two share a file system and a port number.
  const sockets = (host: string) => join(dir, `${host}-sockets`);
  const asPg = (host: string, cmd: string, args: string[]) => net.run(host, 'runuser', ['-u', 'postgres', '--', join(PG_BIN, cmd), ...args]);
  const node = (host: string, data: string): PgNode => ({
    host,
    data,
    start: () => {
      asPg(host, 'pg_ctl', ['-D', data, '-l', join(dir, `${host}.log`), '-w', '-t', '60', 'start']);
    },
    crash: () => {
      asPg(host, 'pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    },
    promote: () => {
      asPg(host, 'pg_ctl', ['-D', data, '-w', 'promote']);
    },
    psql: (sql) => asPg(host, 'psql', ['-h', sockets(host), '-p', String(port), '-U', 'postgres', '-At', '-c', sql]).trim(),
  });

  const primaryData = join(dir, 'primary');
  asPg(primaryHost, 'initdb', ['-D', primaryData, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const subnet = net.address(primaryHost).split('.').slice(0, 3).join('.');
  writeFileSync(join(primaryData, 'pg_hba.conf'), `local all all trust\nhost all all ${subnet}.0/24 trust\nhost replication all ${subnet}.0/24 trust\n`);
  const settings = [
    `port = ${port}`,
    "listen_addresses = '*'",
    'wal_level = replica',
    'max_wal_senders = 5',
    'hot_standby = on',
    `synchronous_standby_names = '${synchronous ? '*' : ''}'`,
    'synchronous_commit = on',
    'max_connections = 200',
  ];
  writeFileSync(join(primaryData, 'postgresql.auto.conf'), `${settings.join('\n')}\nunix_socket_directories = '${sockets(primaryHost)}'\n`);
  for (const host of [primaryHost, replicaHost]) mkdirSync(sockets(host));
  execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const primary = node(primaryHost, primaryData);
  primary.start();

  const replicaData = join(dir, 'replica');
  asPg(replicaHost, 'pg_basebackup', ['-h', net.address(primaryHost), '-p', String(port), '-U', 'postgres', '-D', replicaData, '-R', '-X', 'stream']);
  // The replica, once promoted, has no standby of its own: it must not wait for one.
  appendFileSync(join(replicaData, 'postgresql.auto.conf'), `synchronous_standby_names = ''\nunix_socket_directories = '${sockets(replicaHost)}'\n`);
  const replica = node(replicaHost, replicaData);
  replica.start();

  return {
    primary,
    replica,
    port,
    destroy() {
      for (const n of [primary, replica]) {
        try {
          n.crash();
        } catch {
          /* not running */
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
