import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openEmbedded, openPostgres, type Database } from '../db/connection.ts';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { BIN_TS, ROOT } from '../../test/cli-helpers.ts';
import { FLAKY_QUEUE, KILL_QUEUE, OUTBOX_QUEUE, SINGLE_QUEUE } from '../../test/fixtures/job-queues.ts';
import { RetryLater } from '../lib/retry-later.ts';
import { listJobs, retryJob } from './admin.ts';
import { enqueue, JobQueue, saveProgress } from './queue.ts';
import { within } from '../lib/telemetry/context.ts';
import { startTracing } from '../lib/telemetry/tracing.ts';

const jobsIn = (database: Database, name: string) => listJobs(database, { names: [name], limit: 100 });

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the job queue', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await new JobQueue(t.database, [OUTBOX_QUEUE, FLAKY_QUEUE, SINGLE_QUEUE]).install();
  });
  afterAll(() => t.cleanup());

  it('enqueues in the writing transaction: nothing for a rollback, the job for a commit', async () => {
    const db = t.database.db;
    await expect(
      db.transaction(async (tx) => {
        await enqueue(tx, OUTBOX_QUEUE.name, { n: 1 });
        await tx.execute(sql`SELECT 1`);
        throw new Error('the write fails');
      }),
    ).rejects.toThrow('the write fails');
    expect(await jobsIn(t.database, OUTBOX_QUEUE.name)).toEqual([]);
    await db.transaction(async (tx) => {
      await enqueue(tx, OUTBOX_QUEUE.name, { n: 2 });
    });
    const jobs = await jobsIn(t.database, OUTBOX_QUEUE.name);
    expect(jobs.map((j) => [j.state, j.data])).toEqual([['created', { n: 2 }]]);
  });

  it('enqueues a keyed job once, however often it is asked for', async () => {
    const a = await enqueue(t.database.db, OUTBOX_QUEUE.name, { n: 3 }, { key: 'parent-1:child' });
    const b = await enqueue(t.database.db, OUTBOX_QUEUE.name, { n: 3 }, { key: 'parent-1:child' });
    expect(a).toBe(b);
    expect((await jobsIn(t.database, OUTBOX_QUEUE.name)).filter((j) => j.id === a)).toHaveLength(1);
  });

  it('refuses a job for a queue nobody declared', async () => {
    await expect(enqueue(t.database.db, 'no-such-queue', {})).rejects.toThrow(/does not exist/);
    await expect(enqueue(t.database.db, 'no-such-queue', {}, { key: 'k' })).rejects.toThrow(/does not exist/);
  });

  it('hands the id of the request that enqueued a job to its run, and on to the jobs that run enqueues', async () => {
    // As every Muster process does at start (buildApp, the job workers): the context that carries it.
    startTracing({ serviceName: 'muster' });
    const first = await within({ requestId: 'req-4242' }, () => enqueue(t.database.db, OUTBOX_QUEUE.name, { hop: 1 }));
    expect((await jobsIn(t.database, OUTBOX_QUEUE.name)).find((j) => j.id === first)?.data).toEqual({ hop: 1, requestId: 'req-4242' });
    const seen: { hop: unknown; requestId?: string; data: object }[] = [];
    const queue = new JobQueue(t.database, [OUTBOX_QUEUE]);
    await queue.start(
      {
        [OUTBOX_QUEUE.name]: async (job) => {
          seen.push({ hop: job.data.hop, requestId: job.requestId, data: job.data });
          if (job.data.hop === 1) await enqueue(t.database.db, OUTBOX_QUEUE.name, { hop: 2 });
        },
      },
      { pollingIntervalSeconds: 0.5 },
    );
    try {
      await until('both hops to run', async () => seen.filter((s) => s.hop !== undefined).length >= 2);
      expect(seen.filter((s) => s.hop !== undefined)).toEqual([
        { hop: 1, requestId: 'req-4242', data: { hop: 1 } },
        { hop: 2, requestId: 'req-4242', data: { hop: 2 } },
      ]);
    } finally {
      await queue.stop(2_000);
    }
  });

  it('retries a failing job with backoff, keeps it failed after its last retry, and runs it again on request', async () => {
    const id = await enqueue(t.database.db, FLAKY_QUEUE.name, { fail: true });
    const attempts: number[] = [];
    let healthy = false;
    const queue = new JobQueue(t.database, [FLAKY_QUEUE]);
    await queue.start(
      {
        [FLAKY_QUEUE.name]: async (job) => {
          attempts.push(job.retryCount);
          if (!healthy) throw new Error('receiver down');
          return { sent: true };
        },
      },
      { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 },
    );
    try {
      const failed = await until('the job to fail for good', async () => (await listJobs(t.database, { failed: true })).find((j) => j.id === id));
      expect(attempts).toEqual([0, 1, 2]);
      expect(failed.retry_count).toBe(2);
      expect(JSON.stringify(failed.output)).toContain('receiver down');

      healthy = true;
      const again = await retryJob(t.database, id);
      expect(again.state).toBe('created');
      await until('the retried job to complete', async () => (await jobsIn(t.database, FLAKY_QUEUE.name)).find((j) => j.id === id && j.state === 'completed'));
      expect(attempts).toEqual([0, 1, 2, 0]);
      await expect(retryJob(t.database, id)).rejects.toThrow(/completed, not failed/);
      await expect(retryJob(t.database, 'not-a-job')).rejects.toThrow(/no job/);
    } finally {
      await queue.stop(2_000);
    }
  });

  it('waits as long as the outside system asked before the next attempt (Retry-After), counting it as a retry', async () => {
    const id = await enqueue(t.database.db, FLAKY_QUEUE.name, { limited: true });
    const attempts: { retryCount: number; at: number }[] = [];
    const queue = new JobQueue(t.database, [FLAKY_QUEUE]);
    await queue.start(
      {
        [FLAKY_QUEUE.name]: async (job) => {
          attempts.push({ retryCount: job.retryCount, at: Date.now() });
          if (attempts.length === 1) throw new RetryLater(3, 'ratelimited');
          return { sent: true };
        },
      },
      { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 },
    );
    try {
      await until('the job to complete', async () => (await jobsIn(t.database, FLAKY_QUEUE.name)).find((j) => j.id === id && j.state === 'completed'));
      expect(attempts.map((a) => a.retryCount)).toEqual([0, 1]);
      // The queue's own back-off would have retried after 1 s; the system asked for 3.
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(2_900);
    } finally {
      await queue.stop(2_000);
    }
  });
});

