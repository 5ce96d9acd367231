// A record's ticket kept up to date: a ticket plugin that reaches an outside tracker (a local HTTP
// peer here) is asked to update the ticket when the title, status, priority or commander changes,
// in a job after the write; a tracker that fails never fails the write.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import { api, person, useWorld } from '../../../test/worlds/incidents.ts';
import { listJobs } from '../../jobs/admin.ts';
import { registerPlugins } from '../../plugins/registry.ts';
import type { TicketPlugin } from '../../plugins/types.ts';
import { installPlugins } from '../plugin/catalogue.ts';

interface Received {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

/** A tracker over HTTP: POST /tickets makes one, PUT /tickets/<id> updates it; `failing` answers 503. */
function startTracker() {
  const received: Received[] = [];
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', body: text ? JSON.parse(text) : {} });
      if (state.failing) return res.writeHead(503).end();
      const id = `T-${received.filter((r) => r.method === 'POST').length}`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
    });
  });
  return new Promise<{ url: string; received: Received[]; state: typeof state; close(): Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received,
        state,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

/** A third-party ticket plugin, as a package would declare one. */
const httpTicket: TicketPlugin = {
  slug: 'test-http-ticket',
  title: 'Test Plugin - HTTP Tracker',
  type: 'ticket',
  version: '0.0.1',
  author: 'Tests',
  author_url: '',
  description: 'Keeps a ticket per record in an HTTP tracker.',
  configuration: Type.Object({ url: Type.String({ format: 'uri' }) }, { additionalProperties: false }),
  async create(subject, config, env) {
    const res = await env.outbound.fetch(`${config.url}/tickets`, { method: 'POST', body: JSON.stringify({ title: subject.title, status: subject.status }) });
    if (!res.ok) throw new Error(`tracker answered ${res.status}`);
    const { id } = (await res.json()) as { id: string };
    return { resource_id: id, resource_type: 'test-ticket', weblink: `${config.url}/tickets/${id}` };
  },
  async update(ticket, subject, config, env) {
    const res = await env.outbound.fetch(`${config.url}/tickets/${ticket.resource_id}`, {
      method: 'PUT',
      body: JSON.stringify({ title: subject.title, status: subject.status, priority: subject.priority, owner: subject.owner }),
    });
    if (!res.ok) throw new Error(`tracker answered ${res.status}`);
  },
};

const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
let tracker: Awaited<ReturnType<typeof startTracker>>;
const drain = () => drainJobs(w.t.database, w.t.settings, 60_000, { retryNow: true });

beforeAll(async () => {
  tracker = await startTracker();
  registerPlugins([httpTicket], 'ticket-update.test.ts');
  await installPlugins(w.t.database.db, { plugins: [httpTicket] });
  const list = await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } });
  const instance = list.body.items.find(
    (i: { plugin: { slug: string }; project: { name: string } }) => i.plugin.slug === 'test-http-ticket' && i.project.name === 'default',
  );
  const enabled = await call(w.t.app, 'PUT', `/default/plugins/instances/${instance.id}`, {
    token: w.admin,
    body: { enabled: true, configuration: { url: tracker.url } },
  });
  expect(enabled.status).toBe(200);
});
afterAll(() => tracker?.close());

const updatesOf = (id: string) => tracker.received.filter((r) => r.method === 'PUT' && r.path === `/tickets/${id}`).map((r) => r.body);

describe('ticket update', () => {
  it('updates the ticket when the title, status, priority or commander changes, not for other fields', async () => {
    const created = await incidents.create({ title: 'Disk full', description: 'On db-1' }, w.admin);
    expect(created.status).toBe(200);
    await drain();
    const ticket = (await incidents.get(created.body.id, w.admin)).body.ticket;
    expect(ticket).toMatchObject({ resource_id: expect.stringMatching(/^T-\d+$/), resource_type: 'test-ticket' });
    const id = ticket.resource_id as string;
    expect(updatesOf(id)).toEqual([]);

    await incidents.edit(created.body.id, { title: 'Disk full on db-1' });
    await drain();
    expect(updatesOf(id).at(-1)).toMatchObject({ title: 'Disk full on db-1', status: 'Active' });

    await incidents.edit(created.body.id, { description: 'Only the description' });
    await drain();
    expect(updatesOf(id)).toHaveLength(1);

    await incidents.edit(created.body.id, { status: 'Stable' });
    await drain();
    expect(updatesOf(id).at(-1)).toMatchObject({ status: 'Stable' });

    await incidents.edit(created.body.id, { incident_priority: { name: 'High' } });
    await drain();
    expect(updatesOf(id).at(-1)).toMatchObject({ priority: 'High' });

    await incidents.edit(created.body.id, { commander: person('owner@example.com') });
    await drain();
    expect(updatesOf(id).at(-1)).toMatchObject({ owner: 'owner@example.com' });

    await incidents.edit(created.body.id, { status: 'Closed' });
    await drain();
    expect(updatesOf(id).at(-1)).toMatchObject({ status: 'Closed' });
    expect(updatesOf(id)).toHaveLength(5);
  });

  it('a tracker that keeps failing fails the update job with its reason; the write stands', async () => {
    const created = await incidents.create({ title: 'Queue stuck' }, w.admin);
    await drain();
    tracker.state.failing = true;
    try {
      await w.t.database.query(`UPDATE pgboss.queue SET retry_limit = 1, retry_delay = 1, retry_backoff = false WHERE name = 'ticket-update'`);
      const res = await incidents.edit(created.body.id, { title: 'Queue stuck again' });
      expect(res.status).toBe(200);
      await drain();
      const failed = (await listJobs(w.t.database, { limit: 500 })).filter((j) => j.name === 'ticket-update' && j.state === 'failed');
      expect(failed).toHaveLength(1);
      expect(JSON.stringify(failed[0].output)).toContain('tracker answered 503');
      expect((await incidents.get(created.body.id, w.admin)).body.title).toBe('Queue stuck again');
    } finally {
      tracker.state.failing = false;
    }
  });
});
