// Slack's Socket Mode (https://api.slack.com/apis/socket-mode) through Slack's own client,
// @slack/socket-mode: `apps.connections.open` with the app-level token at the configured Web API
// URL, then a WebSocket to the address Slack answers, over which it sends envelopes (events_api,
// slash_commands, interactive), each acknowledged by its id, with the answer an HTTP endpoint would
// give as the acknowledgement's payload. Slack's `disconnect` (or a dropped connection) makes the
// client open a new one. Both ways out go through the outbound policy: the call through its fetch,
// the WebSocket through an undici dispatcher whose connections are checked the same way.
import { isIP } from 'node:net';
import { type Logger, LogLevel, SocketModeClient } from '@slack/socket-mode';
import { Agent, buildConnector } from 'undici';
import { failureOf, type Outbound } from '../../../lib/outbound/client.ts';
import type { SlackSettings } from './config.ts';

const TIMEOUT_MS = 10_000;

export const ENVELOPE_TYPES = ['events_api', 'slash_commands', 'interactive'] as const;
export type EnvelopeType = (typeof ENVELOPE_TYPES)[number];

/** What an envelope carries: what Slack would have sent to the matching HTTP endpoint. */
export interface Envelope {
  type: EnvelopeType;
  body: Record<string, unknown>;
}

/** Handles an envelope; what it returns is the acknowledgement's payload (null: none). Throwing leaves it unacknowledged. */
export type EnvelopeHandler = (envelope: Envelope) => Promise<Record<string, unknown> | null>;

export interface SocketLog {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface SlackSocket {
  close(): Promise<void>;
}

/** An undici dispatcher whose connections are refused unless the policy allows their address. */
function checkedDispatcher(outbound: Outbound): Agent {
  const connect = buildConnector({ allowH2: false, lookup: outbound.connectionLookup() } as buildConnector.BuildOptions);
  return new Agent({
    connect: (opts, callback) => {
      // An address in the URL is never looked up: it is checked here.
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) {
        try {
          outbound.policy.check(host, host);
        } catch (refusal) {
          return callback(refusal as Error, null);
        }
      }
      connect(opts, callback);
    },
  });
}

/** The library's log, as Muster's: warnings and errors only (its debug lines quote payloads). */
function loggerOf(log: SocketLog): Logger {
  return {
    debug() {},
    info() {},
    warn: (...msg: unknown[]) => log.warn(`Slack Socket Mode: ${msg.join(' ')}`),
    error: (...msg: unknown[]) => log.warn(`Slack Socket Mode: ${msg.join(' ')}`),
    setLevel() {},
    getLevel: () => LogLevel.WARN,
    setName() {},
  };
}

/** Opens the app's connection; resolves once Slack said hello. Envelopes go to `handle` until `close`. */
export async function openSlackSocket(
  settings: Pick<SlackSettings, 'apiUrl'> & { appToken: string },
  outbound: Outbound,
  handle: EnvelopeHandler,
  log: SocketLog,
): Promise<SlackSocket> {
  // Refused at once rather than retried by the client (it retries apps.connections.open for long, as it should for Slack's outages).
  await outbound.check({ url: settings.apiUrl });
  const client = new SocketModeClient({
    appToken: settings.appToken,
    logger: loggerOf(log),
    dispatcher: checkedDispatcher(outbound),
    clientOptions: {
      fetch: outbound.fetch,
      slackApiUrl: settings.apiUrl.endsWith('/') ? settings.apiUrl : `${settings.apiUrl}/`,
      timeout: TIMEOUT_MS,
      allowAbsoluteUrls: false,
    },
  });
  client.on('slack_event', async ({ ack, type, body }: { ack: (payload?: Record<string, unknown>) => Promise<void>; type: string; body: unknown }) => {
    if (!(ENVELOPE_TYPES as readonly string[]).includes(type) || !body || typeof body !== 'object') return;
    let answer: Record<string, unknown> | null;
    try {
      answer = await handle({ type: type as EnvelopeType, body: body as Record<string, unknown> });
    } catch (err) {
      // Unacknowledged: Slack retries an event, and tells the person a command failed.
      log.warn(`Slack Socket Mode: a ${type} envelope was not handled: ${(err as Error).message}`);
      return;
    }
    await ack(answer ?? undefined).catch((err: unknown) => log.warn(`Slack Socket Mode: acknowledging a ${type} envelope failed: ${failureOf(err)}`));
  });
  await client.start();
  return {
    async close() {
      client.removeAllListeners('slack_event');
      await client.disconnect();
    },
  };
}
