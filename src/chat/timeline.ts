// Messages into the timeline: a participant marks a message of an incident's channel with the
// configured reaction (`timeline_reaction`, Dispatch's stopwatch), and the message becomes a
// timeline event of the incident, in the name of its author at the time it was written. The event
// request only enqueues; the job asks Slack for the message and its author, and adds the entry
// once however often the message is marked (keyed by channel and message time).
import { enqueue } from '../jobs/queue.ts';
import { recordOfChannel } from '../domains/lifecycle/channel.ts';
import { addTimelineEntry } from '../domains/incident/service.ts';
import { SYSTEM_USER } from '../domains/project/each.ts';
import { isSlackError, type SlackApi } from '../plugins/builtin/slack/api.ts';
import type { Ctx } from '../server/context.ts';
import type { ChatEnv, SlackInstance } from './request.ts';

export const CHAT_TIMELINE_MESSAGE = 'chat-timeline-message';

export interface TimelineMessageJob {
  instance_id: number;
  organization: { id: number; slug: string };
  channel: string;
  ts: string;
}

interface ReactionEvent {
  type?: string;
  reaction?: string;
  item?: { type?: string; channel?: string; ts?: string };
}

const SLACK_TS = /^\d{1,12}\.\d{1,8}$/;

/** A `reaction_added` event: enqueues the import when it is the timeline reaction on a message. */
export async function reactionAdded(env: ChatEnv, signed: SlackInstance, organizationSlug: string, event: ReactionEvent): Promise<void> {
  const { item } = event;
  if (event.reaction !== signed.slack.timelineReaction || item?.type !== 'message' || !item.channel || !item.ts || !SLACK_TS.test(item.ts)) return;
  const data: TimelineMessageJob = {
    instance_id: signed.instance.id,
    organization: { id: signed.instance.organizationId, slug: organizationSlug },
    channel: item.channel,
    ts: item.ts,
  };
  await enqueue(env.db, CHAT_TIMELINE_MESSAGE, data, { key: `${data.organization.id}:${item.channel}:${item.ts}` });
}

/** The message, in the channel or (a reply) in its thread. */
async function messageOf(api: SlackApi, channel: string, ts: string) {
  const inChannel = await api.message(channel, ts);
  if (inChannel) return inChannel;
  try {
    return await api.message(channel, ts, ts);
  } catch (err) {
    if (isSlackError(err, 'thread_not_found', 'message_not_found')) return null;
    throw err;
  }
}

/** People mentioned as `<@U123>`, named as Slack names them (at most a few lookups per message). */
async function withNames(api: SlackApi, text: string): Promise<string> {
  const ids = [...new Set([...text.matchAll(/<@([A-Z0-9]+)>/g)].map((m) => m[1]))].slice(0, 10);
  let out = text;
  for (const id of ids) {
    const name = (await api.user(id))?.name;
    if (name) out = out.replaceAll(`<@${id}>`, `@${name}`);
  }
  return out;
}

/** The job: the message as a timeline event of the channel's incident, once. */
export async function importMessage(env: ChatEnv, api: SlackApi, data: TimelineMessageJob): Promise<object> {
  const record = await recordOfChannel(env.db, data.organization.id, data.channel);
  if (record?.kind !== 'incident') return { skipped: 'not an incident channel' };
  const message = await messageOf(api, data.channel, data.ts);
  if (!message) return { skipped: 'message not found' };
  const author = message.user ? ((await api.user(message.user))?.name ?? message.user) : null;
  // Muster itself writes it: whoever marked the message, its author is who the timeline names.
  const ctx: Ctx = { db: env.db, settings: env.settings, user: SYSTEM_USER, organization: data.organization, role: 'Owner' };
  const added = await addTimelineEntry(ctx, record.id, {
    description: await withNames(api, message.text),
    at: new Date(Number(data.ts) * 1000),
    owner: author ?? 'Unknown',
    source: 'Slack',
    type: 'Imported message',
    details: { channel_id: data.channel, message_ts: data.ts },
    key: `slack:${data.channel}:${data.ts}`,
  });
  return { incident: record.id, added };
}
