// The CPU time of the PostgreSQL backends that serve one database, read from /proc/<pid>/stat: with
// the Muster process's own, the cost of a request that the load of a shared machine moves far less
// than its latency. Only where the server runs on this machine (the bench's temporary cluster, or a
// local BENCH_DATABASE_URL) and the bench may read its processes' stat files.
import pg from 'pg';
import { cpuSeconds } from './memory.ts';

/** CPU seconds used so far by each backend of the database (the reading connection's own left out). */
type Snapshot = Map<number, number>;

/**
 * A reader of the backends' CPU over a stretch of time: `start()` notes every backend's CPU, the
 * function it returns gives the seconds used since by those and by backends opened meanwhile, or
 * undefined when no backend's stat file could be read (a server on another machine).
 */
export function databaseCpu(url: string): { start: () => Promise<() => Promise<number | undefined>>; close: () => Promise<void> } {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  const snapshot = async (): Promise<Snapshot | undefined> => {
    await connected;
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    const seen: Snapshot = new Map();
    for (const { pid } of rows) {
      const seconds = cpuSeconds(pid);
      if (seconds !== undefined) seen.set(pid, seconds);
    }
    return seen.size ? seen : undefined;
  };
  return {
    async start() {
      const before = await snapshot();
      return async () => {
        const after = await snapshot();
        if (!before || !after) return undefined;
        let used = 0;
        for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
        return used;
      };
    },
    close: async () => {
      await connected.catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}
