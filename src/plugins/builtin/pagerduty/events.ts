// PagerDuty's Events API v2: a page is a `trigger` event, its resolution a `resolve` event with the
// same dedup key, both sent to the service's integration (routing) key. pdjs's `event()` only
// speaks https to a bare host name, so these go through the outbound client's fetch with the
// body pdjs would send: the Events URL stays configurable (a region, a relay, a local peer).
import { vendorFetch } from '../../../lib/outbound/vendor.ts';
import type { OncallService, PluginEnv, Subject } from '../../types.ts';
import { VENDOR } from './rest.ts';

const TIMEOUT_MS = 10_000;

/** PagerDuty's severities, from a Muster severity or priority name; a page is critical unless they say otherwise. */
const SEVERITIES: Record<string, 'critical' | 'error' | 'warning' | 'info'> = { critical: 'critical', high: 'error', medium: 'warning', low: 'info' };

export function severityOf(subject: Subject): 'critical' | 'error' | 'warning' | 'info' {
  for (const name of [subject.severity, subject.priority]) {
    const found = name && SEVERITIES[name.toLowerCase()];
    if (found) return found;
  }
  return 'critical';
}

/** One key per record, the same on every retry and for the resolve: PagerDuty keeps one alert for it. */
export const dedupKeyOf = (subject: Subject, namePrefix: string) => `${namePrefix}-${subject.organization.slug}-${subject.kind}-${subject.id}`;

export function triggerEvent(routingKey: string, service: OncallService, subject: Subject, namePrefix: string) {
  const label = subject.name ?? `${subject.kind} ${subject.id}`;
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKeyOf(subject, namePrefix),
    payload: {
      summary: `${label}: ${subject.title}`.slice(0, 1024),
      source: 'muster',
      severity: severityOf(subject),
      component: service.name,
      group: subject.project.name,
      class: subject.type ?? subject.kind,
      custom_details: {
        title: subject.title,
        description: subject.description,
        status: subject.status,
        priority: subject.priority,
        severity: subject.severity,
        owner: subject.owner,
        reporter: subject.reporter,
      },
    },
    client: 'Muster',
    client_url: subject.weblink,
    links: [{ href: subject.weblink, text: `${label} in Muster` }],
  };
}

export const resolveEvent = (routingKey: string, subject: Subject, namePrefix: string) => ({
  routing_key: routingKey,
  event_action: 'resolve',
  dedup_key: dedupKeyOf(subject, namePrefix),
});

/** Sends one event; PagerDuty answers 202 with the dedup key it kept. */
export async function sendEvent(eventsUrl: string, body: { event_action: string }, env: PluginEnv): Promise<void> {
  const res = await vendorFetch(
    env.outbound,
    { words: { vendor: VENDOR, credential: 'the integration key' }, what: `Events API ${body.event_action}`, log: env.log },
    `${eventsUrl.replace(/\/+$/, '')}/v2/enqueue`,
    { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS },
  );
  await res.body?.cancel();
}
