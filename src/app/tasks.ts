// Every periodic task, in the order `muster scheduler list` shows them (the summary's sample first,
// then the tasks the subsystems register). docs/scheduler.md describes each.
import type { Settings } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { recomputeAllResponseCosts } from '../domains/incident_cost/response-cost.ts';
import { eachProject } from '../domains/project/each.ts';
import { Scheduler, type TaskDefinition, type TaskLog } from '../jobs/scheduler.ts';

export function scheduledTasks(database: Database, settings: Settings): TaskDefinition[] {
  const db = database.db;
  return [
    {
      name: 'calculate-incident-cost',
      description: 'Recomputes the response cost of every incident still changing (open, or closed and not priced since).',
      schedule: { every: 300 },
      async run({ signal, log }) {
        await eachProject({ db, settings, signal, log, task: 'calculate-incident-cost' }, async ({ ctx, project }) => {
          await recomputeAllResponseCosts(db, ctx.organization.id, new Date(), project.id);
        });
      },
    },
  ];
}

/** A scheduler over every task (or those named, minus the excluded). */
export function createScheduler(database: Database, settings: Settings, log: TaskLog, names: string[] = [], exclude: string[] = []): Scheduler {
  const tasks = Scheduler.select(scheduledTasks(database, settings), names, exclude);
  return new Scheduler(database.db, tasks, { timezone: settings.schedulerTz, log });
}
