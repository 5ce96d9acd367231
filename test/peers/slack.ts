// A local Slack for tests: an HTTP server speaking the Web API methods Muster calls, with Slack's
// documented request and response shapes (form-encoded or JSON arguments, a Bearer token,
// `{ok: true, ...}` or `{ok: false, error}` answers, 429 with Retry-After when rate limiting). It
// keeps a workspace (users, channels, their members and messages, opened views), records every call,
// and can be told to fail a method. It also receives what Muster posts to `response_url`s, and
// signs requests to Muster the way Slack does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { slackSignature } from '../../src/plugins/builtin/slack/signature.ts';
import { readBody } from './http-peer.ts';

export interface SlackCall {
  method: string;
  args: Record<string, any>;
}

export interface SlackChannel {
  id: string;
  name: string;
  is_private: boolean;
  is_archived: boolean;
  topic: string;
  members: Set<string>;
  messages: { ts: string; user: string | null; text: string; blocks?: unknown[]; thread_ts?: string }[];
}

export interface SlackUserRecord {
  id: string;
  email: string;
  name: string;
}

type Failure = { error: string } | { ratelimited: number };

export interface SlackPeer {
  /** Base URL of the Web API (`api_url` of the plugin's configuration). */
  apiUrl: string;
  token: string;
  calls: SlackCall[];
  channels: Map<string, SlackChannel>;
  users: Map<string, SlackUserRecord>;
  views: Map<string, { trigger_id: string; view: any }>;
  /** What was posted to response URLs, by the URL's id. */
  responses: { id: string; body: any }[];
  /** Calls of one method, in order. */
  callsOf(method: string): Record<string, any>[];
  /** A workspace member; returns the user's id. */
  addUser(email: string, name?: string): string;
  /** A channel that exists before Muster calls (e.g. a notification target); returns its id. */
  addChannel(name: string, members?: string[]): string;
  /** A message someone posted in a channel; returns its ts. */
  addMessage(channel: string, user: string, text: string): string;
  /** Fails the next `times` calls of `method`. */
  fail(method: string, failure: Failure, times?: number): void;
  /** A fresh response_url for a command or an action. */
  responseUrl(): string;
  /** Methods that take an app-level token instead of the bot's (apps.connections.open): the token, and the answer. */
  appMethods: Map<string, { token: string; answer: (args: Record<string, any>) => object }>;
  close(): Promise<void>;
}