describe('a singleton queue', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await new JobQueue(t.database, [SINGLE_QUEUE]).install();
  });
  afterAll(() => t.cleanup());

  it('runs the jobs of one key one at a time, in order, while other keys run beside them', async () => {
    for (const n of [1, 2, 3]) await enqueue(t.database.db, SINGLE_QUEUE.name, { key: 'a', n }, { singletonKey: 'a' });
    await enqueue(t.database.db, SINGLE_QUEUE.name, { key: 'b', n: 1 }, { singletonKey: 'b' });
    const running = new Map<string, number>();
    const overlaps: string[] = [];
    const order: string[] = [];
    const queue = new JobQueue(t.database, [SINGLE_QUEUE]);
    await queue.start(
      {
        [SINGLE_QUEUE.name]: async (job) => {
          const { key, n } = job.data as { key: string; n: number };
          if (running.get(key)) overlaps.push(`${key}${n}`);
          running.set(key, (running.get(key) ?? 0) + 1);
          order.push(`${key}${n}`);
          await new Promise((r) => setTimeout(r, 300));
          running.set(key, running.get(key)! - 1);
        },
      },
      { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, concurrency: 3 },
    );
    try {
      await until('every job to complete', async () => (await jobsIn(t.database, SINGLE_QUEUE.name)).every((j) => j.state === 'completed'));
      expect(overlaps).toEqual([]);
      expect(order.filter((x) => x.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
      expect(order).toContain('b1');
    } finally {
      await queue.stop(2_000);
    }
  });

  it('runs the jobs of one key in the order one transaction enqueued them, though they share its time', async () => {
    const sent = Array.from({ length: 30 }, (_, n) => n);
    await t.database.db.transaction(async (tx) => {
      for (const n of sent) await enqueue(tx, SINGLE_QUEUE.name, { key: 'o', n }, { singletonKey: 'o' });
    });
    const order: number[] = [];
    const queue = new JobQueue(t.database, [SINGLE_QUEUE]);
    await queue.start(
      {
        [SINGLE_QUEUE.name]: async (job) => {
          const { key, n } = job.data as { key: string; n: number };
          if (key === 'o') order.push(n);
        },
      },
      { pollingIntervalSeconds: 0.5, concurrency: 3 },
    );
    try {
      await until('every job to complete', async () => (await jobsIn(t.database, SINGLE_QUEUE.name)).every((j) => j.state === 'completed'));
      expect(order).toEqual(sent);
    } finally {
      await queue.stop(2_000);
    }
  });

  // On a server only: the test holds a row lock from a second connection, which the embedded
  // database (one connection, one transaction at a time) cannot.
  it.skipIf(!process.env.DATABASE_URL)('runs a younger job of a key after an older one that another fetch held', async () => {
    const older = await enqueue(t.database.db, SINGLE_QUEUE.name, { key: 'c', n: 1 }, { singletonKey: 'c' });
    const younger = await enqueue(t.database.db, SINGLE_QUEUE.name, { key: 'c', n: 2 }, { singletonKey: 'c' });
    // The row's version (xmin) changes with every write of it: fetched, put back, completed.
    const row = async () =>
      (
        await t.database.query<{ version: string; state: string }>('SELECT xmin::text AS version, state::text AS state FROM pgboss.job WHERE id = $1', [
          younger,
        ])
      )[0];
    const untouched = (await row()).version;
    // As a second worker's fetch does for the moment it runs: the older job's row locked, so this
    // worker's fetch skips it and takes the younger one.
    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    const order: string[] = [];
    const queue = new JobQueue(t.database, [SINGLE_QUEUE]);
    try {
      await other.query('BEGIN');
      await other.query('SELECT id FROM pgboss.job WHERE name = $1 AND id = $2 FOR UPDATE', [SINGLE_QUEUE.name, older]);
      await queue.start(
        {
          [SINGLE_QUEUE.name]: async (job) => {
            const { key, n } = job.data as { key: string; n: number };
            order.push(`${key}${n}`);
          },
        },
        { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, concurrency: 1 },
      );
      // The younger job is fetched while the older one is held: put back (or, were it not, run).
      await until('the younger job to be fetched', async () => {
        const { version, state } = await row();
        return version !== untouched && state !== 'active';
      });
      await other.query('COMMIT');
      await until(
        'both jobs to complete',
        async () => (await jobsIn(t.database, SINGLE_QUEUE.name)).filter((j) => (j.id === older || j.id === younger) && j.state === 'completed').length === 2,
      );
      expect(order).toEqual(['c1', 'c2']);
      // Put back, the younger job's first run is still its first attempt.
      expect((await jobsIn(t.database, SINGLE_QUEUE.name)).filter((j) => j.id === older || j.id === younger).map((j) => j.retry_count)).toEqual([0, 0]);
    } finally {
      await other.end();
      await queue.stop(2_000);
    }
  });

  // On a server only, as above: the table is held from a second connection.
  it.skipIf(!process.env.DATABASE_URL)('stops only once the job a fetch under way returns has run', async () => {
    const id = await enqueue(t.database.db, SINGLE_QUEUE.name, { n: 1 }, { singletonKey: 'f' });
    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    const ran: string[] = [];
    const queue = new JobQueue(t.database, [SINGLE_QUEUE]);
    try {
      // The workers' fetch (an UPDATE of the job's row) waits for the table while stop begins.
      await other.query('BEGIN');
      await other.query('LOCK TABLE pgboss.job IN EXCLUSIVE MODE');
      await queue.start({ [SINGLE_QUEUE.name]: async (job) => void ran.push(job.id) }, { pollingIntervalSeconds: 0.5, concurrency: 1 });
      // Asked for by the lock it waits on: a fetch not yet prepared on its connection waits while being
      // parsed, when pg_stat_activity still shows that connection's previous statement.
      await until(
        'a fetch to wait for the table',
        async () => (await other.query(`SELECT 1 FROM pg_locks WHERE relation = 'pgboss.job'::regclass AND NOT granted`)).rows.length > 0,
      );
      const stopped = queue.stop(30_000);
      await new Promise((r) => setTimeout(r, 500));
      await other.query('COMMIT');
      await stopped;
      expect(ran).toEqual([id]);
      expect((await jobsIn(t.database, SINGLE_QUEUE.name)).find((j) => j.id === id)?.state).toBe('completed');
    } finally {
      await other.query('ROLLBACK').catch(() => {});
      await other.end();
      await queue.stop(2_000);
    }
  });

  it("gives a retried job back the progress it saved, and not another job's", async () => {
    const id = await enqueue(t.database.db, SINGLE_QUEUE.name, { step: 0 }, { singletonKey: 'p' });
    const other = await enqueue(t.database.db, SINGLE_QUEUE.name, { step: 0 }, { singletonKey: 'q' });
    const seen: unknown[] = [];
    const queue = new JobQueue(t.database, [SINGLE_QUEUE]);
    await queue.start(
      {
        [SINGLE_QUEUE.name]: async (job) => {
          if (job.id !== id) return;
          seen.push(job.data);
          if (job.retryCount > 0) return;
          await t.database.db.transaction((tx) => saveProgress(tx, job, { posted: 'ts-1' }));
          throw new Error('the next step failed');
        },
      },
      { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 },
    );
    try {
      await until('the job to complete', async () => (await jobsIn(t.database, SINGLE_QUEUE.name)).find((j) => j.id === id && j.state === 'completed'));
      expect(seen).toEqual([{ step: 0 }, { step: 0, posted: 'ts-1' }]);
      expect((await jobsIn(t.database, SINGLE_QUEUE.name)).find((j) => j.id === other)?.data).toEqual({ step: 0 });
    } finally {
      await queue.stop(2_000);
    }
  });
});

