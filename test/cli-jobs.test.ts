// `muster jobs list|retry` and the job workers of `muster server start`, as child processes on an
// embedded data directory: a job fails for good in-process, the CLI lists it and sends it round again.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded } from '../src/db/connection.ts';
import { listJobs } from '../src/jobs/admin.ts';
import { enqueue, JobQueue } from '../src/jobs/queue.ts';
import { embeddedTarget, http, muster, musterOk, startServer, stopAllServers, tempDir, type Target } from './cli-helpers.ts';
import { FLAKY_QUEUE } from './fixtures/job-queues.ts';

let cwd: string;
let target: Target;
beforeAll(() => {
  cwd = tempDir();
  target = embeddedTarget({ migrated: true });
});
afterAll(async () => {
  await stopAllServers();
  await target.cleanup();
  rmSync(cwd, { recursive: true, force: true });
});

/** Makes a job of the test queue fail after its last retry; returns its id. */
async function failedJob(dataDir: string): Promise<string> {
  const database = await openEmbedded(dataDir);
  const queue = new JobQueue(database, [FLAKY_QUEUE]);
  try {
    await queue.install();
    const id = await enqueue(database.db, FLAKY_QUEUE.name, { to: 'receiver' });
    await queue.start({ [FLAKY_QUEUE.name]: async () => Promise.reject(new Error('receiver down')) }, { pollingIntervalSeconds: 0.5 });
    for (let i = 0; i < 100; i++) {
      if ((await listJobs(database, { failed: true })).some((j) => j.id === id)) return id;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the job did not fail');
  } finally {
    await queue.stop(1_000);
    await database.close();
  }
}

describe('muster jobs', { timeout: 120_000 }, () => {
  it('lists failed jobs with their last error, and retries one by id', async () => {
    const empty = await musterOk(['jobs', 'list', '--failed'], { cwd, env: target.env });
    expect(empty.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['Id', 'Queue', 'State', 'Attempts', 'Created', 'Finished', 'Last error']);

    const id = await failedJob(target.env.MUSTER_DATA_DIR);
    const listed = await musterOk(['jobs', 'list', '--failed'], { cwd, env: target.env });
    const row = listed.stdout.split('\n').find((l) => l.startsWith(id));
    expect(row).toBeDefined();
    expect(row!.split(/\s{2,}/).slice(1, 4)).toEqual(['test-flaky', 'failed', '3/3']);
    expect(row).toContain('receiver down');

    const json = await musterOk(['jobs', 'list', '--queue', 'test-flaky', '--json'], { cwd, env: target.env });
    expect(JSON.parse(json.stdout.trim().split('\n')[0])).toMatchObject({ id, name: 'test-flaky', state: 'failed', data: { to: 'receiver' } });

    const retried = await musterOk(['jobs', 'retry', id], { cwd, env: target.env });
    expect(retried.stdout).toContain(`Job ${id} (test-flaky) will run again`);
    const again = await muster(['jobs', 'retry', id], { cwd, env: target.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is created, not failed');
    const unknown = await muster(['jobs', 'retry', '00000000-0000-0000-0000-000000000000'], { cwd, env: target.env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no job with id');
  });

  it('server start runs the job workers unless --no-jobs', async () => {
    const api = await startServer({ cwd, env: target.env, args: ['--no-jobs'] });
    expect(api.output()).toContain('no background jobs');
    expect((await http(api.base, 'GET', '/healthcheck')).status).toBe(200);
    await api.stop();
    const worker = await startServer({ cwd, env: target.env });
    expect(worker.output()).toContain('running background jobs');
    await worker.stop();
  });
});
