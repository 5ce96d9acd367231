// Messages to the world outside Muster, one job each: an e-mail, a chat post, a webhook delivery,
// sent through the project's active plugin of that type. They are enqueued in the transaction that
// decides to send them, keyed by what they are for, so a retried parent never sends one twice; the
// job's id is the plugin's idempotency key (the e-mail's Message-ID, the webhook's
// Idempotency-Key), the same on every retry of the send itself. A project without an active
// plugin of the type sends nothing: the job logs it and completes.
import type { Executor } from '../../db/connection.ts';
import { defineJob, type JobEnv } from '../../jobs/definition.ts';
import type { JobInfo } from '../../jobs/queue.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { EmailMessage, PluginType } from '../../plugins/types.ts';
import { activeInstance, pluginEnv } from './active.ts';

// An outside system that is down for a while: retried after about 5 s, 10 s, 20 s, 40 s, 80 s.
const RETRIES = { retryLimit: 5, retryDelay: 5, expireInSeconds: 120 } as const;

export const EMAIL_JOB = 'notification-email';
export const CONVERSATION_JOB = 'notification-conversation';
export const WEBHOOK_JOB = 'notification-webhook';

interface ProjectMessage {
  project_id: number;
}
export interface EmailJob extends ProjectMessage {
  message: EmailMessage;
}
export interface ConversationJob extends ProjectMessage {
  channel: string;
  text: string;
}
export interface WebhookJob extends ProjectMessage {
  url: string;
  event: string;
  payload: unknown;
}

/**
 * Enqueues an e-mail to `message.to` through the project's active e-mail plugin, in the caller's
 * transaction. `key` names what it is for (unique among e-mails): asking again with the same key
 * enqueues nothing more. Returns the job's id.
 */
export const enqueueEmail = (tx: Executor, projectId: number, message: EmailMessage, key: string) =>
  enqueue(tx, EMAIL_JOB, { project_id: projectId, message } satisfies EmailJob, { key });

export const enqueueConversation = (tx: Executor, projectId: number, channel: string, text: string, key: string) =>
  enqueue(tx, CONVERSATION_JOB, { project_id: projectId, channel, text } satisfies ConversationJob, { key });

export const enqueueWebhook = (tx: Executor, projectId: number, url: string, event: string, payload: unknown, key: string) =>
  enqueue(tx, WEBHOOK_JOB, { project_id: projectId, url, event, payload } satisfies WebhookJob, { key });

/** The project's active plugin of `type` and what its functions are given, or a logged skip. */
async function through<T extends PluginType>(job: JobInfo<ProjectMessage>, env: JobEnv, type: T) {
  const active = await activeInstance(env.db, env.settings, job.data.project_id, type);
  if (!active) env.log.info({ job: job.id, queue: job.name, project: job.data.project_id }, `no active ${type} plugin: message not sent`);
  const log = {
    info: (msg: string) => env.log.info({ job: job.id, queue: job.name }, msg),
    warn: (msg: string) => env.log.warn({ job: job.id, queue: job.name }, msg),
  };
  return active && { ...active, env: pluginEnv(env.settings, job.id, log) };
}

const skipped = (type: string) => ({ skipped: `no active ${type} plugin` });

export const emailJob = defineJob<EmailJob>({
  name: EMAIL_JOB,
  ...RETRIES,
  async run(job, env) {
    const p = await through(job, env, 'email');
    if (!p) return skipped('email');
    await p.plugin.send(job.data.message, p.config, p.env);
    return { sent: job.data.message.to.length };
  },
});

export const conversationJob = defineJob<ConversationJob>({
  name: CONVERSATION_JOB,
  ...RETRIES,
  async run(job, env) {
    const p = await through(job, env, 'conversation');
    if (!p) return skipped('conversation');
    await p.plugin.send(job.data.channel, job.data.text, p.config, p.env);
    return { sent: 1 };
  },
});

export const webhookJob = defineJob<WebhookJob>({
  name: WEBHOOK_JOB,
  ...RETRIES,
  async run(job, env) {
    const p = await through(job, env, 'webhook');
    if (!p) return skipped('webhook');
    await p.plugin.deliver({ url: job.data.url, event: job.data.event, payload: job.data.payload }, p.config, p.env);
    return { sent: 1 };
  },
});

/** Every message job, for app/jobs.ts. */
export const MESSAGE_JOBS = [emailJob, conversationJob, webhookJob];
