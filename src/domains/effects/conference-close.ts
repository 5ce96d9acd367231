// An incident's meeting ended when the incident closes: a `conference-close` job enqueued in the
// write's transaction, which asks the project's conference plugin to delete the meeting (Zoom's,
// Teams') and tells the timeline. A vendor that refuses or is down fails the job, never the write.
import type { Executor } from '../../db/connection.ts';
import { defineJob } from '../../jobs/definition.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { Ctx } from '../../server/context.ts';
import { closeConference } from '../conference/service.ts';
import { type EffectsContext, jobContext } from './job-context.ts';

const CONFERENCE_CLOSE = 'conference-close';

interface ConferenceCloseJob extends EffectsContext {
  id: number;
}

/** Enqueues the end of a closed incident's meeting, in the write's transaction. */
export async function enqueueConferenceClose(tx: Executor, ctx: Ctx, incidentId: number) {
  const data: ConferenceCloseJob = { organization_id: ctx.organization.id, user: { id: ctx.user.id, email: ctx.user.email }, id: incidentId };
  await enqueue(tx, CONFERENCE_CLOSE, data);
}

export const conferenceCloseJob = defineJob<ConferenceCloseJob>({
  name: CONFERENCE_CLOSE,
  // A vendor down for a while: retried after about 10 s, 20 s, 40 s, 80 s, 160 s (as the meeting's making is).
  retryLimit: 5,
  retryDelay: 10,
  async run(job, env) {
    const ctx = await jobContext(env, job.data);
    if (!ctx) return { skipped: 'organization deleted' };
    const log = {
      info: (m: string) => env.log.info({ job: job.id, queue: job.name }, m),
      warn: (m: string) => env.log.warn({ job: job.id, queue: job.name }, m),
    };
    const ended = await env.db.transaction((tx) => closeConference(tx, ctx, job.data.id, log, job.id));
    return ended ? { ended: job.data.id } : { skipped: 'no meeting to end (none, the incident reopened, or no conference plugin)' };
  },
});
