import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../db/connection.ts';
import { upgrade } from '../db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { BIN_TS, ROOT } from '../../test/cli-helpers.ts';
import { atText, nextSlot, periodText } from './schedule.ts';
import { Scheduler, type TaskDefinition, UnknownTask, runsOf } from './scheduler.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('schedules', () => {
  it('print periods as timedelta text and at-times as HH:MM:SS', () => {
    expect(periodText({ every: 30 })).toBe('0:00:30');
    expect(periodText({ every: 300 })).toBe('0:05:00');
    expect(periodText({ every: 3600 })).toBe('1:00:00');
    expect(periodText({ at: '18:00:00' })).toBe('1 day, 0:00:00');
    expect(periodText({ at: '18:00:00', weekday: 'Monday' })).toBe('7 days, 0:00:00');
    expect(atText({ every: 30 })).toBe('');
    expect(atText({ at: '18:00:00' })).toBe('18:00:00');
  });

  it('align periods to the epoch and place times of day in the time zone, across daylight-saving changes', () => {
    expect(nextSlot({ every: 30 }, new Date('2026-11-24T10:00:10Z'), 'UTC').toISOString()).toBe('2026-11-24T10:00:30.000Z');
    expect(nextSlot({ at: '18:00:00' }, new Date('2026-11-24T10:00:00Z'), 'UTC').toISOString()).toBe('2026-11-24T18:00:00.000Z');
    // Amsterdam: UTC+1 in winter, UTC+2 in summer; 2026-03-29 is the change.
    expect(nextSlot({ at: '18:00:00' }, new Date('2026-03-28T12:00:00Z'), 'Europe/Amsterdam').toISOString()).toBe('2026-03-28T17:00:00.000Z');
    expect(nextSlot({ at: '18:00:00' }, new Date('2026-03-29T12:00:00Z'), 'Europe/Amsterdam').toISOString()).toBe('2026-03-29T16:00:00.000Z');
    // Mondays: 2026-11-24 is a Tuesday.
    expect(nextSlot({ at: '18:00:00', weekday: 'Monday' }, new Date('2026-11-24T10:00:00Z'), 'UTC').toISOString()).toBe('2026-11-30T18:00:00.000Z');
  });
});

