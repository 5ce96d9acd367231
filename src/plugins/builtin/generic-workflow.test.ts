// generic-workflow on the wire as Dispatch's plugin sends it, against a local receiver written to
// Dispatch's protocol: it keeps each request's method, path and query, headers and raw body, and
// answers a run's checks in turn (nothing, Running, then Completed with a log).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import { useWorld } from '../../../test/worlds/world.ts';
import { pythonJson } from './generic-workflow.ts';

const AUTH = 'Bearer: dispatch-receiver-token';

interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
}

function startReceiver() {
  const received: Received[] = [];
  const answers = [{}, { status: 'Running', weblink: 'https://wf.example.com/runs/7' }];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, raw });
      const checks = received.filter((r) => r.method === 'GET').length;
      const body =
        req.method === 'POST'
          ? { message: 'started' }
          : (answers[checks - 1] ?? {
              status: 'Completed',
              weblink: 'https://wf.example.com/runs/7',
              artifacts: [{ name: 'Quarantine log', weblink: 'https://wf.example.com/runs/7/log', evergreen: false, resource_id: null }],
            });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  return new Promise<{ url: string; received: Received[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dispatch/workflows`,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

const w = useWorld({ outboundAllow: LOCAL_PEERS, workflowPollSeconds: 0, uiUrl: 'https://muster.example.com' });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let instanceId: number;

beforeAll(async () => {
  receiver = await startReceiver();
  const instances = await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } });
  instanceId = instances.body.items.find((i: { plugin: { slug: string } }) => i.plugin.slug === 'generic-workflow').id;
});
afterAll(() => receiver?.close());

describe('generic-workflow', () => {
  it("takes Dispatch's configuration, not Muster's own protocol's", async () => {
    const muster = await call(w.t.app, 'PUT', `/default/plugins/instances/${instanceId}`, {
      token: w.admin,
      body: { enabled: true, configuration: { url: receiver.url, auth_header: AUTH } },
    });
    expect(muster.status).toBe(422);
    const dispatch = await call(w.t.app, 'PUT', `/default/plugins/instances/${instanceId}`, {
      token: w.admin,
      body: { enabled: true, configuration: { api_url: receiver.url, auth_header: AUTH } },
    });
    expect(dispatch.status).toBe(200);
    expect(dispatch.body.configuration).toEqual({ api_url: receiver.url, auth_header: '**********' });
  });

  it('starts a run and reads its status back with the requests of Dispatch: a receiver written for Dispatch works unchanged', async () => {
    const wf = await call(w.t.app, 'POST', '/default/workflows', {
      token: w.admin,
      body: {
        name: 'Quarantine host',
        resource_id: 'quarantine',
        parameters: [
          { key: 'site', value: 'Zürich' },
          { key: 'unset', value: '' },
        ],
        plugin_instance: { id: instanceId },
        project: { name: 'default' },
      },
    });
    expect(wf.status).toBe(200);
    const incident = (
      await call(w.t.app, 'POST', '/default/incidents', {
        token: w.owner,
        body: { title: 'Host compromised', description: 'A host.', project: { name: 'default' } },
      })
    ).body;
    const run = await call(w.t.app, 'POST', `/default/workflows/${wf.body.id}/run`, { token: w.owner, body: { incident: { id: incident.id } } });
    expect(run.status).toBe(200);

    await drainJobs(w.t.database, w.t.settings);

    const [start, ...checks] = receiver.received;
    expect(start.method).toBe('POST');
    expect(start.url).toBe('/dispatch/workflows');
    // Byte for byte what Dispatch's json.dumps writes: its separators, non-ASCII escaped, the run's id a number.
    expect(start.raw).toBe(
      `{"workflow_id": "quarantine", "params": {"site": "Z\\u00fcrich", "externalRef": "https://muster.example.com/default/incidents/${incident.name}", "workflowInstanceId": ${run.body.id}}}`,
    );
    expect(start.headers['content-type']).toBe('application/json');
    expect(start.headers.authorization).toBe(AUTH);
    expect(start.headers).not.toHaveProperty('idempotency-key');

    const query = `workflow_id=quarantine&tags=workflowId%3Aquarantine&tags=workflowInstanceId%3A${run.body.id}`;
    expect(checks.map((c) => `${c.method} ${c.url} ${c.raw}`)).toEqual([
      `GET /dispatch/workflows?${query} `,
      `GET /dispatch/workflows?${query} `,
      `GET /dispatch/workflows?${query} `,
    ]);
    expect(checks.every((c) => c.headers.authorization === AUTH && c.headers['content-type'] === 'application/json')).toBe(true);

    // Nothing said (the start's answer, the first check's `{}`) changed nothing; then Running, then Completed.
    const read = (await call(w.t.app, 'GET', `/default/workflows/instances/${run.body.id}`, { token: w.owner })).body;
    expect(read).toMatchObject({ status: 'Completed', weblink: 'https://wf.example.com/runs/7', artifacts: [{ name: 'Quarantine log' }] });
    const events = (await call(w.t.app, 'GET', `/default/incidents/${incident.id}`, { token: w.owner })).body.events.map(
      (e: { description: string }) => e.description,
    );
    expect(events.filter((d: string) => d.startsWith('Workflow Quarantine host status'))).toEqual([
      'Workflow Quarantine host status changed from Submitted to Running',
      'Workflow Quarantine host status changed from Running to Completed',
    ]);
  });

  it('writes JSON as json.dumps does', () => {
    expect(pythonJson({ a: [1, 'é', null, true], b: { 'c"': '\n😀' } })).toBe('{"a": [1, "\\u00e9", null, true], "b": {"c\\"": "\\n\\ud83d\\ude00"}}');
  });
});
