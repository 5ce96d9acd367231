// Slack apps in Socket Mode (their instance's configuration holds `socket_mode_app_token`, as
// Dispatch's did), for teams whose Muster Slack cannot reach: the process holds one connection per
// app and hands each envelope to the handler of the endpoint Slack would otherwise have called
// (handlers.ts), as the request that endpoint would have read, in the organization of the app's
// instance. The connection itself stands for Slack: there is no signature to check. The enabled
// instances are read again every minute, so an app enabled, changed or disabled later is followed.
import { enabledInstancesEverywhere } from '../domains/plugin/active.ts';
import { outboundFor } from '../lib/outbound/client.ts';
import { slackSettings } from '../plugins/builtin/slack/config.ts';
import { SLACK_PLUGIN_SLUG } from '../plugins/builtin/slack/plugin.ts';
import { type Envelope, openSlackSocket, type SlackSocket } from '../plugins/builtin/slack/socket.ts';
import { action, command, event, menu } from './handlers.ts';
import type { ChatEnv, RawRequest, SlackInstance } from './request.ts';

const REFRESH_MS = 60_000;

interface Log {
  info(msg: string): void;
  warn(msg: string): void;
}

/** The app an instance connects as: the same token at the same Web API is one app, one connection. */
interface App {
  key: string;
  organization: string;
  signed: SlackInstance;
}

const FORM = 'application/x-www-form-urlencoded';

/** The envelope as the request its endpoint would have read, and that endpoint's handler. */
function routed(organization: string, { type, body }: Envelope) {
  const request = (contentType: string, raw: string): RawRequest => ({ organization, headers: {}, contentType, raw: Buffer.from(raw) });
  switch (type) {
    case 'events_api':
      return { handle: event, req: request('application/json', JSON.stringify(body)) };
    case 'slash_commands': {
      const fields = Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
      return { handle: command, req: request(FORM, new URLSearchParams(fields).toString()) };
    }
    case 'interactive':
      return {
        handle: body.type === 'block_suggestion' ? menu : action,
        req: request(FORM, new URLSearchParams({ payload: JSON.stringify(body) }).toString()),
      };
  }
}

/** An endpoint's answer as an acknowledgement's payload: events take none. */
const payloadOf = (type: Envelope['type'], answer: unknown) =>
  type !== 'events_api' && answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : null;

async function appsOf(env: ChatEnv, log: Log): Promise<Map<string, App>> {
  const apps = new Map<string, App>();
  for (const instance of await enabledInstancesEverywhere(env.db, env.settings, SLACK_PLUGIN_SLUG, 'conversation')) {
    const slack = slackSettings(instance.config);
    if (!slack.appToken) continue;
    const key = `${slack.apiUrl} ${slack.appToken}`;
    const first = apps.get(key);
    // As over HTTP, the first instance of the app in the organization answers for it.
    if (!first) apps.set(key, { key, organization: instance.organization, signed: { instance, slack } });
    else if (first.organization !== instance.organization)
      log.warn(
        `Slack Socket Mode: one app is configured in organizations ${first.organization} and ${instance.organization}; its events go to ${first.organization}`,
      );
  }
  return apps;
}

export interface SlackSockets {
  /** Reads the enabled instances again: connects new apps, drops those gone. */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Holds the connections of every Slack app in Socket Mode, until `stop`. Returns at once: the
 * connections are opened in the background (Slack's client retries for long when Slack is away,
 * and the server must not wait for it).
 */
export function startSlackSockets(env: ChatEnv, log: Log, opts: { refreshMs?: number } = {}): SlackSockets {
  const open = new Map<string, { app: App; socket: SlackSocket }>();
  let stopped = false;

  const connect = async (app: App) => {
    const handleEnvelope = async (envelope: Envelope) => {
      // The app's instance as last read: a changed bot token or command name applies at once.
      const current = open.get(app.key)?.app ?? app;
      const { handle, req } = routed(current.organization, envelope);
      return payloadOf(envelope.type, await handle(env, current.signed, req));
    };
    try {
      const socket = await openSlackSocket(
        { apiUrl: app.signed.slack.apiUrl, appToken: app.signed.slack.appToken! },
        outboundFor(env.settings.outboundAllow),
        handleEnvelope,
        log,
      );
      if (stopped) return socket.close();
      open.set(app.key, { app, socket });
      log.info(`Slack Socket Mode: connected for organization ${app.organization}`);
    } catch (err) {
      // The next refresh tries again.
      log.warn(`Slack Socket Mode: could not connect for organization ${app.organization}: ${(err as Error).message}`);
    }
  };

  let running: Promise<void> = Promise.resolve();
  const refresh = () => {
    running = running.then(async () => {
      if (stopped) return;
      const apps = await appsOf(env, log).catch((err: Error) => {
        log.warn(`Slack Socket Mode: could not read the Slack instances: ${err.message}`);
        return undefined;
      });
      if (!apps) return;
      for (const [key, held] of open) {
        if (apps.has(key)) held.app = apps.get(key)!;
        else {
          open.delete(key);
          await held.socket.close();
        }
      }
      await Promise.all([...apps.values()].filter((a) => !open.has(a.key)).map(connect));
    });
    return running;
  };

  void refresh();
  const timer = setInterval(refresh, opts.refreshMs ?? REFRESH_MS);
  timer.unref();
  return {
    refresh,
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A connection still being opened is closed as soon as it is (see connect).
      await Promise.all([...open.values()].map((h) => h.socket.close()));
      open.clear();
    },
  };
}
