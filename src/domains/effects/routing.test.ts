import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import { cases, roles as caseRoles } from '../../../test/worlds/cases.ts';
import { api, person, roles, useWorld } from '../../../test/worlds/incidents.ts';
import { listJobs } from '../../jobs/admin.ts';
import { encryptConfiguration } from '../../plugins/secrets.ts';
import { INCIDENT } from '../incident/kind.ts';
import { installPlugins } from '../plugin/catalogue.ts';
import { plugin, pluginInstance } from '../plugin/table.ts';
import { filterMatches, matchFilters } from './filter-match.ts';

const w = useWorld({ outboundAllow: LOCAL_PEERS });
const a = api(w);
const c = cases(w);
const API_KEY = 'very-secret-oncall-key';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** An on-call HTTP service: answers who is on call, takes pages, records every request. */
function startReceiver(): Promise<{ server: Server; url: string; requests: Received[] }> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: text ? JSON.parse(text) : null });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && req.url?.startsWith('/oncalls')) res.end(JSON.stringify({ oncalls: [{ email: 'oncall@example.com', name: 'On Call' }] }));
      else if (req.method === 'POST' && req.url === '/v2/enqueue') res.writeHead(202).end(JSON.stringify({ status: 'success' }));
      else res.writeHead(404).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests })),
  );
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let projectId: number;
const post = (path: string, body: Record<string, unknown>) =>
  call(w.t.app, 'POST', `/default/${path}`, { token: w.owner, body: { project: { name: 'default' }, ...body } });
const filter = async (name: string, expression: unknown, subject = 'incident') =>
  (await post('search/filters', { name, expression, subject })).body.id as number;
const individual = (email: string, filters: number[], extra: Record<string, unknown> = {}) =>
  post('individuals', { email, filters: filters.map((id) => ({ id })), ...extra });
const titled = (pattern: string) => [{ model: 'Incident', field: 'title', op: 'ilike', value: pattern }];
const drain = () => drainJobs(w.t.database, w.t.settings);

/** Enables the HTTP on-call plugin in `default`, pointing at `url`. */
async function enableOncall(url: string) {
  const db = w.t.database.db;
  const [p] = await db.select({ id: plugin.id }).from(plugin).where(eq(plugin.slug, 'muster-oncall-http'));
  await db.delete(pluginInstance).where(and(eq(pluginInstance.project_id, projectId), eq(pluginInstance.plugin_id, p.id)));
  const [org] = await w.t.database.query<{ organization_id: number }>('SELECT organization_id FROM project WHERE id = $1', [projectId]);
  await db.insert(pluginInstance).values({
    organization_id: org.organization_id,
    project_id: projectId,
    plugin_id: p.id,
    plugin_type: 'oncall',
    enabled: true,
    configuration: encryptConfiguration({ url, api_key: API_KEY, routing_key: 'routing-1' }, w.t.settings.encryptionKey!),
  });
}

beforeAll(async () => {
  receiver = await startReceiver();
  projectId = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items.find((p: any) => p.name === 'default').id;
  await installPlugins(w.t.database.db);
  const database = await filter('Database incidents', titled('%database%'));
  const network = await filter('Network incidents', titled('%network%'));
  const phishing = await filter('Phishing cases', [{ model: 'Case', field: 'title', op: 'ilike', value: '%phish%' }], 'case');
  await individual('dba@example.com', [database]);
  await individual('net@example.com', [network]);
  await individual('gone@example.com', [database], { is_active: false });
  await individual('analyst@example.com', [phishing]);
});

afterAll(() => new Promise<void>((resolve) => (receiver ? receiver.server.close(() => resolve()) : resolve())));

