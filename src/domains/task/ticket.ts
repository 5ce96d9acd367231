// A follow-up task in the project's ticket system: when a task is created, or resolved or
// reopened, a `task-ticket` job (enqueued in the task's transaction) asks the ticket plugin to make
// the task's ticket, or to bring it up to date. The ticket is kept in the task's own resource
// columns (`resource_id`, `resource_type`, `weblink`) when the task has no resource of its own.
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { defineJob } from '../../jobs/definition.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { TaskSubject, Ticket } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { individualContact } from '../individual/table.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { subjectOf } from '../lifecycle/subject.ts';
import { participant } from '../lifecycle/table.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { task, taskAssignee } from './table.ts';

const TASK_TICKET = 'task-ticket';

interface TaskTicketJob {
  organization_id: number;
  id: number;
}

/** Enqueues the task's ticket work, in the transaction that wrote the task. */
export const enqueueTaskTicket = (tx: Executor, ctx: Ctx, id: number) =>
  enqueue(tx, TASK_TICKET, { organization_id: ctx.organization.id, id } satisfies TaskTicketJob, { singletonKey: `task:${id}` });

async function emailsOf(db: Executor, participantIds: number[]): Promise<string[]> {
  if (participantIds.length === 0) return [];
  const rows = await db
    .select({ email: individualContact.email })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(inArray(participant.id, participantIds));
  return rows.map((r) => r.email);
}

/** The job; the app gives it the incident kind (a task's record). */
export const taskTicketJob = (incidentKind: RecordKind) =>
  defineJob<TaskTicketJob>({
    name: TASK_TICKET,
    // As the ticket-update job: a tracker down for a while is tried again about 5, 10, 20, 40 and 80 s later.
    retryLimit: 5,
    retryDelay: 5,
    // One job of a task at a time: a resolve must not run while the create job is still making the ticket.
    policy: 'singleton',
    async run(job, env) {
      const [row] = await env.db.select().from(task).where(eq(task.id, job.data.id));
      if (!row) return { skipped: 'task deleted' };
      const ticketing = await activeInstance(env.db, env.settings, row.project_id, 'ticket');
      if (!ticketing?.plugin.createTaskTicket) return { skipped: 'no ticket plugin that makes task tickets' };
      const incident = await subjectOf(env.db, env.settings, incidentKind, row.incident_id);
      if (!incident) return { skipped: 'incident deleted' };
      const assigneeIds = (await env.db.select({ id: taskAssignee.participant_id }).from(taskAssignee).where(eq(taskAssignee.task_id, row.id)))
        .map((r) => r.id)
        .filter((id): id is number => id !== null);
      const [owner] = row.owner_id ? await emailsOf(env.db, [row.owner_id]) : [];
      const subject: TaskSubject = {
        id: row.id,
        description: row.description ?? '',
        status: row.status,
        priority: row.priority,
        owner: owner ?? null,
        assignees: await emailsOf(env.db, assigneeIds),
        incident,
      };
      const log = {
        info: (msg: string) => env.log.info({ job: job.id, queue: job.name }, msg),
        warn: (msg: string) => env.log.warn({ job: job.id, queue: job.name }, msg),
      };
      const plugin = pluginEnv(env.settings, job.id, log);
      if (!row.resource_id) {
        const made = await ticketing.plugin.createTaskTicket(subject, ticketing.config, plugin);
        if (!made) return { skipped: 'the ticket plugin keeps tasks out' };
        await env.db.update(task).set({ resource_id: made.resource_id, resource_type: made.resource_type, weblink: made.weblink }).where(eq(task.id, row.id));
        // Made already resolved (or resolved while the ticket was being made): say so too.
        if (subject.status !== 'Open') await ticketing.plugin.updateTaskTicket?.(made, subject, ticketing.config, plugin);
        return { created: made.resource_id };
      }
      const ticket: Ticket = { resource_id: row.resource_id, resource_type: row.resource_type ?? '', weblink: row.weblink ?? '' };
      await ticketing.plugin.updateTaskTicket?.(ticket, subject, ticketing.config, plugin);
      return { updated: row.resource_id };
    },
  });