/** Form arguments as the official clients send them: objects and arrays JSON-encoded. */
function parseArgs(contentType: string | undefined, raw: string): Record<string, any> {
  if (!raw) return {};
  if (contentType?.includes('application/json')) return JSON.parse(raw);
  const out: Record<string, any> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    if (/^[[{]/.test(v)) {
      try {
        out[k] = JSON.parse(v);
        continue;
      } catch {
        // a plain string that starts like JSON
      }
    }
    out[k] = v === 'true' ? true : v === 'false' ? false : v;
  }
  return out;
}

export async function startSlack(opts: { token?: string } = {}): Promise<SlackPeer> {
  const token = opts.token ?? 'xoxb-test-token';
  const calls: SlackCall[] = [];
  const channels = new Map<string, SlackChannel>();
  const users = new Map<string, SlackUserRecord>();
  const views = new Map<string, { trigger_id: string; view: any }>();
  const responses: { id: string; body: any }[] = [];
  const failures = new Map<string, { failure: Failure; times: number }>();
  const appMethods: SlackPeer['appMethods'] = new Map();
  let seq = 0;
  let clock = 1_700_000_000;
  const nextTs = () => `${++clock}.${String(++seq).padStart(6, '0')}`;

  const channelOf = (ref: string | undefined) => {
    if (!ref) return undefined;
    return channels.get(ref) ?? [...channels.values()].find((c) => c.name === ref.replace(/^#/, ''));
  };
  const channelWire = (c: SlackChannel) => ({
    id: c.id,
    name: c.name,
    is_channel: !c.is_private,
    is_private: c.is_private,
    is_archived: c.is_archived,
    topic: { value: c.topic },
    num_members: c.members.size,
  });
  const userWire = (u: SlackUserRecord) => ({ id: u.id, name: u.email.split('@')[0], real_name: u.name, profile: { email: u.email, real_name: u.name } });

  // Each method: arguments in, Slack's answer out (`ok` is added); a thrown string is Slack's error.
  const methods: Record<string, (a: Record<string, any>) => object> = {
    'auth.test': () => ({ url: 'https://muster-test.slack.com/', team: 'Muster test', user: 'muster', team_id: 'T0001', user_id: 'UBOT' }),
    'conversations.create': (a) => {
      const name = String(a.name ?? '');
      if (!name) throw 'invalid_name_required';
      if (!/^[a-z0-9_-]{1,80}$/.test(name)) throw 'invalid_name_specials';
      if ([...channels.values()].some((c) => c.name === name)) throw 'name_taken';
      const id = `C${String(++seq).padStart(8, '0')}`;
      const channel: SlackChannel = { id, name, is_private: a.is_private === true, is_archived: false, topic: '', members: new Set(['UBOT']), messages: [] };
      channels.set(id, channel);
      return { channel: { id, name, is_private: channel.is_private, is_archived: false } };
    },
    'conversations.setTopic': (a) => {
      const c = channelOf(a.channel);
      if (!c) throw 'channel_not_found';
      c.topic = String(a.topic ?? '');
      return { channel: { id: c.id, topic: { value: c.topic } } };
    },
    'conversations.invite': (a) => {
      const c = channelOf(a.channel);
      if (!c) throw 'channel_not_found';
      if (c.is_archived) throw 'is_archived';
      const ids = String(a.users ?? '')
        .split(',')
        .filter(Boolean);
      if (ids.length === 0) throw 'no_user';
      const known = (id: string) => [...users.values()].some((u) => u.id === id);
      // Without force, one bad id fails the whole call; with it, the others are invited and the bad ones listed.
      const errors = ids.flatMap((id) =>
        !known(id) ? [{ user: id, ok: false, error: 'user_not_found' }] : c.members.has(id) ? [{ user: id, ok: false, error: 'already_in_channel' }] : [],
      );
      if (errors.length && (a.force !== true || errors.length === ids.length)) throw errors[0].error;
      for (const id of ids) if (known(id)) c.members.add(id);
      return { channel: { id: c.id, name: c.name }, ...(errors.length ? { errors } : {}) };
    },
    'conversations.info': (a) => {
      const c = channelOf(a.channel);
      if (!c || c.id !== a.channel) throw 'channel_not_found';
      return { channel: channelWire(c) };
    },
    'conversations.list': (a) => {
      const types = String(a.types ?? 'public_channel').split(',');
      const all = [...channels.values()].filter(
        (c) => types.includes(c.is_private ? 'private_channel' : 'public_channel') && !(a.exclude_archived === true && c.is_archived),
      );
      // Pages as Slack gives them: `limit` channels, then a cursor for the rest ('' after the last page).
      const limit = Math.max(1, Math.min(Number(a.limit ?? 100), 1000));
      const from = a.cursor ? Number(Buffer.from(String(a.cursor), 'base64').toString()) : 0;
      const next = from + limit < all.length ? Buffer.from(String(from + limit)).toString('base64') : '';
      return { channels: all.slice(from, from + limit).map(channelWire), response_metadata: { next_cursor: next } };
    },
    'conversations.archive': (a) => {
      const c = channelOf(a.channel);
      if (!c) throw 'channel_not_found';
      if (c.is_archived) throw 'already_archived';
      c.is_archived = true;
      return {};
    },
    'conversations.history': (a) => {
      const c = channelOf(a.channel);
      if (!c) throw 'channel_not_found';
      const messages = c.messages.filter((m) => (!a.latest || m.ts <= a.latest) && (!a.oldest || m.ts >= a.oldest)).reverse();
      return { messages: messages.slice(0, Number(a.limit ?? 100)), has_more: false };
    },
    'conversations.replies': (a) => {
      const c = channelOf(a.channel);
      if (!c) throw 'channel_not_found';
      const thread = c.messages.filter((m) => m.ts === a.ts || m.thread_ts === a.ts);
      if (thread.length === 0) throw 'thread_not_found';
      return { messages: thread.filter((m) => (!a.latest || m.ts <= a.latest) && (!a.oldest || m.ts >= a.oldest)), has_more: false };
    },
    'chat.postMessage': (a) => {
      const c = channelOf(a.channel);
      if (!c) throw 'channel_not_found';
      if (c.is_archived) throw 'is_archived';
      if (!a.text && !a.blocks) throw 'no_text';
      const ts = nextTs();
      c.messages.push({ ts, user: 'UBOT', text: String(a.text ?? ''), blocks: a.blocks, thread_ts: a.thread_ts });
      return { channel: c.id, ts, message: { ts, text: a.text, user: 'UBOT' } };
    },
    'chat.postEphemeral': (a) => {
      const c = channelOf(a.channel);
      if (!c) throw 'channel_not_found';
      if (!a.user) throw 'user_not_found';
      if (!a.text && !a.blocks) throw 'no_text';
      return { message_ts: nextTs() };
    },
    'users.lookupByEmail': (a) => {
      const u = users.get(String(a.email ?? '').toLowerCase());
      if (!u) throw 'users_not_found';
      return { user: userWire(u) };
    },
    'users.info': (a) => {
      const u = [...users.values()].find((x) => x.id === a.user);
      if (!u) throw 'user_not_found';
      return { user: userWire(u) };
    },
    'views.open': (a) => {
      if (!a.trigger_id) throw 'invalid_arguments';
      if (!a.view || typeof a.view !== 'object' || !a.view.type) throw 'invalid_arguments';
      const id = `V${String(++seq).padStart(8, '0')}`;
      views.set(id, { trigger_id: a.trigger_id, view: a.view });
      return { view: { id, ...a.view } };
    },
    'views.update': (a) => {
      const v = views.get(a.view_id);
      if (!v) throw 'not_found';
      v.view = a.view;
      return { view: { id: a.view_id, ...a.view } };
    },
  };

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const send = (status: number, body: object, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://peer');
    if (url.pathname.startsWith('/respond/')) {
      responses.push({ id: url.pathname.slice('/respond/'.length), body: raw ? JSON.parse(raw) : null });
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return res.end('ok');
    }
    const method = url.pathname.replace(/^\/api\//, '');
    const args = parseArgs(req.headers['content-type'], raw);
    calls.push({ method, args });
    const auth = req.headers.authorization ?? (args.token ? `Bearer ${args.token}` : undefined);
    if (!auth) return send(200, { ok: false, error: 'not_authed' });
    const appMethod = appMethods.get(method);
    if (appMethod) {
      if (auth === `Bearer ${appMethod.token}`) return send(200, { ok: true, ...appMethod.answer(args) });
      return send(200, { ok: false, error: auth === `Bearer ${token}` ? 'not_allowed_token_type' : 'invalid_auth' });
    }
    if (auth !== `Bearer ${token}`) return send(200, { ok: false, error: 'invalid_auth' });
    const f = failures.get(method);
    if (f && f.times > 0) {
      f.times--;
      if ('ratelimited' in f.failure) return send(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': String(f.failure.ratelimited) });
      return send(200, { ok: false, error: f.failure.error });
    }
    const handler = methods[method];
    if (!handler) return send(404, { ok: false, error: 'unknown_method' });
    try {
      return send(200, { ok: true, ...handler(args) });
    } catch (error) {
      if (typeof error === 'string') return send(200, { ok: false, error });
      return send(500, { ok: false, error: 'internal_error' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${base}/api/`,
    token,
    calls,
    channels,
    users,
    views,
    responses,
    callsOf: (method) => calls.filter((c) => c.method === method).map((c) => c.args),
    addUser(email, name) {
      const id = `U${String(++seq).padStart(8, '0')}`;
      users.set(email.toLowerCase(), { id, email, name: name ?? email.split('@')[0] });
      return id;
    },
    addChannel(name, members = []) {
      const id = `C${String(++seq).padStart(8, '0')}`;
      channels.set(id, { id, name, is_private: false, is_archived: false, topic: '', members: new Set(['UBOT', ...members]), messages: [] });
      return id;
    },
    addMessage(channel, user, text) {
      const c = channelOf(channel);
      if (!c) throw new Error(`no channel ${channel}`);
      const ts = nextTs();
      c.messages.push({ ts, user, text });
      return ts;
    },
    fail(method, failure, times = 1) {
      failures.set(method, { failure, times });
    },
    responseUrl: () => `${base}/respond/${++seq}`,
    appMethods,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The headers Slack signs a request to Muster with (a stale `timestamp` for replay tests). */
export function slackHeaders(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const ts = String(timestamp);
  return { 'x-slack-request-timestamp': ts, 'x-slack-signature': slackSignature(secret, ts, body) };
}

/** A slash command's body, form-encoded as Slack sends it. */
export function commandBody(fields: {
  command: string;
  text?: string;
  user_id: string;
  channel_id: string;
  channel_name?: string;
  trigger_id?: string;
  response_url: string;
  team_id?: string;
}): string {
  return new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: fields.team_id ?? 'T0001',
    team_domain: 'muster-test',
    channel_name: 'whatever',
    user_name: 'someone',
    api_app_id: 'A0001',
    trigger_id: fields.trigger_id ?? `trigger-${Math.random().toString(36).slice(2)}`,
    text: fields.text ?? '',
    ...fields,
  } as Record<string, string>).toString();
}

/** An interactive payload (block actions, view submissions, option requests), form-encoded as Slack sends it. */
export const payloadBody = (payload: object) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
