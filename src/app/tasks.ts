// Every periodic task, in the order `muster scheduler list` shows them (the summary's sample first,
// then the tasks the subsystems register). docs/scheduler.md describes each.
import { ConfigError, type Settings } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { recomputeAllResponseCosts } from '../domains/incident_cost/response-cost.ts';
import { autoTagIncidents } from '../domains/incident/auto-tag.ts';
import { eachProject } from '../domains/project/each.ts';
import { buildTagModel, MODEL_NAMES } from '../domains/tag_recommendation/model.ts';
import { knownTimezone } from '../jobs/schedule.ts';
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
    {
      name: 'incident-tagger',
      description: "Adds the project's discoverable tags whose names occur in an open incident's title or description.",
      schedule: { every: 3600 },
      async run({ signal, log }) {
        await eachProject({ db, settings, signal, log, task: 'incident-tagger' }, async ({ ctx, project }) => {
          const added = await autoTagIncidents(db, ctx, project.id);
          if (added) log.info({ task: 'incident-tagger', project: project.name, added }, 'tags added');
        });
      },
    },
    {
      name: 'tag-model-builder',
      description: "Rebuilds each project's tag recommendation models from its Open incidents and cases.",
      schedule: { every: 3600 },
      async run({ signal, log }) {
        await eachProject({ db, settings, signal, log, task: 'tag-model-builder' }, async ({ ctx, project }) => {
          for (const name of MODEL_NAMES) await buildTagModel(db, ctx.organization.id, project.id, name);
        });
      },
    },
  ];
}

/** A scheduler over every task (or those named, minus the excluded). */
/** Throws ConfigError when the scheduler's settings cannot be used (before anything is opened). */
export function checkSchedulerSettings(settings: Settings): void {
  if (!knownTimezone(settings.schedulerTz))
    throw new ConfigError(`MUSTER_SCHEDULER_TZ must be a time zone name such as UTC or Europe/Amsterdam, got "${settings.schedulerTz}"`);
}

export function createScheduler(database: Database, settings: Settings, log: TaskLog, names: string[] = [], exclude: string[] = []): Scheduler {
  checkSchedulerSettings(settings);
  const tasks = Scheduler.select(scheduledTasks(database, settings), names, exclude);
  return new Scheduler(database.db, tasks, { timezone: settings.schedulerTz, log });
}
