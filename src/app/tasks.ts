// Every periodic task, in the order `muster scheduler list` shows them (the summary's sample first,
// then the tasks the subsystems register). Each runs once per project of every organization;
// docs/scheduler.md describes each.
import { ConfigError, type Settings } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { purgeExpiredEntries } from '../domains/audit/service.ts';
import { remindCases } from '../domains/case/reminders.ts';
import { remindEvergreen } from '../domains/evergreen/reminders.ts';
import { sendFeedbackReport } from '../domains/feedback/report.ts';
import { autoTagIncidents } from '../domains/incident/auto-tag.ts';
import { remindReports, remindToClose, sendSummary } from '../domains/incident/reminders.ts';
import { recomputeAllResponseCosts } from '../domains/incident/response-cost.ts';
import { activeInstance } from '../domains/plugin/active.ts';
import { eachProject, type ProjectScope } from '../domains/project/each.ts';
import { buildTagModel, MODEL_NAMES } from '../domains/tag_recommendation/model.ts';
import { remindTasks } from '../domains/task/reminders.ts';
import { resyncRuns } from '../domains/workflow/runs.ts';
import type { PluginType } from '../plugins/types.ts';
import { knownTimezone, type Schedule } from '../jobs/schedule.ts';
import { Scheduler, type TaskDefinition, type TaskLog, type TaskRun } from '../jobs/scheduler.ts';
import { startTracing } from '../lib/telemetry/tracing.ts';

const HOURLY: Schedule = { every: 3600 };
const DAILY_18: Schedule = { at: '18:00:00' };
const MONDAY_18: Schedule = { at: '18:00:00', weekday: 'Monday' };

