// An on-call plugin over HTTP: who is on call for a service (GET <url>/oncalls?service=<id>,
// answering {"oncalls":[{"email","name"}]}), and paging a service with a PagerDuty-Events-v2-shaped
// trigger (POST <url>/v2/enqueue). The API key goes in `Authorization: Token token=<key>`, as
// PagerDuty's REST API takes it; a page carries the job's idempotency key, so a retried job is
// one page for receivers that honour it. Failures throw: the job that called retries.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from './authored.ts';
import { failureOf } from '../../lib/outbound/client.ts';
import type { Configuration, Contact, OncallPlugin, OncallService, PluginEnv, Subject } from '../types.ts';

/** How long one call may take before it counts as failed (and its job retries). */
const TIMEOUT_MS = 10_000;

const configuration = Type.Object(
  {
    url: Type.String({ format: 'uri', minLength: 1, 'x-secret-bound': ['api_key', 'routing_key'], description: 'Base URL of the on-call service' }),
    api_key: Type.Optional(Type.String({ writeOnly: true, description: 'Sent as `Authorization: Token token=<key>`' })),
    routing_key: Type.Optional(
      Type.String({ writeOnly: true, description: 'Routing key of the page events (PagerDuty integration key): whoever holds it can page' }),
    ),
  },
  { additionalProperties: false },
);

const endpoint = (config: Configuration, path: string) => {
  if (typeof config.url !== 'string' || !config.url) throw new Error('the on-call plugin has no url configured');
  return `${config.url.replace(/\/+$/, '')}${path}`;
};

function headers(config: Configuration, extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = { accept: 'application/json', ...extra };
  if (typeof config.api_key === 'string' && config.api_key) out.authorization = `Token token=${config.api_key}`;
  return out;
}

/** Fetches, throwing on a network failure or an answer other than 2xx (never with the key in the message). */
async function send(env: PluginEnv, url: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await env.outbound.fetch(url, { ...init, timeoutMs: TIMEOUT_MS });
  } catch (err) {
    // Only the error's kind: a driver's message may quote the URL, and a URL may carry credentials.
    throw new Error(`on-call service unreachable (${new URL(url).origin}): ${failureOf(err)}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`on-call service answered ${res.status} to ${init.method ?? 'GET'} ${new URL(url).pathname}`);
  }
  return res;
}

/** The trigger event paging a service about a record (PagerDuty Events API v2). */
export function pageEvent(service: OncallService, subject: Subject, config: Configuration) {
  const label = subject.name ?? `${subject.kind} ${subject.id}`;
  return {
    routing_key: typeof config.routing_key === 'string' ? config.routing_key : null,
    event_action: 'trigger',
    dedup_key: `${subject.kind}-${subject.id}`,
    payload: {
      summary: `${label}: ${subject.title}`.slice(0, 1024),
      source: 'muster',
      severity: 'critical',
      custom_details: {
        weblink: subject.weblink,
        service: service.external_id,
        title: subject.title,
        description: subject.description,
        status: subject.status,
        priority: subject.priority,
        severity: subject.severity,
        owner: subject.owner,
      },
    },
  };
}

export const oncallPlugin: OncallPlugin = {
  slug: 'muster-oncall-http',
  title: 'Muster Plugin - On-call over HTTP',
  type: 'oncall',
  ...authoredByMuster,
  description: 'Finds the person on call for a service and pages it, through an on-call HTTP service (PagerDuty-style events).',
  configuration,
  async getOncall(service: OncallService, config: Configuration, env: PluginEnv): Promise<Contact | null> {
    const url = endpoint(config, `/oncalls?service=${encodeURIComponent(service.external_id)}`);
    const res = await send(env, url, { method: 'GET', headers: headers(config) });
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new Error('on-call service answered with something other than JSON');
    }
    const first = (body as { oncalls?: unknown })?.oncalls;
    const person = Array.isArray(first) ? (first[0] as { email?: unknown; name?: unknown } | undefined) : undefined;
    if (!person || typeof person.email !== 'string' || !person.email) return null;
    return { email: person.email, fullname: typeof person.name === 'string' ? person.name : null };
  },
  async page(service: OncallService, subject: Subject, config: Configuration, env: PluginEnv): Promise<void> {
    const res = await send(env, endpoint(config, '/v2/enqueue'), {
      method: 'POST',
      headers: headers(config, { 'content-type': 'application/json', 'idempotency-key': env.idempotencyKey }),
      body: JSON.stringify(pageEvent(service, subject, config)),
    });
    await res.body?.cancel();
  },
};
