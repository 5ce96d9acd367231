// The scheduler of periodic tasks: each task runs once per period however many nodes run the
// scheduler. Every node computes the same periods (schedule.ts); at each one it tries to claim the
// (task, period) row of `scheduled_run`, and only the node whose insert wins runs the task. A task
// still running on a node that stops is given a few seconds to finish, then asked to stop (its
// signal aborts); its period stays claimed, so it runs again next period, never twice in one.
import { hostname } from 'node:os';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { schedulerRuns } from '../lib/telemetry/metrics.ts';
import { inSpan } from '../lib/telemetry/tracing.ts';
import { checkSchedule, nextSlot, type Schedule } from './schedule.ts';
import { scheduledRun } from './table.ts';

export interface TaskLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface TaskRun {
  /** The period this run is for. */
  slot: Date;
  /** Aborted when the scheduler stops: a task checks it between units of work. */
  signal: AbortSignal;
  log: TaskLog;
}

export interface TaskDefinition {
  name: string;
  schedule: Schedule;
  description: string;
  run(run: TaskRun): Promise<void>;
}

export interface SchedulerOptions {
  timezone: string;
  log: TaskLog;
  /** Milliseconds in a second of an interval task's period (default 1000; fewer in tests). */
  secondMs?: number;
  /** How often due tasks are looked for (ms; default 1000). */
  tickMs?: number;
  /** Claims older than this are removed (days; default 30). */
  keepDays?: number;
}

/** The task name unknown to this scheduler, as Dispatch says it. */
export class UnknownTask extends Error {
  constructor(name: string) {
    super(`A scheduled task/job named ${name} does not exist`);
  }
}

export class Scheduler {
  private readonly next = new Map<string, Date>();
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  private timer?: NodeJS.Timeout;
  private stopping = false;
  private lastCleanup = 0;
  readonly node = `${hostname()}:${process.pid}`;

  constructor(
    private readonly db: Executor,
    readonly tasks: TaskDefinition[],
    private readonly opts: SchedulerOptions,
  ) {
    for (const t of tasks) checkSchedule(t.name, t.schedule);
  }

  /** The tasks named (all when none), minus the excluded; an unknown name throws UnknownTask. */
  static select(all: TaskDefinition[], names: string[] = [], exclude: string[] = []): TaskDefinition[] {
    for (const n of [...names, ...exclude]) if (!all.some((t) => t.name === n)) throw new UnknownTask(n);
    return all.filter((t) => (names.length === 0 || names.includes(t.name)) && !exclude.includes(t.name));
  }

  /** Claims the task's period; true when this node won it. */
  async claim(task: string, slot: Date): Promise<boolean> {
    const won = await this.db.insert(scheduledRun).values({ task, slot, node: this.node }).onConflictDoNothing().returning({ task: scheduledRun.task });
    return won.length === 1;
  }

  /**
   * Runs a task now for `slot` if this node wins the claim; resolves when it has run (or was not
   * won). It counts as running from before the claim, so a stop() meanwhile waits for it.
   */
  async runTask(task: TaskDefinition, slot: Date): Promise<'ran' | 'taken' | 'failed'> {
    const abort = new AbortController();
    let finished!: () => void;
    this.running.set(task.name, { done: new Promise<void>((r) => (finished = r)), abort });
    const log = this.opts.log;
    try {
      if (this.stopping || !(await this.claim(task.name, slot))) return 'taken';
      let outcome = 'ok';
      let error: string | null = null;
      try {
        await inSpan(`task ${task.name}`, { attributes: { 'muster.task': task.name } }, () => task.run({ slot, signal: abort.signal, log }));
        if (abort.signal.aborted) outcome = 'interrupted';
      } catch (err) {
        outcome = abort.signal.aborted ? 'interrupted' : 'failed';
        error = (err as Error).message ?? String(err);
        log.error({ task: task.name, slot, err: error }, 'scheduled task failed');
      }
      schedulerRuns.inc({ task: task.name, outcome });
      await this.db
        .update(scheduledRun)
        .set({ finished_at: new Date(), outcome, error })
        .where(and(eq(scheduledRun.task, task.name), eq(scheduledRun.slot, slot)))
        .catch((err) => log.error({ task: task.name, err: (err as Error).message }, 'cannot record the outcome of a scheduled task'));
      return outcome === 'failed' ? 'failed' : 'ran';
    } finally {
      this.running.delete(task.name);
      finished();
    }
  }

  /** Runs the named tasks once now (`--eager`), each claiming the moment it was asked for. */
  async runEagerly(tasks: TaskDefinition[]): Promise<void> {
    for (const t of tasks) await this.runTask(t, new Date());
  }

  /** Starts looking for due tasks every tick, until stop(). */
  start(): void {
    const now = new Date();
    for (const t of this.tasks) this.next.set(t.name, nextSlot(t.schedule, now, this.opts.timezone, this.opts.secondMs));
    const tick = async () => {
      if (this.stopping) return;
      try {
        await this.tick(new Date());
      } catch (err) {
        this.opts.log.error({ err: (err as Error).message }, 'scheduler tick failed');
      }
      if (!this.stopping) this.timer = setTimeout(tick, this.opts.tickMs ?? 1000);
    };
    this.timer = setTimeout(tick, 0);
  }

  private async tick(now: Date): Promise<void> {
    for (const task of this.tasks) {
      const due = this.next.get(task.name)!;
      if (now < due) continue;
      this.next.set(task.name, nextSlot(task.schedule, now, this.opts.timezone, this.opts.secondMs));
      // A task still running here from an earlier period is not started again beside itself.
      if (this.running.has(task.name)) continue;
      // A failed claim (the database away for a moment) is logged; the next period tries again.
      void this.runTask(task, due).catch((err) =>
        this.opts.log.error({ task: task.name, slot: due, err: (err as Error).message }, 'cannot claim a scheduled task'),
      );
    }
    if (now.getTime() - this.lastCleanup > 3600_000) {
      this.lastCleanup = now.getTime();
      const before = new Date(now.getTime() - (this.opts.keepDays ?? 30) * 86400_000);
      await this.db.delete(scheduledRun).where(lt(scheduledRun.slot, before));
    }
  }

  /** Stops looking for tasks; running ones get `graceMs` to finish, then are aborted and awaited. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const running = [...this.running.values()];
    if (running.length === 0) return;
    const all = Promise.all(running.map((r) => r.done));
    const timedOut = await Promise.race([all.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref())]);
    if (!timedOut) return;
    for (const r of running) r.abort.abort();
    await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  /** Tasks running in this process now. */
  get busy(): string[] {
    return [...this.running.keys()];
  }
}

/** How many times each task ran for each period, for tests and operators (`slot` as ISO text). */
export async function runsOf(db: Executor, task: string): Promise<{ slot: Date; node: string; outcome: string | null }[]> {
  return db
    .select({ slot: scheduledRun.slot, node: scheduledRun.node, outcome: scheduledRun.outcome })
    .from(scheduledRun)
    .where(eq(scheduledRun.task, task))
    .orderBy(sql`${scheduledRun.slot}`);
}
