// The Slack plugin's configuration: how to reach Slack (the Web API's base URL, the bot token), how
// to tell Slack's requests from forgeries (the signing secret), the app-level token of an app in
// Socket Mode, and the names of its slash commands.
import { Type } from '@sinclair/typebox';
import type { Configuration } from '../../types.ts';

/** Every command Muster answers, by what it does (BEHAVIOR §12: OpenAPI-era and current). */
export const COMMANDS = [
  'report-incident',
  'list-incidents',
  'list-participants',
  'list-tasks',
  'list-my-tasks',
  'list-signals',
  'assign-role',
  'update-incident',
  'update-participant',
  'add-timeline-event',
  'report-tactical',
  'report-executive',
  'engage-oncall',
  'notifications-group',
  'create-task',
  'create-case',
  'update-case',
  'escalate-case',
  'engage-user',
  'summary',
  'list-workflows',
  'run-workflow',
] as const;
export type Command = (typeof COMMANDS)[number];

export const DEFAULT_API_URL = 'https://slack.com/api/';
/** Dispatch's prefix: a Slack app moved from Dispatch keeps its commands. */
export const DEFAULT_COMMAND_PREFIX = '/dispatch-';
/** The reaction that copies a message of an incident's channel into its timeline. */
export const DEFAULT_TIMELINE_REACTION = 'stopwatch';

export const slackConfiguration = Type.Object(
  {
    bot_token: Type.String({ minLength: 1, writeOnly: true, description: 'Bot user OAuth token (xoxb-...)' }),
    signing_secret: Type.String({ minLength: 1, writeOnly: true, description: "The app's signing secret: requests from Slack are verified with it" }),
    api_url: Type.Optional(
      Type.String({
        format: 'uri',
        default: DEFAULT_API_URL,
        'x-secret-bound': ['bot_token', 'socket_mode_app_token'],
        description: "Base URL of Slack's Web API",
      }),
    ),
    socket_mode_app_token: Type.Optional(
      Type.String({
        pattern: '^xapp-',
        writeOnly: true,
        description:
          "App-level token (xapp-..., connections:write) of an app in Socket Mode: Muster holds a connection to Slack instead of taking Slack's requests",
      }),
    ),
    command_prefix: Type.Optional(
      Type.String({ pattern: '^/[a-z0-9_-]*$', default: DEFAULT_COMMAND_PREFIX, description: 'What every slash command starts with, e.g. /muster-' }),
    ),
    commands: Type.Optional(
      Type.Record(Type.String(), Type.String({ pattern: '^/[a-z0-9_-]+$' }), {
        description: 'Names of single commands, overriding the prefix: {"report-incident": "/incident"}',
      }),
    ),
    private_channels: Type.Optional(Type.Boolean({ default: true, description: "Whether incident channels are private (Dispatch's default)" })),
    timeline_reaction: Type.Optional(
      Type.String({ minLength: 1, default: DEFAULT_TIMELINE_REACTION, description: 'Reaction (emoji name) that adds a message to the timeline' }),
    ),
  },
  { additionalProperties: false },
);

export interface SlackSettings {
  botToken: string;
  signingSecret: string;
  /** The app-level token of an app in Socket Mode; null: Slack calls Muster's endpoints. */
  appToken: string | null;
  apiUrl: string;
  privateChannels: boolean;
  timelineReaction: string;
  /** Slash command name (with its slash) to what it does. */
  commands: Map<string, Command>;
}

const str = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback);

/** A validated configuration, read with its defaults. */
export function slackSettings(config: Configuration): SlackSettings {
  const prefix = str(config.command_prefix, DEFAULT_COMMAND_PREFIX);
  const overrides = (config.commands ?? {}) as Record<string, string>;
  const commands = new Map<string, Command>();
  for (const c of COMMANDS) commands.set(overrides[c] ?? `${prefix}${c}`, c);
  return {
    botToken: str(config.bot_token, ''),
    signingSecret: str(config.signing_secret, ''),
    appToken: str(config.socket_mode_app_token, '') || null,
    apiUrl: str(config.api_url, DEFAULT_API_URL),
    privateChannels: config.private_channels !== false,
    timelineReaction: str(config.timeline_reaction, DEFAULT_TIMELINE_REACTION),
    commands,
  };
}
