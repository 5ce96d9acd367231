// The job that brings who is let in outside Muster in line with a record's people, enqueued when
// they change (plugin/memberships.ts): its folder shared with them (folder-sharing.ts) and its
// groups' member lists (the participant-group plugin's `members`). The chat channel has a job of
// its own (conversation-sync), as it also posts, in order, what the record says. Each step runs
// whatever the other did, reads the people as they are when it runs, and is safe to repeat; a
// vendor that fails fails the job after its retries, never the write that enqueued it. A Closed
// record is left as it is (closing makes everyone inactive): its people still write its review.
import type { JobDefinition, JobEnv } from '../../jobs/definition.ts';
import { defineJob } from '../../jobs/definition.ts';
import { isRetryLater, RetryLater } from '../../lib/retry-later.ts';
import type { PluginEnv, Subject } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { listGroupRows } from '../group/service.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { subjectOf } from '../lifecycle/subject.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { type MembershipsJob, RECORD_MEMBERSHIPS } from '../plugin/memberships.ts';
import { shareWithPeople } from './folder-sharing.ts';
import { membersNow } from './resources.ts';

// Outside systems that are down for a while: retried after about 10 s, 20 s, 40 s, 80 s, 160 s.
const RETRIES = { retryLimit: 5, retryDelay: 10, expireInSeconds: 300 } as const;

/** Brings each of the record's groups' member lists in line with its members now; answers how many groups. */
async function keepGroups(env: JobEnv, kind: RecordKind, subject: Subject, pluginEnv: PluginEnv): Promise<number | string> {
  const groups = await listGroupRows(env.db, kind, subject.id);
  if (groups.length === 0) return 'no groups';
  const plugin = await activeInstance(env.db, env.settings, subject.project.id, 'participant_group');
  if (!plugin?.plugin.members) return 'the group plugin keeps no member lists';
  // The job acts for no one: it keeps in line what Muster made. Routing reads only the organization.
  const ctx: Ctx = { db: env.db, settings: env.settings, organization: subject.organization, user: { id: 0, email: '' }, role: 'Owner' };
  for (const group of groups) await plugin.plugin.members(group, await membersNow(ctx, kind, subject.id, group.kind), plugin.config, pluginEnv);
  return groups.length;
}

/** The job; the app gives it the kinds of records. */
export const membershipsJob = (kinds: Record<'incident' | 'case', RecordKind>): JobDefinition =>
  defineJob<MembershipsJob>({
    name: RECORD_MEMBERSHIPS,
    policy: 'singleton',
    ...RETRIES,
    async run(job, env) {
      const kind = kinds[job.data.kind];
      const subject = await subjectOf(env.db, env.settings, kind, job.data.record_id);
      if (!subject || subject.organization.id !== job.data.organization_id) return { skipped: 'record deleted' };
      // Closing makes everyone inactive; the folder and the groups stay as they were, for the review.
      if (subject.status === 'Closed') return { skipped: `${kind.name} closed` };
      const bindings = { job: job.id, queue: job.name, [kind.name]: subject.id };
      const plugins = pluginEnv(env.settings, job.id, {
        info: (msg: string) => env.log.info(bindings, msg),
        warn: (msg: string) => env.log.warn(bindings, msg),
      });
      const failed: string[] = [];
      // The longest a refusing vendor asked to wait (a 429's Retry-After): the retry comes no sooner.
      let wait = 0;
      const step = async <T>(what: string, run: () => Promise<T>): Promise<T | string> => {
        try {
          return await run();
        } catch (err) {
          env.log.warn({ ...bindings, err: (err as Error).message }, `${what} failed`);
          failed.push(`${what} of ${kind.name} ${subject.id}: ${(err as Error).message}`);
          if (isRetryLater(err)) wait = Math.max(wait, err.seconds);
          return 'failed';
        }
      };
      const folder = await step('sharing the folder', () => shareWithPeople(env.db, env.settings, kind, subject, plugins));
      const groups = await step('the groups\u2019 members', () => keepGroups(env, kind, subject, plugins));
      // Thrown after both had their turn: the retry does again only what is not in line yet.
      if (failed.length) throw wait ? new RetryLater(wait, failed.join('; ')) : new Error(failed.join('; '));
      return { folder, groups };
    },
  });
