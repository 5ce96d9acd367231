// Slack's Web API as Muster uses it, through the official client (@slack/web-api) pointed at the
// configured base URL. The client's own retries are off: a call runs in a job, and the job is what
// retries, after the Retry-After Slack asked for (RetryLater) or the queue's back-off. Errors name
// the method and Slack's error code, never the token.
import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';
import type { Outbound } from '../../../lib/outbound/client.ts';
import { RetryLater } from '../../../lib/retry-later.ts';
import type { ChatMessage } from '../../types.ts';
import type { SlackSettings } from './config.ts';

const TIMEOUT_MS = 10_000;

/** Slack answered `ok: false`: `code` is its `error` (channel_not_found, users_not_found, ...). */
export class SlackCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: string,
  ) {
    super(`Slack ${method}: ${code}`);
    this.name = 'SlackCallError';
  }
}

/** Slack did not answer (a network failure, a timeout, an HTTP error other than a rate limit). */
export class SlackUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlackUnavailable';
  }
}

export const isSlackError = (err: unknown, ...codes: string[]) => err instanceof SlackCallError && codes.includes(err.code);

/** A channel as conversations.info and conversations.list give it. */
export interface SlackChannelInfo {
  id: string;
  name: string;
  is_archived: boolean;
}

export interface SlackUser {
  id: string;
  email: string | null;
  name: string | null;
}

/** A message of a channel, as conversations.history gives it. */
export interface SlackMessage {
  ts: string;
  text: string;
  user: string | null;
}

/** Every Web API method Muster calls; one client per configuration. */
export class SlackApi {
  private readonly client: WebClient;

  /**
   * `outbound`: the way out every call takes; `timeoutMs`: how long one call may take (shorter for
   * calls made while Slack waits for Muster's answer).
   */
  constructor(
    settings: Pick<SlackSettings, 'botToken' | 'apiUrl'>,
    readonly outbound: Outbound,
    opts: { timeoutMs?: number } = {},
  ) {
    this.client = new WebClient(settings.botToken, {
      fetch: outbound.fetch,
      slackApiUrl: settings.apiUrl.endsWith('/') ? settings.apiUrl : `${settings.apiUrl}/`,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: opts.timeoutMs ?? TIMEOUT_MS,
      logLevel: LogLevel.ERROR,
      allowAbsoluteUrls: false,
    });
  }

  private async call<T>(method: string, args: Record<string, unknown>): Promise<T> {
    try {
      return (await this.client.apiCall(method, args)) as T;
    } catch (err) {
      throw translate(method, err);
    }
  }

  /** A look-up's answer, read by `read`; null when Slack answers `missing` (nothing by that id or e-mail). */
  private async find<W, T>(method: string, args: Record<string, unknown>, missing: string, read: (answer: W) => T): Promise<T | null> {
    try {
      return read(await this.call<W>(method, args));
    } catch (err) {
      if (isSlackError(err, missing)) return null;
      throw err;
    }
  }

  async createChannel(name: string, isPrivate: boolean): Promise<{ id: string; name: string }> {
    const r = await this.call<{ channel: { id: string; name: string } }>('conversations.create', { name, is_private: isPrivate });
    return r.channel;
  }

  async setTopic(channel: string, topic: string): Promise<void> {
    await this.call('conversations.setTopic', { channel, topic });
  }

  /** The Slack user with this e-mail, or null when the workspace has none. */
  userByEmail(email: string): Promise<SlackUser | null> {
    return this.find('users.lookupByEmail', { email }, 'users_not_found', (r: { user: SlackUserWire }) => userOf(r.user));
  }

  user(id: string): Promise<SlackUser | null> {
    return this.find('users.info', { user: id }, 'user_not_found', (r: { user: SlackUserWire }) => userOf(r.user));
  }

  async invite(channel: string, userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    try {
      // force: someone already there (or who cannot be invited) does not stop the others being invited.
      await this.call('conversations.invite', { channel, users: userIds.join(','), force: true });
    } catch (err) {
      // Inviting people who are there already changes nothing: a retried job meets it.
      if (!isSlackError(err, 'already_in_channel')) throw err;
    }
  }

  /** A channel by id, or null when the app can see none. */
  channel(id: string): Promise<SlackChannelInfo | null> {
    return this.find('conversations.info', { channel: id }, 'channel_not_found', (r: { channel: SlackChannelWire }) => channelOf(r.channel));
  }

