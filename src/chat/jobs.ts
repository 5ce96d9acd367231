// The chat platform's jobs: a command's (or a button's) work answered through its response URL, a
// message to a person, a message copied into an incident's timeline. Each acts through the Slack
// instance that signed the request; a rate limit is retried after Slack's Retry-After.
import { instanceOfType } from '../domains/plugin/active.ts';
import { outboundFor } from '../lib/outbound/client.ts';
import { defineJob, type JobDefinition, type JobEnv } from '../jobs/definition.ts';
import { SlackApi } from '../plugins/builtin/slack/api.ts';
import { slackSettings } from '../plugins/builtin/slack/config.ts';
import { CHAT_COMMAND, CHAT_REPLY, type CommandJob, deliver, type ReplyJob, runReply } from './run.ts';
import { CHAT_TIMELINE_MESSAGE, importMessage, type TimelineMessageJob } from './timeline.ts';

/** Slack's settings and client of the instance a job acts through; none when it was deleted since. */
async function slackOf(env: JobEnv, instanceId: number) {
  const instance = await instanceOfType(env.db, env.settings, instanceId, 'conversation');
  if (!instance) return undefined;
  const slack = slackSettings(instance.config);
  return { slack, api: new SlackApi(slack, outboundFor(env.settings.outboundAllow)) };
}

// Answers are worth little after a while (a response URL lasts 30 minutes): few, quick retries.
const ANSWER = { retryLimit: 4, retryDelay: 5, expireInSeconds: 120 };

export const CHAT_JOBS: JobDefinition[] = [
  defineJob<CommandJob>({
    name: CHAT_COMMAND,
    ...ANSWER,
    async run(job, env) {
      const s = await slackOf(env, job.data.instance_id);
      if (!s) return { skipped: 'Slack instance deleted' };
      await runReply(env, s.api, s.slack, job.data.inv);
      return { flow: job.data.inv.flow };
    },
  }),
  defineJob<ReplyJob>({
    name: CHAT_REPLY,
    ...ANSWER,
    async run(job, env) {
      const s = await slackOf(env, job.data.instance_id);
      if (!s) return { skipped: 'Slack instance deleted' };
      await deliver(s.api, job.data.inv, { text: job.data.text });
      return { delivered: true };
    },
  }),
  defineJob<TimelineMessageJob>({
    name: CHAT_TIMELINE_MESSAGE,
    expireInSeconds: 120,
    async run(job, env) {
      const s = await slackOf(env, job.data.instance_id);
      if (!s) return { skipped: 'Slack instance deleted' };
      return importMessage(env, s.api, job.data);
    },
  }),
];