export function scheduledTasks(database: Database, settings: Settings): TaskDefinition[] {
  const db = database.db;

  /** A task that runs `work` for every project of every organization. */
  const perProject = (
    name: string,
    schedule: Schedule,
    description: string,
    work: (scope: ProjectScope, run: TaskRun) => Promise<unknown>,
  ): TaskDefinition => ({
    name,
    schedule,
    description,
    async run(run) {
      await eachProject({ db, settings, signal: run.signal, log: run.log, task: name }, (scope) => work(scope, run).then(() => {}));
    },
  });

  /**
   * A task that needs a project's enabled plugin of `type` to sync with an outside system. Muster
   * ships no plugin of these types; a project without one is skipped, and the log says so.
   */
  const told = new Set<string>();
  const needsPlugin = (name: string, schedule: Schedule, type: PluginType, description: string): TaskDefinition =>
    perProject(name, schedule, description, async ({ ctx, project }, { log }) => {
      const active = await activeInstance(ctx.db, settings, project.id, type);
      // Said once per project and process at info, then at debug: some of these run every 30 seconds.
      const where = `${name}:${project.id}:${active?.id ?? 'none'}`;
      const say = told.has(where) ? log.debug.bind(log) : log.info.bind(log);
      told.add(where);
      say(
        { task: name, organization: ctx.organization.slug, project: project.name },
        active ? `skipped: the ${active.plugin.slug} plugin declares nothing to sync` : `skipped: no enabled ${type} plugin`,
      );
    });

  return [
    perProject(
      'incident-status-report-reminder',
      HOURLY,
      "Reminds commanders of Active incidents whose tactical or executive report is due by the priority's reminder hours.",
      (s, r) => remindReports(s, r.slot),
    ),
    perProject(
      'incident-daily-summary',
      DAILY_18,
      "Sends the project's notifications the day's summary: Active incidents and those that became Stable or Closed.",
      (s, r) => sendSummary(s, r.slot, 'daily'),
    ),
    perProject('calculate-incident-cost', { every: 300 }, 'Recomputes the response cost of every incident still changing.', ({ ctx, project }, r) =>
      recomputeAllResponseCosts(db, ctx.organization.id, r.slot, project.id),
    ),
    perProject('incident-task-reminders', HOURLY, 'Reminds owners and assignees of Open tasks past their resolve-by time, once a day.', (s, r) =>
      remindTasks(s, r.slot),
    ),
    needsPlugin('incident-task-sync', { every: 30 }, 'task', "Syncs incident tasks with the project's task plugin (a document or tracker holding them)."),
    needsPlugin('term-sync', HOURLY, 'term', "Syncs the project's terms from its term plugin."),
    needsPlugin('document-term-sync', { every: 86400 }, 'document', "Finds the project's terms in the documents of its document plugin."),
    needsPlugin('application-sync', HOURLY, 'source', "Syncs the project's applications and sources from its source plugin."),
    {
      name: 'calculate-cases-response-cost',
      schedule: HOURLY,
      description: 'Would recompute the response cost of cases; cases carry no cost in the 0.1.0 API, so it records that it skipped.',
      async run({ log }) {
        log.info({ task: 'calculate-cases-response-cost' }, 'skipped: cases carry no cost (no case cost model is configured)');
      },
    },
    perProject('case-close-reminder', DAILY_18, 'Reminds assignees of Escalated cases whose incidents are all Closed to close them.', (s, r) =>
      remindCases(s, r.slot, 'close'),
    ),
    perProject('case-triage-reminder', DAILY_18, 'Reminds assignees of cases waiting a day or more for triage (New or Triage).', (s, r) =>
      remindCases(s, r.slot, 'triage'),
    ),
    perProject('case-stable-reminder', DAILY_18, 'Reminds assignees of cases Stable for a day or more to close them.', (s, r) =>
      remindCases(s, r.slot, 'stable'),
    ),
    perProject('evergreen-reminder', MONDAY_18, 'E-mails each owner the evergreen documents, services, teams and notifications due for review.', (s, r) =>
      remindEvergreen(s, r.slot),
    ),
    perProject('incident-close-reminder', MONDAY_18, 'Reminds commanders of incidents Stable for a week or more to close them.', (s, r) =>
      remindToClose(s, r.slot),
    ),
    perProject('incident-report-weekly', MONDAY_18, "Sends the project's notifications the week's summary: incidents that became Stable or Closed.", (s, r) =>
      sendSummary(s, r.slot, 'weekly'),
    ),
    perProject('incident-feedback-daily-report', DAILY_18, "E-mails the project's owner the feedback given on its incidents in the last day.", (s, r) =>
      sendFeedbackReport(s, r.slot),
    ),
    perProject(
      'incident-tagger',
      HOURLY,
      "Adds the project's discoverable tags whose names occur in an open incident's title or description.",
      async ({ ctx, project }, { log }) => {
        const added = await autoTagIncidents(db, ctx, project.id);
        if (added) log.info({ task: 'incident-tagger', project: project.name, added }, 'tags added');
      },
    ),
    perProject('tag-model-builder', HOURLY, "Rebuilds the project's tag recommendation models from its Open incidents and cases.", async ({ ctx, project }) => {
      for (const name of MODEL_NAMES) await buildTagModel(db, ctx.organization.id, project.id, name);
    }),
    perProject('workflow-sync', { every: 30 }, 'Checks workflow runs that stopped being checked before they finished.', ({ project }, r) =>
      resyncRuns({ db, settings, log: r.log }, project.id, r.slot),
    ),
    {
      name: 'audit-log-retention',
      schedule: HOURLY,
      description: 'Deletes audit log entries older than MUSTER_AUDIT_RETENTION_DAYS (0 keeps them forever), in batches.',
      async run({ log, signal }) {
        const days = settings.auditRetentionDays;
        if (days <= 0) return;
        const deleted = await purgeExpiredEntries(db, { days, signal });
        if (deleted) log.info({ task: 'audit-log-retention', deleted, days }, 'expired audit log entries deleted');
      },
    },
  ];
}

/** Throws ConfigError when the scheduler's settings cannot be used (before anything is opened). */
export function checkSchedulerSettings(settings: Settings): void {
  if (!knownTimezone(settings.schedulerTz))
    throw new ConfigError(`MUSTER_SCHEDULER_TZ must be a time zone name such as UTC or Europe/Amsterdam, got "${settings.schedulerTz}"`);
  if (settings.schedulerSecondMs < 1) throw new ConfigError(`MUSTER_SCHEDULER_SECOND_MS must be at least 1, got ${settings.schedulerSecondMs}`);
}

/** A scheduler over every task (or those named, minus the excluded). */
export function createScheduler(database: Database, settings: Settings, log: TaskLog, names: string[] = [], exclude: string[] = []): Scheduler {
  checkSchedulerSettings(settings);
  startTracing(settings);
  const tasks = Scheduler.select(scheduledTasks(database, settings), names, exclude);
  const secondMs = settings.schedulerSecondMs;
  return new Scheduler(database.db, tasks, { timezone: settings.schedulerTz, log, secondMs, tickMs: Math.min(1000, secondMs) });
}
