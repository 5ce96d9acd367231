// Documents kept outside Muster: a document plugin that reaches an outside service (a local HTTP peer
// here) is called in a job after the write, never in it: the incident's document when it is created,
// the review when it becomes Stable, the review's last facts and read-only documents when it closes.
// A service that is down never fails the write; the job retries and makes the document once it answers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import { api, useWorld } from '../../../test/worlds/incidents.ts';
import { registerPlugins } from '../../plugins/registry.ts';
import type { DocumentPlugin } from '../../plugins/types.ts';
import { installPlugins } from '../plugin/catalogue.ts';

interface Received {
  method: string;
  path: string;
  body: Record<string, any>;
}

/** A document service: POST /docs makes one, PUT /docs/<id> fills it, POST /docs/<id>/lock locks it; the next `failures` requests answer 503. */
function startDocs() {
  const received: Received[] = [];
  const state = { failures: 0, refused: 0 };
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      if (state.failures > 0) {
        state.failures--;
        state.refused++;
        return res.writeHead(503).end();
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', body: text ? JSON.parse(text) : {} });
      const id = `D-${received.filter((r) => r.method === 'POST' && r.path === '/docs').length}`;
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

const send = async (url: string, init: RequestInit, env: Parameters<DocumentPlugin['create']>[2]) => {
  const res = await env.outbound.fetch(url, { ...init, headers: { 'content-type': 'application/json' } });
  if (!res.ok) throw new Error(`document service answered ${res.status}`);
  return res.json() as Promise<{ id: string }>;
};

/** A third-party document plugin, as a package would declare one: not inline, it reaches outside. */
const outsideDocs: DocumentPlugin = {
  slug: 'test-outside-docs',
  title: 'Test Plugin - Outside Documents',
  type: 'document',
  version: '0.0.1',
  author: 'Tests',
  author_url: '',
  description: 'Keeps documents in an outside service.',
  configuration: Type.Object({ url: Type.String({ format: 'uri' }) }, { additionalProperties: false }),
  async create(request, config, env) {
    const { id } = await send(
      `${config.url}/docs`,
      { method: 'POST', body: JSON.stringify({ kind: request.kind, title: request.subject.title, values: request.values }) },
      env,
    );
    const resource_type = { incident: 'dispatch-incident-document', case: 'dispatch-case-document', review: 'dispatch-incident-review-document' }[request.kind];
    return { name: `${request.kind} of ${request.subject.name}`, resource_id: id, resource_type, weblink: `${config.url}/docs/${id}` };
  },
  async update(document, values, config, env) {
    await send(`${config.url}/docs/${document.resource_id}`, { method: 'PUT', body: JSON.stringify({ values }) }, env);
    return document;
  },
  async makeReadOnly(document, config, env) {
    await send(`${config.url}/docs/${document.resource_id}/lock`, { method: 'POST', body: '{}' }, env);
    return true;
  },
  async delete() {},
};

const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
let docs: Awaited<ReturnType<typeof startDocs>>;
const drain = () => drainJobs(w.t.database, w.t.settings, 60_000, { retryNow: true });

/** The project's instance of a plugin, switched on or off (one document plugin is active at a time). */
async function setEnabled(slug: string, enabled: boolean, configuration?: Record<string, unknown>) {
  const list = await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } });
  const instance = list.body.items.find((i: { plugin: { slug: string }; project: { name: string } }) => i.plugin.slug === slug && i.project.name === 'default');
  const res = await call(w.t.app, 'PUT', `/default/plugins/instances/${instance.id}`, {
    token: w.admin,
    body: { enabled, ...(configuration ? { configuration } : {}) },
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  docs = await startDocs();
  registerPlugins([outsideDocs], 'outside.test.ts');
  await installPlugins(w.t.database.db, { plugins: [outsideDocs] });
  await setEnabled('muster-document', false);
  await setEnabled('test-outside-docs', true, { url: docs.url });
});
afterAll(() => docs?.close());

const documentsOf = async (id: number) =>
  ((await incidents.get(id, w.admin)).body.documents as { resource_type: string; weblink: string }[]).map((d) => [d.resource_type, d.weblink]);

describe('a document plugin that reaches outside', () => {
  it('makes the incident document and the review after the writes, and locks them on close', async () => {
    const created = await incidents.create({ title: 'Payments slow', description: 'Checkout times out.' }, w.admin);
    expect(created.status).toBe(200);
    // The write did not call the service: its document comes with the job.
    expect(docs.received).toEqual([]);
    expect(created.body.documents).toEqual([]);
    await drain();
    expect(docs.received.map((r) => [r.method, r.path, r.body.kind])).toEqual([['POST', '/docs', 'incident']]);
    expect(docs.received[0].body.title).toBe('Payments slow');
    expect(await documentsOf(created.body.id)).toEqual([['dispatch-incident-document', `${docs.url}/docs/D-1`]]);

    expect((await incidents.edit(created.body.id, { status: 'Stable' }, w.admin)).status).toBe(200);
    await drain();
    const review = docs.received.at(-1)!;
    expect([review.method, review.path, review.body.kind]).toEqual(['POST', '/docs', 'review']);
    // Filled from the record, as the inline plugin's review is.
    expect(JSON.stringify(review.body.values)).toContain('Checkout times out.');
    expect((await documentsOf(created.body.id)).map(([type]) => type).sort()).toEqual(['dispatch-incident-document', 'dispatch-incident-review-document']);

    expect((await incidents.edit(created.body.id, { status: 'Closed', resolution: 'Scaled out.' }, w.admin)).status).toBe(200);
    await drain();
    const closing = docs.received.slice(2).map((r) => [r.method, r.path]);
    expect(closing).toEqual(
      expect.arrayContaining([
        ['PUT', '/docs/D-2'],
        ['POST', '/docs/D-1/lock'],
        ['POST', '/docs/D-2/lock'],
      ]),
    );
  });

  it('a service that is down fails nothing: the job retries and the document comes once it answers', async () => {
    docs.state.failures = 2;
    const created = await incidents.create({ title: 'Queue stuck' }, w.admin);
    expect(created.status).toBe(200);
    const seen = docs.received.length;
    await drain();
    // Refused twice, made on the third attempt, once.
    expect(docs.state.refused).toBe(2);
    expect(docs.received.slice(seen).map((r) => [r.method, r.body.title])).toEqual([['POST', 'Queue stuck']]);
    expect((await documentsOf(created.body.id)).map(([type]) => type)).toEqual(['dispatch-incident-document']);
  });
});
