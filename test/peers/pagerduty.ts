// PagerDuty's REST API and Events API v2 as a local peer, answering as PagerDuty documents them:
// REST calls need `Authorization: Token token=<key>` and the v2 Accept header (401 with PagerDuty's
// error body otherwise); services with their escalation policy and integrations, on-calls of an
// escalation policy (users included on request), users, abilities. Events: POST /v2/enqueue with a
// known routing key answers 202 and keeps one alert per dedup key (a repeated trigger is deduplicated).
import { type HttpPeer, json, type PeerRequest, startHttpPeer } from './http-peer.ts';

export interface PdUser {
  id: string;
  name: string;
  email: string;
}

export interface PdServiceDef {
  id: string;
  name: string;
  escalation_policy: string;
  /** Its Events API v2 integration key, if it has such an integration. */
  integration_key?: string;
}

export interface PagerDutyPeer extends HttpPeer {
  /** Alerts by dedup key: triggers received (deduplicated ones too) and whether resolved. */
  alerts: Map<string, { routing_key: string; triggers: number; resolved: boolean; last: any }>;
  events(): any[];
}

const unauthorized = json(401, { error: { message: 'Unauthorized', code: 2006 } });
const notFound = json(404, { error: { message: 'Not Found', code: 2100 } });

export async function startPagerDuty(opts: {
  apiKey: string;
  services: PdServiceDef[];
  /** Escalation policy id to its on-call users, by escalation level. */
  oncalls: Record<string, { level: number; user: PdUser; schedule?: string }[]>;
  /** Routing keys the Events API accepts besides the services' own. */
  routingKeys?: string[];
}): Promise<PagerDutyPeer> {
  const alerts: PagerDutyPeer['alerts'] = new Map();
  const users = new Map(Object.values(opts.oncalls).flatMap((list) => list.map((o) => [o.user.id, o.user] as const)));
  const keys = new Set([...(opts.routingKeys ?? []), ...opts.services.flatMap((s) => (s.integration_key ? [s.integration_key] : []))]);
  const userRef = (u: PdUser, full: boolean) =>
    full ? { id: u.id, type: 'user', name: u.name, email: u.email, summary: u.name } : { id: u.id, type: 'user_reference', summary: u.name };

  function rest(req: PeerRequest) {
    if (req.headers.authorization !== `Token token=${opts.apiKey}`) return unauthorized;
    if (!String(req.headers.accept).includes('application/vnd.pagerduty+json;version=2')) return json(406, { error: { message: 'Not Acceptable' } });
    if (req.method !== 'GET') return json(405, { error: { message: 'Method Not Allowed' } });
    if (req.path === '/abilities') return json(200, { abilities: ['teams', 'urgencies'] });
    const service = /^\/services\/([^/]+)$/.exec(req.path);
    if (service) {
      const s = opts.services.find((x) => x.id === decodeURIComponent(service[1]));
      if (!s) return notFound;
      const withIntegrations = req.query.getAll('include[]').includes('integrations');
      const integrations = s.integration_key
        ? [
            {
              id: `I${s.id}`,
              type: 'events_api_v2_inbound_integration',
              ...(withIntegrations ? { integration_key: s.integration_key } : { summary: 'Events API v2' }),
            },
          ]
        : [];
      return json(200, {
        service: { id: s.id, type: 'service', name: s.name, escalation_policy: { id: s.escalation_policy, type: 'escalation_policy_reference' }, integrations },
      });
    }
    if (req.path === '/oncalls') {
      const policies = req.query.getAll('escalation_policy_ids[]');
      const full = req.query.getAll('include[]').includes('users');
      const oncalls = policies.flatMap((p) =>
        (opts.oncalls[p] ?? []).map((o) => ({
          escalation_policy: { id: p, type: 'escalation_policy_reference' },
          escalation_level: o.level,
          schedule: o.schedule ? { id: o.schedule, type: 'schedule_reference' } : null,
          user: userRef(o.user, full),
          start: null,
          end: null,
        })),
      );
      return json(200, { oncalls, limit: 25, offset: 0, more: false, total: null });
    }
    const user = /^\/users\/([^/]+)$/.exec(req.path);
    if (user) {
      const u = users.get(decodeURIComponent(user[1]));
      return u ? json(200, { user: userRef(u, true) }) : notFound;
    }
    return notFound;
  }

  function events(req: PeerRequest) {
    const e = req.body ?? {};
    const errors: string[] = [];
    if (!keys.has(e.routing_key)) errors.push("'routing_key' is invalid");
    if (!['trigger', 'acknowledge', 'resolve'].includes(e.event_action)) errors.push("'event_action' is invalid");
    if (e.event_action === 'trigger' && (!e.payload?.summary || !e.payload?.source || !e.payload?.severity)) errors.push("'payload' is missing fields");
    if (e.event_action !== 'trigger' && !e.dedup_key) errors.push("'dedup_key' is required");
    if (errors.length) return json(400, { status: 'invalid event', message: 'Event object is invalid', errors });
    const key = e.dedup_key as string;
    const alert = alerts.get(key) ?? { routing_key: e.routing_key, triggers: 0, resolved: false, last: null };
    if (e.event_action === 'trigger') alert.triggers++;
    if (e.event_action === 'resolve') alert.resolved = true;
    alert.last = e;
    alerts.set(key, alert);
    return json(202, { status: 'success', message: 'Event processed', dedup_key: key });
  }

  const peer = (await startHttpPeer((req) => (req.path === '/v2/enqueue' && req.method === 'POST' ? events(req) : rest(req)))) as PagerDutyPeer;
  peer.alerts = alerts;
  peer.events = () => peer.requests.filter((r) => r.path === '/v2/enqueue').map((r) => r.body);
  return peer;
}
