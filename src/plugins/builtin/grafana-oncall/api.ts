// Grafana OnCall's (and Grafana IRM's) HTTP API v1 through the outbound client: the token goes
// as the `Authorization` header as Grafana documents it, with `X-Grafana-URL` naming the stack
// for Grafana Cloud IRM service-account tokens.
import { vendorFetch, vendorJson } from '../../../lib/outbound/vendor.ts';
import type { Configuration, PluginEnv } from '../../types.ts';

export const VENDOR = 'Grafana OnCall';
const TIMEOUT_MS = 10_000;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export interface Schedule {
  id: string;
  name: string;
  on_call_now?: string[];
}

export interface OncallUser {
  id: string;
  email?: string;
  username?: string;
  name?: string;
}

/** GETs an API path (`/schedules/ID/`): its JSON, or the error its answer means. */
export async function apiGet<T>(config: Configuration, path: string, what: string, env: PluginEnv): Promise<T> {
  const headers: Record<string, string> = { authorization: str(config.api_token), accept: 'application/json' };
  if (str(config.grafana_url)) headers['x-grafana-url'] = str(config.grafana_url);
  const res = await vendorFetch(
    env.outbound,
    { words: { vendor: VENDOR, credential: 'the API token' }, what, log: env.log },
    `${str(config.api_url).replace(/\/+$/, '')}/api/v1${path}`,
    { method: 'GET', headers, timeoutMs: TIMEOUT_MS },
  );
  return vendorJson<T>(VENDOR, res);
}

/** POSTs an alert to the integration's inbound webhook (its URL is its secret: never logged). */
export async function sendAlert(config: Configuration, body: Record<string, unknown>, env: PluginEnv): Promise<void> {
  const res = await vendorFetch(
    env.outbound,
    { words: { vendor: VENDOR, credential: 'the webhook URL' }, what: `inbound webhook (${body.state})`, log: env.log },
    str(config.webhook_url),
    { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS },
  );
  await res.body?.cancel();
}