describe('the scheduler', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.cleanup());

  const task = (name: string, run: TaskDefinition['run']): TaskDefinition => ({ name, description: '', schedule: { every: 3600 }, run });

  it('selects tasks by name and exclusion, and names an unknown one as Dispatch does', () => {
    const all = [task('a', async () => {}), task('b', async () => {}), task('c', async () => {})];
    expect(Scheduler.select(all).map((x) => x.name)).toEqual(['a', 'b', 'c']);
    expect(Scheduler.select(all, ['a', 'c']).map((x) => x.name)).toEqual(['a', 'c']);
    expect(Scheduler.select(all, [], ['b']).map((x) => x.name)).toEqual(['a', 'c']);
    expect(() => Scheduler.select(all, ['nope'])).toThrow(new UnknownTask('nope'));
    expect(() => Scheduler.select(all, ['nope'])).toThrow('A scheduled task/job named nope does not exist');
  });

  it('runs a period once: a second claim of it is refused, and the outcome is recorded', async () => {
    let runs = 0;
    const counted = task('counted', async () => {
      runs++;
    });
    const a = new Scheduler(t.database.db, [counted], { timezone: 'UTC', log: quiet });
    const b = new Scheduler(t.database.db, [counted], { timezone: 'UTC', log: quiet });
    const slot = new Date('2026-11-24T10:00:00Z');
    expect(await a.runTask(counted, slot)).toBe('ran');
    expect(await b.runTask(counted, slot)).toBe('taken');
    expect(runs).toBe(1);
    const failing = task('failing', async () => {
      throw new Error('no plugin');
    });
    expect(await a.runTask(failing, slot)).toBe('failed');
    expect((await runsOf(t.database.db, 'counted')).map((r) => r.outcome)).toEqual(['ok']);
    expect((await runsOf(t.database.db, 'failing')).map((r) => r.outcome)).toEqual(['failed']);
  });

  it('stops within its grace period, aborting a task that does not finish, whose period stays claimed', async () => {
    const slow = task('slow', ({ signal }) => new Promise((_ok, fail) => signal.addEventListener('abort', () => fail(new Error('stopped')))));
    const s = new Scheduler(t.database.db, [slow], { timezone: 'UTC', log: quiet });
    const slot = new Date('2026-11-24T11:00:00Z');
    const ran = s.runTask(slow, slot);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.busy).toEqual(['slow']);
    await s.stop(200);
    expect(await ran).toBe('ran');
    expect((await runsOf(t.database.db, 'slow')).map((r) => r.outcome)).toEqual(['interrupted']);
    const other = new Scheduler(t.database.db, [slow], { timezone: 'UTC', log: quiet });
    expect(await other.runTask(slow, slot)).toBe('taken');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('three scheduler nodes on one PostgreSQL', () => {
  let admin: Database;
  let database: Database;
  let url: string;
  const name = `muster_sched_${process.pid}`;
  const nodes: ChildProcess[] = [];

  beforeAll(async () => {
    admin = await openPostgres(process.env.DATABASE_URL!, 1);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(process.env.DATABASE_URL!);
    u.pathname = `/${name}`;
    url = u.toString();
    database = await openPostgres(url, 2);
    await upgrade(database, 'heads', () => {});
    await database.query('CREATE TABLE test_tick_run (slot timestamptz NOT NULL, node text NOT NULL, phase text NOT NULL)');
  });
  afterAll(async () => {
    for (const n of nodes) n.kill('SIGKILL');
    await database?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.close();
  });

  it('run each period of a task once, even when a node is killed mid-task', async () => {
    const start = (n: string) => {
      const child = spawn(process.execPath, [BIN_TS, join(ROOT, 'test/fixtures/scheduler-node.ts'), url, n], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      nodes.push(child);
      return new Promise<ChildProcess>((ok) => child.stdout!.once('data', () => ok(child)));
    };
    const started = () => database.query<{ slot: Date; node: string }>(`SELECT slot, node FROM test_tick_run WHERE phase = 'start' ORDER BY slot`);
    const until = async (done: (rows: { slot: Date; node: string }[]) => boolean, what: string) => {
      const deadline = Date.now() + 60_000;
      while (!done(await started())) {
        if (Date.now() > deadline) throw new Error(`the nodes did not get there in time: ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const [first] = await Promise.all([start('node-1'), start('node-2'), start('node-3')]);
    await until((rows) => rows.length >= 2, 'two periods started');
    // Killed whatever it is doing: a period it claimed is not run again by the others.
    first.kill('SIGKILL');
    await new Promise((ok) => (first.exitCode !== null || first.signalCode !== null ? ok(null) : first.once('exit', ok)));
    // Three periods after its last one, run by the others.
    const after = (rows: { slot: Date; node: string }[]) => {
      const last = Math.max(0, ...rows.filter((r) => r.node === 'node-1').map((r) => r.slot.getTime()));
      return rows.filter((r) => r.slot.getTime() > last).length;
    };
    await until((rows) => rows.length >= 5 && after(rows) >= 3, 'five periods, three after the kill');
    await Promise.all(
      nodes.slice(1).map(
        (n) =>
          new Promise((ok) => {
            n.once('exit', ok);
            n.kill('SIGTERM');
          }),
      ),
    );

    const starts = await database.query<{ slot: Date; n: number; nodes: string[] }>(
      `SELECT slot, count(*)::int AS n, array_agg(node) AS nodes FROM test_tick_run WHERE phase = 'start' GROUP BY slot ORDER BY slot`,
    );
    expect(starts.length).toBeGreaterThanOrEqual(5);
    expect(starts.filter((s) => s.n !== 1)).toEqual([]);
    const ran = new Set(starts.flatMap((s) => s.nodes));
    expect(ran.size).toBeGreaterThanOrEqual(2);
    // The periods after the kill were run by the others.
    const last = starts.slice(-3).flatMap((s) => s.nodes);
    expect(last).not.toContain('node-1');
    // Every run is one claim, and every claim one run at most.
    const claims = await runsOf(database.db, 'test-tick');
    expect(new Set(claims.map((c) => c.slot.toISOString())).size).toBe(claims.length);
    expect(starts.length).toBeLessThanOrEqual(claims.length);
  });
});