describe('routing contacts by search filters', () => {
  it('adds the active individuals whose filters match a new Open incident as Observers, in the create response', async () => {
    const res = await a.create({ title: 'The database is down' });
    expect(res.status).toBe(200);
    expect(roles(res)).toEqual({ 'member@example.com': ['Reporter', 'Incident Commander'], 'dba@example.com': ['Observer'] });
    const events = (await a.get(res.body.id)).body.events.map((e: any) => e.description);
    expect(events).toContain('dba@example.com added to incident with Observer role');
  });

  it('routes nobody into a Restricted incident', async () => {
    const res = await a.create({ title: 'The database leaked', visibility: 'Restricted' });
    expect(res.status).toBe(200);
    expect(Object.keys(roles(res))).toEqual(['member@example.com']);
  });

  it('routes the person an update makes match, once', async () => {
    const res = await a.create({ title: 'Something broke' });
    expect(Object.keys(roles(res))).toEqual(['member@example.com']);
    const updated = await a.edit(res.body.id, { title: 'The network broke' });
    expect(updated.status).toBe(200);
    expect(roles(updated)).toEqual({ 'member@example.com': ['Reporter', 'Incident Commander'], 'net@example.com': ['Observer'] });
    const again = await a.edit(res.body.id, { description: 'Still broken.' });
    expect(roles(again)).toEqual(roles(updated));
  });

  it('routes nobody into an incident created Closed, nor the inactive contacts', async () => {
    const closed = await a.create({ title: 'An old database problem', status: 'Closed' });
    expect(closed.status).toBe(200);
    expect(closed.body.participants.some((p: any) => p.individual.email === 'dba@example.com')).toBe(false);
    const open = await a.create({ title: 'The database and the network' });
    expect(roles(open)).toEqual({ 'member@example.com': ['Reporter', 'Incident Commander'], 'dba@example.com': ['Observer'], 'net@example.com': ['Observer'] });
  });

  it('routes cases by filters of subject case only', async () => {
    const phish = await c.create({ title: 'Phishing mail reported' });
    expect(phish.status).toBe(200);
    expect(caseRoles(phish.body)).toEqual({ 'member@example.com': ['Assignee', 'Reporter'], 'analyst@example.com': ['Observer'] });
    // An incident filter never matches a case.
    const db = await c.create({ title: 'A database case' });
    expect(Object.keys(caseRoles(db.body))).toEqual(['member@example.com']);
    // An update that makes the case match routes too.
    const later = await c.create({ title: 'A strange mail' });
    expect(Object.keys(caseRoles(later.body))).toEqual(['member@example.com']);
    const edited = await c.edit(later.body.id, { title: 'A phishing attempt' });
    expect(caseRoles(edited.body)['analyst@example.com']).toEqual(['Observer']);
  });
});

describe('on-call services', () => {
  let critical: number;
  beforeAll(async () => {
    await enableOncall(receiver.url);
    critical = (await post('incident_priorities', { name: 'Critical', page_commander: true, view_order: 9 })).body.id;
    await post('incident_priorities', { name: 'Elevated', view_order: 8 });
    await post('services', { name: 'Commanders', external_id: 'PD-IC' });
    const policy = await call(w.t.app, 'PUT', `/default/incident_roles/${encodeURIComponent('Incident Commander')}`, {
      token: w.owner,
      query: { projectName: 'default' },
      body: {
        policies: [
          {
            order: 1,
            service: { external_id: 'PD-IC' },
            incident_priorities: [{ name: 'Critical' }, { name: 'Elevated' }],
            incident_types: [{ name: 'Default' }],
          },
        ],
      },
    });
    expect(policy.status).toBe(200);
  });

  it("makes a service-only commander policy's on-call person the commander, and pages when the priority says so", async () => {
    receiver.requests.length = 0;
    const res = await a.create({ title: 'Payments are failing', incident_priority: { name: 'Critical' } });
    expect(res.status).toBe(200);
    expect(res.body.incident_priority.id).toBe(critical);
    // Until the on-call service answers, the reporter commands.
    expect(res.body.commander.individual.email).toBe('member@example.com');
    await drain();

    const after = await a.get(res.body.id);
    expect(after.body.commander.individual.email).toBe('oncall@example.com');
    expect(roles(after)).toEqual({ 'member@example.com': ['Reporter', 'Incident Commander (renounced)'], 'oncall@example.com': ['Incident Commander'] });

    const asked = receiver.requests.filter((r) => r.method === 'GET');
    expect(asked.map((r) => r.url)).toEqual(['/oncalls?service=PD-IC']);
    expect(asked[0].headers.authorization).toBe(`Token token=${API_KEY}`);
    const pages = receiver.requests.filter((r) => r.method === 'POST');
    expect(pages).toHaveLength(1);
    expect(pages[0].url).toBe('/v2/enqueue');
    expect(pages[0].headers.authorization).toBe(`Token token=${API_KEY}`);
    expect(pages[0].headers['idempotency-key']).toEqual(expect.any(String));
    expect(pages[0].body).toEqual({
      routing_key: 'routing-1',
      event_action: 'trigger',
      dedup_key: `incident-${res.body.id}`,
      payload: {
        summary: expect.stringContaining('Payments are failing'),
        source: 'muster',
        severity: 'critical',
        custom_details: expect.objectContaining({ weblink: expect.stringContaining(`/default/incidents/`), service: 'PD-IC', priority: 'Critical' }),
      },
    });
  });

  it('pages nobody when the priority does not page, and keeps a commander the body named', async () => {
    receiver.requests.length = 0;
    const quiet = await a.create({ title: 'Checkout is slow', incident_priority: { name: 'Elevated' } });
    const named = await a.create({ title: 'Refunds are stuck', incident_priority: { name: 'Critical' }, commander: person('boss@example.com') });
    await drain();
    expect((await a.get(quiet.body.id)).body.commander.individual.email).toBe('oncall@example.com');
    expect((await a.get(named.body.id)).body.commander.individual.email).toBe('boss@example.com');
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /oncalls?service=PD-IC']);
  });

  it('brings in the on-call person of a service whose filter matches, as Observer', async () => {
    const outages = await filter('Outages', titled('%outage%'));
    await post('services', { name: 'Outage desk', external_id: 'PD-OUT', filters: [{ id: outages }] });
    receiver.requests.length = 0;
    const res = await a.create({ title: 'A big outage' });
    expect(Object.keys(roles(res))).toEqual(['member@example.com']);
    await drain();
    expect(roles(await a.get(res.body.id))['oncall@example.com']).toEqual(['Observer']);
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /oncalls?service=PD-OUT']);
  });

  it("gives a case its type's on-call person as assignee when the create named none, and pages when the priority says so", async () => {
    const svc = (await post('services', { name: 'Security desk', external_id: 'PD-SEC' })).body.id;
    await post('case_types', { name: 'On call', oncall_service: { id: svc }, conversation_target: '#sec' });
    await post('case_priorities', { name: 'Urgent', page_assignee: true, view_order: 9 });
    receiver.requests.length = 0;
    const res = await c.create({ title: 'Malware found', case_type: { name: 'On call' }, case_priority: { name: 'Urgent' } });
    expect(res.status).toBe(200);
    expect(res.body.assignee.individual.email).toBe('member@example.com');
    const named = await c.create({ title: 'Malware again', case_type: { name: 'On call' }, assignee: person('lead@example.com') });
    await drain();

    const after = (await c.get(res.body.id)).body;
    expect(after.assignee.individual.email).toBe('oncall@example.com');
    expect(caseRoles(after)).toEqual({ 'member@example.com': ['Assignee (renounced)', 'Reporter'], 'oncall@example.com': ['Assignee'] });
    expect((await c.get(named.body.id)).body.assignee.individual.email).toBe('lead@example.com');
    const pages = receiver.requests.filter((r) => r.method === 'POST');
    expect(pages.map((p) => p.body.dedup_key)).toEqual([`case-${res.body.id}`]);
  });

  it('never shows the api key: not in records, their timelines, nor the jobs', async () => {
    const list = await call(w.t.app, 'GET', '/default/incidents', { token: w.owner, query: { itemsPerPage: -1, expand: true } });
    const jobs = await listJobs(w.t.database, { limit: 500 });
    expect(jobs.some((j) => j.name === 'oncall-page')).toBe(true);
    for (const text of [JSON.stringify(list.body), JSON.stringify(jobs)]) expect(text).not.toContain(API_KEY);
  });

  it('a service that cannot be reached fails its jobs after their retries; the write stands', async () => {
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    await w.t.database.query(`UPDATE pgboss.queue SET retry_limit = 1, retry_delay = 1, retry_backoff = false WHERE name IN ('oncall-resolve', 'oncall-page')`);
    const res = await a.create({ title: 'Everything is down', incident_priority: { name: 'Critical' } });
    expect(res.status).toBe(200);
    await drain();
    const jobs = (await listJobs(w.t.database, { limit: 500 })).filter((j) => ['oncall-resolve', 'oncall-page'].includes(j.name) && j.state !== 'completed');
    expect(jobs.map((j) => [j.name, j.state]).sort()).toEqual([
      ['oncall-page', 'failed'],
      ['oncall-resolve', 'failed'],
    ]);
    expect(JSON.stringify(jobs)).not.toContain(API_KEY);
    for (const j of jobs) expect(JSON.stringify(j.output)).toContain('on-call service unreachable');
    expect((await a.get(res.body.id)).body.commander.individual.email).toBe('member@example.com');
  });
});

