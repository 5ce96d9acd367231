// Test fixtures of the chat platform: the shared world (Owner, Admin and Member of `default`) with
// a local Slack whose workspace knows them, the default project's Slack instance configured and
// enabled through the API, and requests to the four endpoints signed as Slack signs them.
import { and, eq } from 'drizzle-orm';
import type { Settings } from '../../src/config.ts';
import { afterAll, beforeAll } from 'vitest';
import { installPlugins } from '../../src/domains/plugin/catalogue.ts';
import { plugin, pluginInstance } from '../../src/domains/plugin/table.ts';
import { caseTable, incident } from '../../src/domains/lifecycle/table.ts';
import { channelLink, SLACK_PLUGIN_SLUG } from '../../src/plugins/builtin/slack/plugin.ts';
import { call, LOCAL_PEERS, type Res } from '../helpers.ts';
import { drainJobs } from '../jobs.ts';
import { commandBody, payloadBody, slackHeaders, startSlack, type SlackPeer } from '../peers/slack.ts';
import { createWorld, type World } from './world.ts';

export const SIGNING_SECRET = 'slack-signing-secret-for-tests';

export interface SlackWorld extends World {
  slack: SlackPeer;
  projectId: number;
  instanceId: number;
  /** Slack user ids of the world's people, and of a Slack member Muster does not know. */
  ids: { owner: string; admin: string; member: string; stranger: string };
}

/** The world, its Slack, and the default project's Slack instance enabled. */
export function useSlackWorld(config: Record<string, unknown> = {}, settings: Partial<Settings> = {}): SlackWorld {
  const w = {} as SlackWorld;
  beforeAll(async () => {
    Object.assign(w, await createWorld({ uiUrl: 'https://muster.example.com', outboundAllow: LOCAL_PEERS, ...settings }));
    w.slack = await startSlack();
    await installPlugins(w.t.database.db);
    w.projectId = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items[0].id;
    const [row] = await w.t.database.db
      .select({ id: pluginInstance.id })
      .from(pluginInstance)
      .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
      .where(and(eq(plugin.slug, SLACK_PLUGIN_SLUG), eq(pluginInstance.project_id, w.projectId)));
    w.instanceId = row.id;
    const configuration = { bot_token: w.slack.token, signing_secret: SIGNING_SECRET, api_url: w.slack.apiUrl, ...config };
    const res = await call(w.t.app, 'PUT', `/default/plugins/instances/${row.id}`, { token: w.owner, body: { enabled: true, configuration } });
    if (res.status !== 200) throw new Error(`enabling the Slack instance: ${res.status} ${JSON.stringify(res.body)}`);
    w.ids = {
      owner: w.slack.addUser('owner@example.com', 'Olive Owner'),
      admin: w.slack.addUser('admin@example.com', 'Ada Admin'),
      member: w.slack.addUser('member@example.com', 'Mel Member'),
      stranger: w.slack.addUser('stranger@example.com', 'Stan Stranger'),
    };
  });
  afterAll(async () => {
    await w.t?.close();
    await w.slack?.close();
  });
  return w;
}

type Endpoint = 'event' | 'command' | 'action' | 'menu';

/** A request to one of the four endpoints, signed with `secret` at `timestamp` (now by default). */
export async function signed(
  w: SlackWorld,
  endpoint: Endpoint,
  body: string,
  opts: { contentType?: string; secret?: string; timestamp?: number; organization?: string } = {},
): Promise<Res> {
  const contentType = opts.contentType ?? (endpoint === 'event' ? 'application/json' : 'application/x-www-form-urlencoded');
  return call(w.t.app, 'POST', `/${opts.organization ?? 'default'}/events/slack/${endpoint}`, {
    raw: body,
    headers: { 'content-type': contentType, ...slackHeaders(opts.secret ?? SIGNING_SECRET, body, opts.timestamp) },
  });
}

export interface CommandCall {
  res: Res;
  /** Where the command's later answers go. */
  responseUrl: string;
  triggerId: string;
}

/** A slash command typed by `user` in `channel`. */
export async function command(w: SlackWorld, name: string, user: string, channel: string, text = '', channelName = 'general'): Promise<CommandCall> {
  const responseUrl = w.slack.responseUrl();
  const triggerId = `trigger-${Math.random().toString(36).slice(2)}`;
  const res = await signed(
    w,
    'command',
    commandBody({
      command: `/dispatch-${name}`,
      text,
      user_id: user,
      channel_id: channel,
      response_url: responseUrl,
      trigger_id: triggerId,
      channel_name: channelName,
    }),
  );
  return { res, responseUrl, triggerId };
}

/** What was posted to a response URL, in order. */
export const answersAt = (w: SlackWorld, url: string) => w.slack.responses.filter((r) => url.endsWith(`/respond/${r.id}`)).map((r) => r.body);

/** The view Slack was asked to open with `triggerId`, and its id. */
export function openedView(w: SlackWorld, triggerId: string): { id: string; view: any } {
  const found = [...w.slack.views].find(([, v]) => v.trigger_id === triggerId);
  if (!found)
    throw new Error(
      `no view opened with ${triggerId}; opened: ${w.slack
        .callsOf('views.open')
        .map((c) => c.trigger_id)
        .join(', ')}`,
    );
  return { id: found[0], view: found[1].view };
}

type Value = string | { option: string; text?: string } | { options: string[] } | { user: string } | { at: Date };

