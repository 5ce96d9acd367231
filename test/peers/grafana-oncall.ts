// Grafana OnCall as a local peer: its HTTP API v1 (`Authorization: <token>`; schedules with their
// `on_call_now` users, users, paginated lists; 401 `Invalid token.` otherwise) and a Formatted
// Webhook integration's inbound URL (/integrations/v1/formatted_webhook/<token>/), which groups
// alerts by `alert_uid` and resolves the group on `state: ok`.
import { type HttpPeer, json, type PeerRequest, startHttpPeer } from './http-peer.ts';

export interface OncallUserDef {
  id: string;
  username: string;
  email: string;
}

export interface GrafanaOncallPeer extends HttpPeer {
  /** The integration's inbound URL. */
  webhookUrl: string;
  /** Alert groups by alert_uid: alerts received while firing, and whether resolved. */
  groups: Map<string, { alerts: number; resolved: boolean; last: any }>;
  webhooks(): PeerRequest[];
}

const page = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results, page_size: 50, current_page_number: 1, total_pages: 1 });

export async function startGrafanaOncall(opts: {
  token: string;
  webhookToken: string;
  schedules: { id: string; name: string; on_call_now: OncallUserDef[] }[];
}): Promise<GrafanaOncallPeer> {
  const groups: GrafanaOncallPeer['groups'] = new Map();
  const users = new Map(opts.schedules.flatMap((s) => s.on_call_now.map((u) => [u.id, u] as const)));
  const scheduleJson = (s: (typeof opts.schedules)[number]) => ({
    id: s.id,
    name: s.name,
    type: 'web',
    team_id: null,
    time_zone: 'UTC',
    on_call_now: s.on_call_now.map((u) => u.id),
    shifts: [],
    slack: { channel_id: null, user_group_id: null },
  });

  function api(req: PeerRequest) {
    if (req.headers.authorization !== opts.token) return json(401, { detail: 'Invalid token.' });
    if (req.method !== 'GET') return json(405, { detail: `Method "${req.method}" not allowed.` });
    if (req.path === '/api/v1/schedules/') return json(200, page(opts.schedules.map(scheduleJson)));
    const schedule = /^\/api\/v1\/schedules\/([^/]+)\/$/.exec(req.path);
    if (schedule) {
      const s = opts.schedules.find((x) => x.id === schedule[1]);
      return s ? json(200, scheduleJson(s)) : json(404, { detail: 'Not found.' });
    }
    const user = /^\/api\/v1\/users\/([^/]+)\/$/.exec(req.path);
    if (user) {
      const u = users.get(user[1]);
      return u
        ? json(200, { id: u.id, email: u.email, slack: null, username: u.username, role: 'user', is_phone_number_verified: false, timezone: 'UTC', teams: [] })
        : json(404, { detail: 'Not found.' });
    }
    return json(404, { detail: 'Not found.' });
  }

  function webhook(req: PeerRequest, token: string) {
    if (token !== opts.webhookToken) return json(403, { detail: 'Integration not found' });
    const b = req.body ?? {};
    const uid = String(b.alert_uid ?? `auto-${groups.size}`);
    const group = groups.get(uid) ?? { alerts: 0, resolved: false, last: null };
    if (b.state === 'ok') group.resolved = true;
    else if (group.resolved) Object.assign(group, { alerts: 1, resolved: false });
    else group.alerts++;
    group.last = b;
    groups.set(uid, group);
    return { status: 200, body: 'Ok.', headers: { 'content-type': 'text/plain' } };
  }

  const peer = (await startHttpPeer((req) => {
    const hook = /^\/integrations\/v1\/formatted_webhook\/([^/]+)\/$/.exec(req.path);
    if (hook && req.method === 'POST') return webhook(req, hook[1]);
    return api(req);
  })) as GrafanaOncallPeer;
  peer.groups = groups;
  peer.webhookUrl = `${peer.url}/integrations/v1/formatted_webhook/${opts.webhookToken}/`;
  peer.webhooks = () => peer.requests.filter((r) => r.path.startsWith('/integrations/v1/formatted_webhook/'));
  return peer;
}