describe('filterMatches', () => {
  it('runs a saved expression on one record: fields, one-to-one models, tags; an empty one matches all, a broken one nothing', async () => {
    const res = await a.create({ title: 'Disk full', incident_priority: { name: 'Elevated' }, tags: [{ name: 'storage', tag_type: { name: 'Component' } }] });
    expect(res.status).toBe(200);
    const db = w.t.database.db;
    const id = res.body.id;
    expect(await filterMatches(db, INCIDENT, id, titled('disk%'))).toBe(true);
    expect(await filterMatches(db, INCIDENT, id, titled('memory%'))).toBe(false);
    expect(await filterMatches(db, INCIDENT, id, [{ model: 'IncidentPriority', field: 'name', value: 'Elevated' }])).toBe(true);
    expect(await filterMatches(db, INCIDENT, id, [{ model: 'Tag', field: 'name', value: 'storage' }])).toBe(true);
    expect(await filterMatches(db, INCIDENT, id, { not: [{ model: 'Tag', field: 'name', value: 'storage' }] })).toBe(false);
    expect(await filterMatches(db, INCIDENT, id, [])).toBe(true);
    expect(await filterMatches(db, INCIDENT, id, [{ field: 'no_such_field', value: 1 }])).toBe(false);
    const batch = await matchFilters(
      db,
      INCIDENT,
      [id, id + 100000],
      [
        { id: 1, expression: titled('disk%') },
        { id: 2, expression: titled('memory%') },
      ],
    );
    expect([...batch]).toEqual([[1, new Set([id])]]);
  });
});
