// Every kind of background job, gathered from the domains that declare them: the queues that
// start-up installs and the handlers `muster server start` runs (unless --no-jobs).
import type { Settings } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { type JobDefinition, type JobLog, withBindings } from '../jobs/definition.ts';
import { startTracing } from '../lib/telemetry/tracing.ts';
import { type JobHandler, JobQueue, type WorkerOptions } from '../jobs/queue.ts';
import { CASE } from '../domains/case/kind.ts';
import { conversationSyncJob } from '../domains/conversation/sync.ts';
import { INCIDENT } from '../domains/incident/kind.ts';
import { recordEffectsJob, ticketUpdateJob } from '../domains/effects/record-effects.ts';
import { resourceJobs } from '../domains/effects/resources.ts';
import { membershipsJob } from '../domains/effects/memberships.ts';
import { conferenceCloseJob } from '../domains/effects/conference-close.ts';
import { recordDocumentsJob } from '../domains/record_document/jobs.ts';
import { taskTicketJob } from '../domains/task/ticket.ts';
import { workflowPollJob, workflowRunJob } from '../domains/workflow/runs.ts';
import { oncallJobs } from '../domains/effects/oncall.ts';
import { MESSAGE_JOBS } from '../domains/plugin/messages.ts';
import { CHAT_JOBS } from '../chat/jobs.ts';
import { accountMailJob } from '../domains/auth/account-mail.ts';
import { invitationMailJob } from '../domains/auth/invitation-mail.ts';

const KINDS = { incident: INCIDENT, case: CASE };

export const JOBS: JobDefinition[] = [
  recordEffectsJob(KINDS),
  ticketUpdateJob(KINDS),
  taskTicketJob(INCIDENT),
  ...resourceJobs(KINDS),
  conferenceCloseJob,
  recordDocumentsJob(KINDS),
  ...MESSAGE_JOBS,
  ...oncallJobs(KINDS),
  conversationSyncJob(KINDS),
  membershipsJob(KINDS),
  workflowRunJob,
  workflowPollJob,
  ...CHAT_JOBS,
  accountMailJob,
  invitationMailJob,
];

export const jobQueue = (database: Database) => new JobQueue(database, JOBS);

/** Runs every job kind's worker in this process; returns the queue, to stop it. */
export async function startJobWorkers(database: Database, settings: Settings, log: JobLog, opts: WorkerOptions = {}): Promise<JobQueue> {
  startTracing(settings);
  const queue = jobQueue(database);
  const handlers: Record<string, JobHandler> = {};
  for (const def of JOBS) {
    handlers[def.name] = async (job) => {
      // A job's lines name the request that caused it.
      const jobLog = job.requestId ? withBindings(log, { requestId: job.requestId }) : log;
      try {
        return await def.run(job, { db: database.db, settings, log: jobLog });
      } catch (err) {
        jobLog.warn({ job: job.id, queue: job.name, attempt: job.retryCount + 1, err: (err as Error).message }, 'job failed');
        throw err;
      }
    };
  }
  // The embedded database is one connection, shared with the requests: one worker per queue there,
  // so that background work never holds it more than one job of a kind at a time.
  const concurrency = database.kind === 'embedded' ? 1 : undefined;
  await queue.start(handlers, { concurrency, onError: (err) => log.error({ err: err.message }, 'job queue error'), ...opts });
  return queue;
}
