// GoAlert as a local peer: its GraphQL API (POST /api/graphql with `Authorization: Bearer <key>`,
// answering `service(id)` with its on-call users and integration keys, and `user(id)`; an unknown
// id is null, as GoAlert answers) and its generic incoming API (POST /api/v2/generic/incoming with
// the service's integration key as `token`: one alert per dedup, `action: close` closes it; JSON
// `{AlertID, ServiceID, IsNew}` when asked for JSON, else 204).
import { type HttpPeer, json, type PeerRequest, startHttpPeer } from './http-peer.ts';

export interface GoalertUser {
  id: string;
  name: string;
  email: string;
}

export interface GoalertServiceDef {
  id: string;
  name: string;
  /** Who is on call, at each step of the service's escalation policy. */
  oncall: { step: number; user: GoalertUser }[];
  /** Its generic API integration key, if it has one. */
  generic_key?: string;
}

export interface GoalertPeer extends HttpPeer {
  /** Alerts by dedup: the service, how many times sent, and whether closed. */
  alerts: Map<string, { service: string; sent: number; closed: boolean; summary: string; details: string }>;
  incoming(): PeerRequest[];
}

/**
 * `apiKey` is bound to `query`, as GoAlert binds its API keys: another query text is refused
 * ("wrong query for API key"); the operation run is the one `operationName` names.
 */
export async function startGoalert(opts: { apiKey: string; query: string; services: GoalertServiceDef[] }): Promise<GoalertPeer> {
  const alerts: GoalertPeer['alerts'] = new Map();
  const users = new Map(opts.services.flatMap((s) => s.oncall.map((o) => [o.user.id, o.user] as const)));
  let nextAlert = 1;
  let peer: GoalertPeer;

  function graphql(req: PeerRequest) {
    if (req.headers.authorization !== `Bearer ${opts.apiKey}`) return { status: 401, body: 'unauthorized\n', headers: { 'content-type': 'text/plain' } };
    const { query, variables, operationName } = req.body ?? {};
    if (query !== undefined && query !== opts.query)
      return json(200, { errors: [{ message: 'wrong query for API key', extensions: { code: 'invalid_query' } }] });
    const operation = new RegExp(`query ${operationName}\\(\\$id: ID!\\) \\{\\s*(\\w+)\\(`).exec(opts.query)?.[1];
    if (operation === 'service') {
      const s = opts.services.find((x) => x.id === variables?.id);
      if (!s) return json(200, { data: { service: null } });
      return json(200, {
        data: {
          service: {
            id: s.id,
            name: s.name,
            onCallUsers: s.oncall.map((o) => ({ userID: o.user.id, userName: o.user.name, stepNumber: o.step })),
            integrationKeys: s.generic_key ? [{ id: `K-${s.id}`, type: 'generic', href: `${peer.url}/api/v2/generic/incoming?token=${s.generic_key}` }] : [],
          },
        },
      });
    }
    if (operation === 'user') {
      const u = users.get(variables?.id);
      return json(200, { data: { user: u ? { id: u.id, name: u.name, email: u.email } : null } });
    }
    return json(200, { errors: [{ message: `unknown operation ${operationName}` }] });
  }

  function incoming(req: PeerRequest) {
    const s = opts.services.find((x) => x.generic_key && x.generic_key === req.query.get('token'));
    if (!s) return { status: 401, body: 'unauthorized\n', headers: { 'content-type': 'text/plain' } };
    const b = req.body ?? {};
    const dedup = b.dedup || `auto:${b.summary}`;
    const existing = alerts.get(dedup);
    const isNew = !existing || existing.closed;
    if (b.action === 'close') {
      if (existing) existing.closed = true;
    } else {
      alerts.set(dedup, { service: s.id, sent: (existing?.sent ?? 0) + 1, closed: false, summary: b.summary, details: b.details });
    }
    if (req.headers.accept !== 'application/json') return { status: 204 };
    return json(200, { AlertID: isNew ? nextAlert++ : nextAlert - 1, ServiceID: s.id, IsNew: isNew });
  }

  peer = (await startHttpPeer((req) => {
    if (req.method === 'POST' && req.path === '/api/graphql') return graphql(req);
    if (req.method === 'POST' && req.path === '/api/v2/generic/incoming') return incoming(req);
    return { status: 404, body: '404 page not found\n', headers: { 'content-type': 'text/plain' } };
  })) as GoalertPeer;
  peer.alerts = alerts;
  peer.incoming = () => peer.requests.filter((r) => r.path === '/api/v2/generic/incoming');
  return peer;
}
