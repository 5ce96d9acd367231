// A request from Slack: which of the organization's Slack instances signed it (BEHAVIOR §12: each
// enabled `slack-conversation` instance is tried, any project), and its body read as Slack sends
// it: slash commands form-encoded, interactions as a form's `payload` field holding JSON, events as
// JSON. The signature is checked on the bytes as received, before anything is read from them; a
// signed body Slack would never send is a 400.
import type { Settings } from '../config.ts';
import type { Executor } from '../db/connection.ts';
import { enabledInstancesIn, type ActiveInstance } from '../domains/plugin/active.ts';
import { slackSettings, type SlackSettings } from '../plugins/builtin/slack/config.ts';
import { SLACK_PLUGIN_SLUG } from '../plugins/builtin/slack/plugin.ts';
import { verifySlackSignature } from '../plugins/builtin/slack/signature.ts';
import { errors } from '../server/errors.ts';

/** What chat code needs of the process: the database and the settings. */
export interface ChatEnv {
  db: Executor;
  settings: Settings;
}

export interface SlackInstance {
  instance: ActiveInstance<'conversation'> & { organizationId: number };
  slack: SlackSettings;
}

export interface RawRequest {
  organization: string;
  headers: Record<string, string | string[] | undefined>;
  contentType: string | undefined;
  raw: Buffer;
}

const header = (h: RawRequest['headers'], name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The organization's enabled Slack instance whose signing secret signed the request; 403 when none did. */
export async function signedBy(env: ChatEnv, req: RawRequest): Promise<SlackInstance> {
  const given = { timestamp: header(req.headers, 'x-slack-request-timestamp'), signature: header(req.headers, 'x-slack-signature') };
  if (!given.timestamp || !given.signature) throw errors.invalidSignature();
  for (const instance of await enabledInstancesIn(env.db, env.settings, req.organization, SLACK_PLUGIN_SLUG, 'conversation')) {
    const slack = slackSettings(instance.config);
    if (verifySlackSignature(slack.signingSecret, given, req.raw)) return { instance, slack };
  }
  throw errors.invalidSignature();
}

const mediaType = (contentType: string | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

function form(req: RawRequest, what: string): URLSearchParams {
  if (mediaType(req.contentType) !== 'application/x-www-form-urlencoded')
    throw errors.badRequest(`Slack sends ${what} form-encoded (application/x-www-form-urlencoded).`);
  return new URLSearchParams(req.raw.toString('utf8'));
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function json(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw errors.badRequest(`${what} is not JSON.`);
  }
  if (!isObject(value) || typeof value.type !== 'string') throw errors.badRequest(`${what} is not a Slack payload: an object with a \`type\` is expected.`);
  return value;
}

/** A slash command's fields (https://api.slack.com/interactivity/slash-commands#app_command_handling). */
export interface CommandRequest {
  command: string;
  text: string;
  user_id: string;
  channel_id: string;
  channel_name: string | null;
  trigger_id: string | null;
  response_url: string | null;
}

export function commandOf(req: RawRequest): CommandRequest {
  const f = form(req, 'slash commands');
  const command = f.get('command');
  const user = f.get('user_id');
  const channel = f.get('channel_id');
  if (!command || !user || !channel) throw errors.badRequest('Not a Slack command: `command`, `user_id` and `channel_id` are required.');
  return {
    command,
    text: f.get('text') ?? '',
    user_id: user,
    channel_id: channel,
    channel_name: f.get('channel_name'),
    trigger_id: f.get('trigger_id'),
    response_url: f.get('response_url'),
  };
}

/** An interaction's payload (block actions, view submissions, option requests): the form's `payload` field. */
export function payloadOf(req: RawRequest): Record<string, unknown> {
  const payload = form(req, 'interactions').get('payload');
  if (payload === null) throw errors.badRequest('Not a Slack interaction: the `payload` field is missing.');
  return json(payload, 'The interaction payload');
}

/** An Events API request: JSON. */
export function eventOf(req: RawRequest): Record<string, unknown> {
  if (!/^application\/([\w.+-]+\+)?json$/.test(mediaType(req.contentType))) throw errors.badRequest('Slack sends events as JSON (application/json).');
  return json(req.raw.toString('utf8'), 'The event');
}

export { isObject };