/** A modal's state as Slack submits it: for each input, its element's value. */
export function stateOf(view: any, values: Record<string, Value>) {
  const state: Record<string, Record<string, object>> = {};
  for (const block of view.blocks.filter((b: any) => b.type === 'input')) {
    const el = block.element;
    const v = values[block.block_id];
    let entry: object;
    if (v === undefined) {
      // What Slack sends for an input left as the modal opened it.
      entry =
        el.type === 'plain_text_input'
          ? { type: el.type, value: el.initial_value ?? null }
          : el.type.includes('multi') || el.type === 'checkboxes'
            ? { type: el.type, selected_options: el.initial_options ?? [] }
            : el.type === 'datetimepicker'
              ? { type: el.type, selected_date_time: el.initial_date_time ?? null }
              : { type: el.type, selected_option: el.initial_option ?? null };
    } else if (typeof v === 'string') entry = { type: el.type, value: v };
    else if ('option' in v) entry = { type: el.type, selected_option: { text: { type: 'plain_text', text: v.text ?? v.option }, value: v.option } };
    else if ('options' in v) entry = { type: el.type, selected_options: v.options.map((o) => ({ text: { type: 'plain_text', text: o }, value: o })) };
    else if ('user' in v) entry = { type: el.type, selected_user: v.user };
    else entry = { type: el.type, selected_date_time: Math.floor(v.at.getTime() / 1000) };
    state[block.block_id] = { [el.action_id]: entry };
  }
  return { values: state };
}

/** Submits the view opened with `triggerId` as `user`, with `values` typed or chosen. */
export async function submit(w: SlackWorld, triggerId: string, user: string, values: Record<string, Value> = {}): Promise<Res> {
  const { id, view } = openedView(w, triggerId);
  const payload = {
    type: 'view_submission',
    team: { id: 'T0001' },
    user: { id: user },
    api_app_id: 'A0001',
    trigger_id: `${triggerId}-submit`,
    view: { ...view, id, state: stateOf(view, values), hash: 'h' },
  };
  return signed(w, 'action', payloadBody(payload));
}

/** A click on one of the buttons of Muster's messages. */
export async function click(w: SlackWorld, actionId: string, value: string, user: string, channel: string) {
  const responseUrl = w.slack.responseUrl();
  const triggerId = `trigger-${Math.random().toString(36).slice(2)}`;
  const payload = {
    type: 'block_actions',
    user: { id: user },
    trigger_id: triggerId,
    response_url: responseUrl,
    channel: { id: channel },
    container: { type: 'message', channel_id: channel },
    actions: [{ type: 'button', action_id: actionId, block_id: 'b', value, action_ts: '1' }],
  };
  const res = await signed(w, 'action', payloadBody(payload));
  return { res, responseUrl, triggerId };
}

/** The options Slack would show in an external select of the view opened with `triggerId`. */
export async function options(w: SlackWorld, triggerId: string, user: string, actionId: string, typed = '', values: Record<string, Value> = {}) {
  const { id, view } = openedView(w, triggerId);
  const payload = {
    type: 'block_suggestion',
    user: { id: user },
    action_id: actionId,
    block_id: actionId,
    value: typed,
    view: { ...view, id, state: stateOf(view, values) },
  };
  return signed(w, 'menu', payloadBody(payload));
}

/** A record's own channel, as Muster records it (the shared shape: docs/chat.md). */
const conversationOf = (channel: string) => ({
  resource_id: channel,
  resource_type: SLACK_PLUGIN_SLUG,
  channel_id: channel,
  thread_id: null,
  weblink: channelLink(channel),
});

/**
 * An incident with a Slack channel. The channel is the one Muster made for it when it did (once
 * its jobs ran), else one made here and recorded in the incident as Muster records it.
 */
export async function incidentWithChannel(w: SlackWorld, body: Record<string, unknown> = {}, token = w.owner) {
  const res = await call(w.t.app, 'POST', '/default/incidents', { token, body: { title: 'Database down', description: 'It is down.', ...body } });
  if (res.status !== 200) throw new Error(`incident: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.id as number;
  await drainJobs(w.t.database, w.t.settings);
  const [row] = await w.t.database.db.select({ conversation: incident.conversation }).from(incident).where(eq(incident.id, id));
  let channel = (row.conversation as { channel_id?: string } | null)?.channel_id;
  if (!channel) {
    channel = w.slack.addChannel(`incident-${id}`);
    await w.t.database.db
      .update(incident)
      .set({ conversation: conversationOf(channel) })
      .where(eq(incident.id, id));
  }
  return { id, name: res.body.name as string, channel };
}

/** A case with a channel of its own (a conversation without a thread). */
export async function caseWithChannel(w: SlackWorld, body: Record<string, unknown> = {}, token = w.owner) {
  const res = await call(w.t.app, 'POST', '/default/cases', { token, body: { title: 'Phishing report', description: 'A suspicious mail.', ...body } });
  if (res.status !== 200) throw new Error(`case: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.id as number;
  const channel = w.slack.addChannel(`case-${id}`);
  await w.t.database.db
    .update(caseTable)
    .set({ conversation: conversationOf(channel) })
    .where(eq(caseTable.id, id));
  return { id, name: res.body.name as string, channel };
}

/** Jobs in the queue named `name` (any state). */
export async function jobsNamed(w: SlackWorld, name: string): Promise<number> {
  const [row] = await w.t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [name]);
  return row.n;
}