  /** The unarchived channel with this name among those the app can see, read a page at a time. */
  async channelByName(name: string): Promise<SlackChannelInfo | null> {
    let cursor: string | undefined;
    do {
      const r = await this.call<{ channels?: SlackChannelWire[]; response_metadata?: { next_cursor?: string } }>('conversations.list', {
        types: 'public_channel,private_channel',
        exclude_archived: true,
        limit: 200,
        cursor,
      });
      const found = r.channels?.find((c) => c.name === name);
      if (found) return channelOf(found);
      cursor = r.response_metadata?.next_cursor || undefined;
    } while (cursor);
    return null;
  }

  async post(channel: string, message: ChatMessage & { thread_ts?: string }): Promise<{ channel: string; ts: string }> {
    return this.call('chat.postMessage', { channel, text: message.text, blocks: message.blocks, thread_ts: message.thread_ts, unfurl_links: false });
  }

  async postEphemeral(channel: string, user: string, message: ChatMessage): Promise<void> {
    await this.call('chat.postEphemeral', { channel, user, text: message.text, blocks: message.blocks });
  }

  async archive(channel: string): Promise<void> {
    try {
      await this.call('conversations.archive', { channel });
    } catch (err) {
      if (!isSlackError(err, 'already_archived')) throw err;
    }
  }

  async openView(triggerId: string, view: object): Promise<{ id: string }> {
    const r = await this.call<{ view: { id: string } }>('views.open', { trigger_id: triggerId, view });
    return r.view;
  }

  async updateView(viewId: string, view: object): Promise<void> {
    await this.call('views.update', { view_id: viewId, view });
  }

  /** One message of a channel (of a thread when `thread` is given), or null. */
  async message(channel: string, ts: string, thread?: string): Promise<SlackMessage | null> {
    const r = thread
      ? await this.call<{ messages?: SlackMessageWire[] }>('conversations.replies', { channel, ts: thread, latest: ts, oldest: ts, inclusive: true, limit: 1 })
      : await this.call<{ messages?: SlackMessageWire[] }>('conversations.history', { channel, latest: ts, oldest: ts, inclusive: true, limit: 1 });
    const m = r.messages?.find((x) => x.ts === ts);
    return m ? { ts: m.ts, text: m.text ?? '', user: m.user ?? null } : null;
  }
}

interface SlackUserWire {
  id: string;
  real_name?: string;
  name?: string;
  profile?: { email?: string; real_name?: string };
}
interface SlackChannelWire {
  id: string;
  name: string;
  is_archived?: boolean;
}
interface SlackMessageWire {
  ts: string;
  text?: string;
  user?: string;
}

const channelOf = (c: SlackChannelWire): SlackChannelInfo => ({ id: c.id, name: c.name, is_archived: c.is_archived === true });
const userOf = (u: SlackUserWire): SlackUser => ({ id: u.id, email: u.profile?.email ?? null, name: u.profile?.real_name ?? u.real_name ?? u.name ?? null });

function translate(method: string, err: unknown): Error {
  const e = err as { code?: string; retryAfter?: number; data?: { error?: string }; statusCode?: number };
  switch (e?.code) {
    case ErrorCode.RateLimitedError:
      return new RetryLater(e.retryAfter ?? 30, `Slack ${method}: ratelimited`);
    case ErrorCode.PlatformError:
      return new SlackCallError(method, e.data?.error ?? 'unknown_error');
    case ErrorCode.HTTPError:
      return new SlackUnavailable(`Slack ${method}: HTTP ${e.statusCode}`);
    default:
      return new SlackUnavailable(`Slack ${method}: ${(err as Error)?.message ?? 'request failed'}`);
  }
}

/**
 * Answers a command or an action through the `response_url` Slack gave with it (valid 30 minutes,
 * five times): ephemeral unless `in_channel`.
 */
export async function respond(
  outbound: Outbound,
  responseUrl: string,
  message: ChatMessage & { response_type?: 'ephemeral' | 'in_channel'; replace_original?: boolean },
) {
  const res = await outbound.fetch(responseUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ response_type: 'ephemeral', ...message }),
    timeoutMs: TIMEOUT_MS,
  });
  await res.body?.cancel();
  if (res.status === 429) throw new RetryLater(Number(res.headers.get('retry-after')) || 30, 'Slack response_url: ratelimited');
  if (!res.ok) throw new Error(`Slack response_url answered ${res.status}`);
}
