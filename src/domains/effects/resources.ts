// What a new incident or case gets from plugins beside its ticket and channel (BEHAVIOR §6.1): its
// groups and, for an incident, its meeting. One `record-resources` job per write, enqueued in the
// write's transaction; each step is done once (a retry skips what is made) and in a transaction of
// its own, so a failing plugin delays only itself and never the write, which has long committed.
// Mail to a group (the notifications group hears of executive reports) is a job of its own too:
// its members are read when it runs, and the e-mail goes out through the e-mail plugin.
import type { Executor } from '../../db/connection.ts';
import { defineJob } from '../../jobs/definition.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { EmailMessage, GroupKind, Subject } from '../../plugins/types.ts';
import { isRetryLater, RetryLater } from '../../lib/retry-later.ts';
import type { Ctx } from '../../server/context.ts';
import { openConference } from '../conference/service.ts';
import { createGroupsOf, groupMembers, groupOf } from '../group/service.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { activeParticipantEmails } from '../lifecycle/participants.ts';
import { subjectOf, subjectsOf } from '../lifecycle/subject.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { enqueueEmail } from '../plugin/messages.ts';
import { type EffectsContext, jobContext } from './job-context.ts';
import { routedFor } from './routing.ts';

const RECORD_RESOURCES = 'record-resources';
const GROUP_MAIL = 'group-mail';

// Outside systems that are down for a while: retried after about 10 s, 20 s, 40 s, 80 s, 160 s.
const RETRIES = { retryLimit: 5, retryDelay: 10, expireInSeconds: 300 } as const;

interface ResourcesJob extends EffectsContext {
  kind: 'incident' | 'case';
  ids: number[];
}

interface GroupMailJob extends EffectsContext {
  kind: 'incident' | 'case';
  id: number;
  group: GroupKind;
  message: Omit<EmailMessage, 'to'>;
}

/** The job that makes new records' groups and meetings, to enqueue in the transaction that creates them. */
export function resourcesJob(ctx: Ctx, kind: RecordKind, ids: number[]) {
  const data: ResourcesJob = { organization_id: ctx.organization.id, user: { id: ctx.user.id, email: ctx.user.email }, kind: kind.name, ids };
  return { name: RECORD_RESOURCES, data };
}

/** Enqueues a message to a record's group, in the caller's transaction; `key` names what it is for. */
export async function enqueueGroupMail(tx: Executor, ctx: Ctx, kind: RecordKind, id: number, group: GroupKind, message: GroupMailJob['message'], key: string) {
  const data: GroupMailJob = { organization_id: ctx.organization.id, user: { id: ctx.user.id, email: ctx.user.email }, kind: kind.name, id, group, message };
  await enqueue(tx, GROUP_MAIL, data, { key });
}

/** The message as the group gets it: the record named in the subject, its page linked below. */
const mailOf = (subject: Subject, message: GroupMailJob['message'], to: string[]): EmailMessage => ({
  to,
  subject: `[${subject.name ?? subject.title}] ${message.subject}`,
  text: `${message.text}\n\n${subject.weblink}`,
});

/** The e-mails of a record's group's members now: for the notifications group, with the teams routed to the record. */
export async function membersNow(ctx: Ctx, kind: RecordKind, id: number, group: GroupKind): Promise<string[]> {
  const followers = group === 'notifications' ? ((await routedFor(ctx.db, ctx, kind, [id])).get(id)?.teams ?? []).map((t) => t.email) : [];
  return groupMembers(ctx.db, kind, id, group, followers);
}

export const resourceJobs = (kinds: Record<'incident' | 'case', RecordKind>) => [
  defineJob<ResourcesJob>({
    name: RECORD_RESOURCES,
    ...RETRIES,
    async run(job, env) {
      const ctx = await jobContext(env, job.data);
      if (!ctx) return { skipped: 'organization deleted' };
      const kind = kinds[job.data.kind];
      const failed: string[] = [];
      // The longest a refusing vendor asked to wait (a 429's Retry-After): the retry comes no sooner.
      let wait = 0;
      const made = { groups: 0, conferences: 0 };
      const subjects = await subjectsOf(env.db, env.settings, kind, job.data.ids);
      const keyOf = (subject: Subject) => `${job.id}:${kind.name}:${subject.id}`;
      // Every record's groups at once (a batch of new cases: three statements in all, where each case
      // had a transaction of six); when that fails, each record's alone, as below.
      let grouped = false;
      if (subjects.length > 1) {
        try {
          made.groups += await createGroupsOf(env.db, ctx, kind, subjects, (subject) => `${keyOf(subject)}:groups`);
          grouped = true;
        } catch (err) {
          env.log.warn({ job: job.id, queue: job.name, err: (err as Error).message }, 'groups of the whole job failed; each record alone');
        }
      }
      for (const subject of subjects) {
        const key = keyOf(subject);
        const step = async (what: string, run: (tx: Executor) => Promise<void>) => {
          try {
            await env.db.transaction(run);
          } catch (err) {
            env.log.warn({ job: job.id, queue: job.name, [kind.name]: subject.id, err: (err as Error).message }, `${what} failed`);
            failed.push(`${what} of ${kind.name} ${subject.id}: ${(err as Error).message}`);
            if (isRetryLater(err)) wait = Math.max(wait, err.seconds);
          }
        };
        if (!grouped)
          await step('groups', async (tx) => {
            made.groups += await createGroupsOf(tx, ctx, kind, [subject], () => `${key}:groups`);
          });
        if (kind.name === 'incident')
          await step('meeting', async (tx) => {
            if (await openConference(tx, ctx, subject, await activeParticipantEmails(tx, kind, subject.id), `${key}:conference`)) made.conferences++;
          });
      }
      // Thrown after every step had its turn: the retry makes only what is still missing.
      if (failed.length) throw wait ? new RetryLater(wait, failed.join('; ')) : new Error(failed.join('; '));
      return made;
    },
  }),
  defineJob<GroupMailJob>({
    name: GROUP_MAIL,
    ...RETRIES,
    async run(job, env) {
      const ctx = await jobContext(env, job.data);
      if (!ctx) return { skipped: 'organization deleted' };
      const kind = kinds[job.data.kind];
      const subject = await subjectOf(env.db, env.settings, kind, job.data.id);
      const group = subject && (await groupOf(env.db, kind, subject.id, job.data.group));
      if (!subject || !group) return { skipped: `no ${job.data.group} group` };
      const members = await membersNow(ctx, kind, subject.id, job.data.group);
      const plugin = await activeInstance(env.db, env.settings, subject.project.id, 'participant_group');
      const log = { info: (m: string) => env.log.info({ job: job.id }, m), warn: (m: string) => env.log.warn({ job: job.id }, m) };
      const to = plugin ? await plugin.plugin.recipients(group, members, plugin.config, pluginEnv(env.settings, job.id, log)) : members;
      if (to.length === 0) return { skipped: 'the group has no members' };
      await env.db.transaction((tx) => enqueueEmail(tx, subject.project.id, mailOf(subject, job.data.message, to), `${job.id}:mail`));
      return { to: to.length };
    },
  }),
];
