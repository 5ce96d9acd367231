// `muster scheduler list|start` as child processes: the task table, unknown names, the embedded
// database held by a server, and three schedulers on one PostgreSQL running each period once.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  childEnv,
  embeddedTarget,
  muster,
  musterOk,
  postgresTarget,
  SERVER_URL,
  startServer,
  stopAllServers,
  tempDir,
  type Target,
} from './cli-helpers.ts';

let cwd: string;
beforeAll(() => {
  cwd = tempDir();
});
afterAll(async () => {
  await stopAllServers();
  rmSync(cwd, { recursive: true, force: true });
});

describe('muster scheduler', { timeout: 180_000 }, () => {
  it('lists every task with its period and time of day, in registration order', async () => {
    const r = await musterOk(['scheduler', 'list'], { cwd });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['Task Name', 'Period', 'At Time']);
    const rows = new Map(
      lines.slice(2).map((l) => [
        l.split(/\s{2,}/)[0],
        l
          .trim()
          .split(/\s{2,}/)
          .slice(1),
      ]),
    );
    expect(rows.get('incident-status-report-reminder')).toEqual(['1:00:00']);
    expect(rows.get('incident-daily-summary')).toEqual(['1 day, 0:00:00', '18:00:00']);
    expect(rows.get('calculate-incident-cost')).toEqual(['0:05:00']);
    expect(rows.get('incident-task-sync')).toEqual(['0:00:30']);
    expect(rows.get('document-term-sync')).toEqual(['1 day, 0:00:00']);
    expect(rows.get('evergreen-reminder')).toEqual(['7 days, 0:00:00', '18:00:00']);
    expect([...rows.keys()].slice(0, 3)).toEqual(['incident-status-report-reminder', 'incident-daily-summary', 'calculate-incident-cost']);
  });

  it('refuses an unknown task, as Dispatch words it', async () => {
    const r = await muster(['scheduler', 'start', 'no-such-task'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('A scheduled task/job named no-such-task does not exist');
    const ex = await muster(['scheduler', 'start', '--exclude', 'nope'], { cwd });
    expect(ex.stderr).toContain('A scheduled task/job named nope does not exist');
  });

  it('on the embedded database, says that the server holding it runs the scheduler', async () => {
    const target: Target = embeddedTarget({ migrated: true });
    try {
      const server = await startServer({ cwd, env: target.env });
      expect(server.output()).toContain('running the scheduler');
      const r = await muster(['scheduler', 'start'], { cwd, env: target.env });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('runs the scheduler itself');
      await server.stop();
    } finally {
      await target.cleanup();
    }
  });
});

describe.skipIf(!SERVER_URL)('three muster scheduler start on one PostgreSQL', { timeout: 180_000 }, () => {
  let target: Target;
  beforeAll(async () => {
    target = await postgresTarget({ migrated: true });
  });
  afterAll(() => target?.cleanup());

  it('run each 30-second period of a task once, and stop within seconds on SIGTERM', async () => {
    // Seconds of 100 ms: a 30-second period lasts 3 s. The nodes run until each task has run two periods.
    const second = 100;
    const env = childEnv({ ...target.env, MUSTER_SCHEDULER_SECOND_MS: String(second) });
    const nodes = [1, 2, 3].map(() =>
      spawn(process.execPath, [BIN, 'scheduler', 'start', 'workflow-sync', 'incident-task-sync'], { cwd, env, stdio: 'ignore' }),
    );
    const finished = `SELECT count(*)::int AS n FROM scheduled_run WHERE outcome IS NOT NULL GROUP BY task HAVING count(*) >= 2`;
    while ((await target.query(finished)).length < 2) await new Promise((r) => setTimeout(r, 100));
    const stopped = Date.now();
    const codes = await Promise.all(
      nodes.map(
        (n) =>
          new Promise<number | null>((ok) => {
            n.once('exit', (code) => ok(code));
            n.kill('SIGTERM');
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0]);
    expect(Date.now() - stopped).toBeLessThan(15_000);
    // One claim is one run (a node runs a period only when its claim wins), so periods are counted by claims.
    const runs = await target.query<{ task: string; slot: Date; outcome: string | null }>(`SELECT task, slot, outcome FROM scheduled_run ORDER BY task, slot`);
    for (const task of ['incident-task-sync', 'workflow-sync']) {
      const mine = runs.filter((r) => r.task === task);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      expect(mine.length).toBeLessThanOrEqual(3);
      expect(mine.every((r) => r.outcome === 'ok')).toBe(true);
      for (const r of mine) expect(new Date(r.slot).getTime() % (30 * second)).toBe(0);
    }
  });
});