describe('a worker killed mid-job', () => {
  const url = process.env.DATABASE_URL;
  let dir: string;
  let target: string;
  let cleanup: () => Promise<void> = async () => {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'muster-jobs-'));
    if (url) {
      const name = `muster_kill_${process.pid}`;
      const admin = await openPostgres(url, 1);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      const u = new URL(url);
      u.pathname = `/${name}`;
      target = u.toString();
      cleanup = async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      };
    } else {
      target = join(dir, 'data');
    }
  });
  afterAll(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing: the job runs again in another process and completes', async () => {
    const child = spawn(process.execPath, [BIN_TS, join(ROOT, 'test/fixtures/job-worker.ts'), target], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const started = await until('the child to start the job', async () => /started (\S+)/.exec(out)?.[1], 100_000);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const database = url ? await openPostgres(target, 2) : await openEmbedded(target);
    const runs: { id: string; retryCount: number }[] = [];
    const queue = new JobQueue(database, [KILL_QUEUE]);
    await queue.start(
      {
        [KILL_QUEUE.name]: async (job) => {
          runs.push({ id: job.id, retryCount: job.retryCount });
        },
      },
      { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 },
    );
    try {
      const done = await until('the job to complete after the kill', async () =>
        (await jobsIn(database, KILL_QUEUE.name)).find((j) => j.id === started && j.state === 'completed'),
      );
      expect(done.data).toEqual({ note: 'survives a kill' });
      // Run once here, as a retry. On a busy machine the child may outlive the job's 2 s run time
      // before the kill lands, and retry the job itself first: then this run is its second retry.
      expect(runs).toHaveLength(1);
      expect(runs[0].id).toBe(started);
      expect(runs[0].retryCount).toBeGreaterThanOrEqual(1);
    } finally {
      await queue.stop(2_000);
      await database.close();
    }
    // Its waits (the child opening a fresh database and starting the job, up to 100 s, then the
    // retry) can outlast the default limit on a busy machine.
  }, 150_000);
});
