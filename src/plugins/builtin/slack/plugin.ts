// Muster's Slack plugin (type `conversation`): an incident's channel, its people and its messages
// in a Slack workspace, and the commands, actions and events Slack sends back (src/chat/). Every
// call here runs in a job; a rate limit becomes a retry after Slack's Retry-After.
import { authoredByMuster } from '../authored.ts';
import type { ConversationPlugin, PluginEnv } from '../../types.ts';
import { SlackApi, isSlackError } from './api.ts';
import { slackConfiguration, slackSettings } from './config.ts';

export const SLACK_PLUGIN_SLUG = 'slack-conversation';

/** Slack's rules for a channel name: lower case, no spaces or dots, at most 80 characters. */
export const channelName = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 76) || 'incident';

/** A link that opens the channel in whatever Slack client the reader uses. */
export const channelLink = (id: string) => `https://slack.com/app_redirect?channel=${encodeURIComponent(id)}`;

const api = (config: Record<string, unknown>, env: PluginEnv) => new SlackApi(slackSettings(config), env.outbound);

export const slackPlugin: ConversationPlugin = {
  slug: SLACK_PLUGIN_SLUG,
  title: 'Slack Plugin - Conversation Management',
  type: 'conversation',
  ...authoredByMuster,
  description: 'Runs incidents in Slack: a channel per incident, its people invited, its changes posted, and slash commands.',
  configuration: slackConfiguration,

  async send(channel, text, config, env) {
    // A notification's target is a channel id or a #name; Slack accepts both for posting.
    await api(config, env).post(channel.replace(/^#/, ''), { text });
  },

  async createChannel(name, opts, config, env) {
    const slack = api(config, env);
    const base = channelName(name);
    const isPrivate = opts.private || slackSettings(config).privateChannels;
    // A name taken (an earlier workspace's channel, or this job's own first attempt) gets a suffix.
    for (let n = 1; n <= 5; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      try {
        const channel = await slack.createChannel(candidate, isPrivate);
        if (opts.topic) await slack.setTopic(channel.id, opts.topic.slice(0, 250));
        env.log.info(`Slack channel ${channel.name} created`);
        return { id: channel.id, name: channel.name, weblink: channelLink(channel.id) };
      } catch (err) {
        if (!isSlackError(err, 'name_taken')) throw err;
      }
    }
    throw new Error(`Slack conversations.create: the names ${base} to ${base}-5 are all taken`);
  },

  async setTopic(channelId, topic, config, env) {
    // Slack refuses a topic longer than 250 characters.
    await api(config, env).setTopic(channelId, topic.slice(0, 250));
  },

  async findChannel(target, config, env) {
    const slack = api(config, env);
    const ref = target.trim().replace(/^#/, '');
    // An id (C... public, G... private) is read as it is; anything else is a channel's name.
    const found = /^[CG][A-Z0-9]{6,}$/.test(ref) ? await slack.channel(ref) : await slack.channelByName(channelName(ref));
    return found && !found.is_archived ? { id: found.id, name: found.name, weblink: channelLink(found.id) } : null;
  },

  async invite(channelId, emails, config, env) {
    const slack = api(config, env);
    const invited: string[] = [];
    const unknown: string[] = [];
    const ids: string[] = [];
    for (const email of new Set(emails)) {
      const user = await slack.userByEmail(email);
      if (user) {
        ids.push(user.id);
        invited.push(email);
      } else unknown.push(email);
    }
    await slack.invite(channelId, ids);
    return { invited, unknown };
  },

  async post(channelId, message, config, env) {
    const { ts } = await api(config, env).post(channelId, { ...message, thread_ts: message.thread });
    return { ts };
  },

  async archive(channelId, config, env) {
    await api(config, env).archive(channelId);
  },
};
