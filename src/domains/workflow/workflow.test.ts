// Workflows and their runs, against a real workflow receiver: a local HTTP server speaking the
// protocol of Muster's own workflow plugin (muster-workflow), which records what it is sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, LOCAL_PEERS, register, type TestApp } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import { JobQueue } from '../../jobs/queue.ts';
import { encryptConfiguration } from '../../plugins/secrets.ts';
import { installPlugins } from '../plugin/catalogue.ts';
import { plugin, pluginInstance } from '../plugin/table.ts';
import { workflowInstance } from './table.ts';
import { WORKFLOW_POLL, WORKFLOW_RETRY_LIMIT, WORKFLOW_RUN } from './runs.ts';

const SECRET = 'Bearer s3cret-token-for-the-receiver';

interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** The workflow system: starts runs of `build`, refuses `broken` (500); a run completes on its second check, with a log. */
function startReceiver() {
  const received: Received[] = [];
  const checks = new Map<string, number>();
  let runs = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST') {
        if (body.resource_id === 'broken') return answer(500, { error: 'down' });
        const id = `run-${++runs}`;
        return answer(200, { status: 'Running', id, weblink: `https://wf.example.com/runs/${id}` });
      }
      const id = decodeURIComponent(req.url!.split('/').at(-1)!);
      const n = (checks.get(id) ?? 0) + 1;
      checks.set(id, n);
      if (n < 2) return answer(200, { status: 'running', id });
      answer(200, {
        status: 'Completed',
        id,
        weblink: `https://wf.example.com/runs/${id}`,
        artifacts: [{ name: 'Build log', weblink: `https://wf.example.com/runs/${id}/log` }],
      });
    });
  });
  return new Promise<{ url: string; received: Received[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: string;
let admin: string;
let member: string;
let projectId: number;
let workflowInstanceId: number; // the project's muster-workflow plugin instance
let ticketInstanceId: number;
/** Every response body the tests saw: none may hold the receiver's secret. */
const seen: unknown[] = [];

const api = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await call(t.app, method, path, { token, body });
  seen.push(res.body);
  return res;
};

const createWorkflow = (body: Record<string, unknown>, token = admin) =>
  api('POST', '/default/workflows', token, {
    name: 'Build it',
    resource_id: 'build',
    plugin_instance: { id: workflowInstanceId },
    project: { name: 'default' },
    ...body,
  });

async function createIncident(body: Record<string, unknown> = {}) {
  const res = await api('POST', '/default/incidents', owner, { title: 'Disk full', description: 'The disk is full.', project: { name: 'default' }, ...body });
  expect(res.status).toBe(200);
  return res.body as { id: number; name: string };
}

const events = async (incidentId: number) =>
  ((await api('GET', `/default/incidents/${incidentId}`, owner)).body.events as { description: string }[]).map((e) => e.description);

async function instanceOf(slug: string): Promise<number> {
  const [row] = await t.database.db
    .select({ id: pluginInstance.id })
    .from(pluginInstance)
    .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
    .where(and(eq(plugin.slug, slug), eq(pluginInstance.project_id, projectId)));
  return row.id;
}

const setEnabled = (id: number, enabled: boolean) => t.database.db.update(pluginInstance).set({ enabled }).where(eq(pluginInstance.id, id));

beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp({ workflowPollSeconds: 0, uiUrl: 'https://muster.example.com', outboundAllow: LOCAL_PEERS });
  owner = await register(t.app, 'owner@example.com');
  admin = await register(t.app, 'admin@example.com');
  member = await register(t.app, 'member@example.com');
  const me = await call(t.app, 'GET', '/default/auth/me', { token: admin });
  await call(t.app, 'PUT', `/default/users/${me.body.id}`, { token: owner, body: { id: me.body.id, role: 'Admin' } });
  projectId = (await call(t.app, 'GET', '/default/projects', { token: owner })).body.items[0].id;
  // The catalogue is written at start-up for the plugins known then: add the new built-in.
  await installPlugins(t.database.db);
  workflowInstanceId = await instanceOf('muster-workflow');
  ticketInstanceId = await instanceOf('muster-ticket');
  await t.database.db
    .update(pluginInstance)
    .set({ enabled: true, configuration: encryptConfiguration({ url: receiver.url, auth_header: SECRET }, t.settings.encryptionKey!) })
    .where(eq(pluginInstance.id, workflowInstanceId));
  // Retries a second apart, so that a failing receiver fails the run within the test.
  await new JobQueue(t.database, [
    { name: WORKFLOW_RUN, retryLimit: WORKFLOW_RETRY_LIMIT, retryDelay: 1 },
    { name: WORKFLOW_POLL, retryLimit: WORKFLOW_RETRY_LIMIT, retryDelay: 1 },
  ]).install();
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('workflows', () => {
  it('creates, reads, lists, updates and deletes; the plugin instance nested with its secret masked', async () => {
    const created = await createWorkflow({ description: 'Builds the thing', parameters: [{ key: 'region', value: 'eu' }] });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      name: 'Build it',
      description: 'Builds the thing',
      enabled: true,
      resource_id: 'build',
      parameters: [{ key: 'region', value: 'eu' }],
      plugin_instance: {
        id: workflowInstanceId,
        enabled: true,
        configuration: { url: receiver.url, auth_header: '**********' },
        plugin: { slug: 'muster-workflow', type: 'workflow' },
        project: { id: projectId, name: 'default' },
      },
    });
    const id = created.body.id;
    // A Member reads the same, the receiver's URL cut to its origin (it may carry a token).
    const asMember = structuredClone(created.body);
    asMember.plugin_instance.configuration.url = new URL(receiver.url).origin;
    expect((await api('GET', `/default/workflows/${id}`, member)).body).toEqual(asMember);

    const updated = await api('PUT', `/default/workflows/${id}`, admin, { ...created.body, name: 'Build it again', enabled: false });
    expect(updated.body).toMatchObject({ name: 'Build it again', enabled: false, parameters: [{ key: 'region', value: 'eu' }] });
    // The read object sent back keeps the stored secret (it holds only the mask, and it is not written).
    expect(updated.body.plugin_instance.configuration.auth_header).toBe('**********');

    const other = await createWorkflow({ name: 'Rotate keys', resource_id: 'rotate' });
    const search = await api('GET', '/default/workflows?q=Rotate', member);
    expect(search.body.items.map((w: { name: string }) => w.name)).toEqual(['Rotate keys']);
    const filter = JSON.stringify([{ model: 'Workflow', field: 'enabled', op: '==', value: false }]);
    const disabled = await call(t.app, 'GET', '/default/workflows', { token: member, query: { filter, itemsPerPage: -1 } });
    expect(disabled.body.items.map((w: { id: number }) => w.id)).toEqual([id]);
    const sorted = await call(t.app, 'GET', '/default/workflows', { token: member, query: { 'sortBy[]': 'name', 'descending[]': true, itemsPerPage: -1 } });
    expect(sorted.body.items.map((w: { name: string }) => w.name)).toEqual(['Rotate keys', 'Build it again']);

    expect(await api('DELETE', `/default/workflows/${other.body.id}`, admin)).toMatchObject({ status: 200, body: null });
    expect((await api('GET', `/default/workflows/${other.body.id}`, member)).status).toBe(404);
    expect((await api('DELETE', `/default/workflows/${id}`, admin)).status).toBe(200);
  });

  it('needs SensitiveProjectAction to write (Admin and above), membership to read', async () => {
    expect((await createWorkflow({}, member)).status).toBe(403);
    const wf = (await createWorkflow({ name: 'Members cannot touch' })).body;
    expect((await api('PUT', `/default/workflows/${wf.id}`, member, { ...wf, name: 'Touched' })).status).toBe(403);
    expect((await api('DELETE', `/default/workflows/${wf.id}`, member)).status).toBe(403);
    expect((await api('GET', '/default/workflows', member)).status).toBe(200);
    await api('DELETE', `/default/workflows/${wf.id}`, admin);
  });

  it('refuses a plugin instance that is not a workflow plugin of the project', async () => {
    const noInstance = [{ loc: ['body', 'plugin_instance'], msg: 'No plugin instance found.', type: 'value_error.not_found' }];
    expect(await createWorkflow({ plugin_instance: { id: ticketInstanceId } })).toMatchObject({ status: 422, body: { detail: noInstance } });
    expect(await createWorkflow({ plugin_instance: { id: 999999 } })).toMatchObject({ status: 422, body: { detail: noInstance } });
    expect((await createWorkflow({ name: 'ab' })).status).toBe(422);
    expect((await createWorkflow({ project: { name: 'nowhere' } })).status).toBe(422);
    expect((await api('GET', '/default/workflows', admin)).body.items.map((w: { name: string }) => w.name)).not.toContain('ab');
  });
});

describe('workflow runs', () => {
  it('runs through the plugin until Completed: artifacts kept as documents, every change on the timeline', async () => {
    const wf = (
      await createWorkflow({
        parameters: [
          { key: 'region', value: 'eu' },
          { key: 'unset', value: '' },
        ],
      })
    ).body;
    const incident = await createIncident();
    const run = await api('POST', `/default/workflows/${wf.id}/run`, owner, {
      incident: { id: incident.id },
      run_reason: 'The disk filled up',
      artifacts: [{ name: 'Disk usage graph', weblink: 'https://graphs.example.com/disk' }],
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      id: expect.any(Number),
      status: 'Submitted',
      run_reason: 'The disk filled up',
      workflow: { id: wf.id, name: 'Build it' },
      incident: { id: incident.id, name: incident.name },
      case: null,
      creator: { individual: { email: 'owner@example.com' } },
      artifacts: [{ name: 'Disk usage graph', weblink: 'https://graphs.example.com/disk', project: { name: 'default' } }],
    });
    expect(await events(incident.id)).toContain('Workflow Build it submitted by owner@example.com');

    await drainJobs(t.database, t.settings);

    const done = await api('GET', `/default/workflows/instances/${run.body.id}`, owner);
    expect(done.body).toMatchObject({ status: 'Completed', resource_id: 'run-1', weblink: 'https://wf.example.com/runs/run-1' });
    expect(done.body.artifacts.map((a: { name: string }) => a.name).sort()).toEqual(['Build log', 'Disk usage graph']);
    const docs = await call(t.app, 'GET', '/default/documents', { token: owner, query: { q: 'Build log' } });
    expect(docs.body.items.map((d: { weblink: string }) => d.weblink)).toEqual(['https://wf.example.com/runs/run-1/log']);

    const log = await events(incident.id);
    expect(log).toContain('Workflow Build it status changed from Submitted to Running');
    expect(log).toContain('Workflow Build it status changed from Running to Completed');
    const read = (await api('GET', `/default/incidents/${incident.id}`, owner)).body;
    expect(read.workflow_instances).toMatchObject([{ id: run.body.id, status: 'Completed', workflow: { name: 'Build it' } }]);

    const [start, ...checks] = receiver.received.filter((r) => r.body?.resource_id === 'build' || r.url.endsWith('/run-1'));
    expect(start).toMatchObject({
      method: 'POST',
      url: '/hook',
      body: {
        resource_id: 'build',
        params: { region: 'eu', externalRef: `https://muster.example.com/default/incidents/${incident.name}`, workflowInstanceId: String(run.body.id) },
      },
    });
    expect(start.body.params).not.toHaveProperty('unset');
    expect(start.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(start.headers.authorization).toBe(SECRET);
    expect(start.headers['content-type']).toBe('application/json');
    expect(checks.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /hook/run-1', 'GET /hook/run-1']);
    expect(checks.every((c) => c.headers.authorization === SECRET)).toBe(true);
  });

  it('runs for a case: the case lists the run and its timeline the changes', async () => {
    const wf = (await createWorkflow({ name: 'Investigate' })).body;
    const kase = (await api('POST', '/default/cases', owner, { title: 'Suspicious login', description: 'A login from a new country.' })).body;
    const run = await api('POST', `/default/workflows/${wf.id}/run`, owner, { case: { id: kase.id }, creator: { individual: { email: 'owner@example.com' } } });
    expect(run.body).toMatchObject({ status: 'Submitted', case: { id: kase.id }, incident: null, creator: { individual: { email: 'owner@example.com' } } });
    await drainJobs(t.database, t.settings);
    const read = (await api('GET', `/default/cases/${kase.id}`, owner)).body;
    expect(read.workflow_instances).toMatchObject([{ id: run.body.id, status: 'Completed', case: { id: kase.id } }]);
    const log = read.events.map((e: { description: string }) => e.description);
    expect(log).toContain('Workflow Investigate submitted by owner@example.com');
    expect(log).toContain('Workflow Investigate status changed from Running to Completed');
    const start = receiver.received.find((r) => r.body?.params?.workflowInstanceId === String(run.body.id));
    expect(start?.body.params.externalRef).toBe(`https://muster.example.com/default/cases/${read.name}`);
  });

  it('keeps artifact names unique in the project', async () => {
    const wf = (await createWorkflow({ name: 'Collect' })).body;
    const incident = await createIncident();
    const body = { incident: { id: incident.id }, artifacts: [{ name: 'Heap dump' }] };
    const first = await api('POST', `/default/workflows/${wf.id}/run`, owner, body);
    const second = await api('POST', `/default/workflows/${wf.id}/run`, owner, body);
    expect(first.body.artifacts.map((a: { name: string }) => a.name)).toEqual(['Heap dump']);
    expect(second.body.artifacts.map((a: { name: string }) => a.name)).toEqual([`Heap dump (run ${second.body.id})`]);
    await drainJobs(t.database, t.settings);
  });

  it('fails the run when the workflow system keeps failing, after the retries', async () => {
    const wf = (await createWorkflow({ name: 'Always broken', resource_id: 'broken' })).body;
    const incident = await createIncident();
    const run = (await api('POST', `/default/workflows/${wf.id}/run`, owner, { incident: { id: incident.id } })).body;
    await drainJobs(t.database, t.settings, 60_000);
    expect((await api('GET', `/default/workflows/instances/${run.id}`, owner)).body.status).toBe('Failed');
    expect(receiver.received.filter((r) => r.body?.resource_id === 'broken')).toHaveLength(WORKFLOW_RETRY_LIMIT + 1);
    expect(await events(incident.id)).toContain('Workflow Always broken status changed from Submitted to Failed');
    // The timeline says it failed, not what the workflow system (or whatever the URL reached) answered.
    const timeline = JSON.stringify((await api('GET', `/default/incidents/${incident.id}`, owner)).body.events);
    expect(timeline).toContain("The workflow system failed; the server's log has the reason");
    expect(timeline).not.toMatch(/answered \d{3}|did not answer/);
  });

  it('stops checking a run its system never finishes: past MUSTER_WORKFLOW_TIMEOUT it has failed', async () => {
    const wf = (await createWorkflow({ name: 'Never ends' })).body;
    const incident = await createIncident();
    const run = (await api('POST', `/default/workflows/${wf.id}/run`, owner, { incident: { id: incident.id } })).body;
    // Started two days ago, as far as Muster can tell (the default timeout is a day).
    await t.database.db
      .update(workflowInstance)
      .set({ created_at: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(workflowInstance.id, run.id));
    const before = receiver.received.length;
    await drainJobs(t.database, t.settings);
    expect((await api('GET', `/default/workflows/instances/${run.id}`, owner)).body.status).toBe('Failed');
    // Started (one POST), then never asked for its status.
    expect(receiver.received.slice(before).map((r) => r.method)).toEqual(['POST']);
    expect(await events(incident.id)).toContain('Workflow Never ends status changed from Running to Failed');
  });

  it('fails the run when its plugin instance was disabled meanwhile', async () => {
    const wf = (await createWorkflow({ name: 'Orphaned' })).body;
    const incident = await createIncident();
    const run = (await api('POST', `/default/workflows/${wf.id}/run`, owner, { incident: { id: incident.id } })).body;
    const before = receiver.received.length;
    await setEnabled(workflowInstanceId, false);
    try {
      await drainJobs(t.database, t.settings);
    } finally {
      await setEnabled(workflowInstanceId, true);
    }
    expect((await api('GET', `/default/workflows/instances/${run.id}`, owner)).body.status).toBe('Failed');
    expect(receiver.received.length).toBe(before);
    expect(await events(incident.id)).toContain('Workflow Orphaned status changed from Submitted to Failed');
  });

  it('validates the run: one visible subject, the caller as creator, an enabled workflow', async () => {
    const wf = (await createWorkflow({ name: 'Checked' })).body;
    const open = await createIncident();
    const secret = await createIncident({ title: 'Secret', visibility: 'Restricted' });
    const run = (body: unknown, token = owner) => api('POST', `/default/workflows/${wf.id}/run`, token, body);

    expect((await run({})).body.detail[0]).toMatchObject({ loc: ['body'] });
    expect((await run({ incident: { id: 999999 } })).body.detail[0]).toMatchObject({ loc: ['incident'], msg: 'Incident not found.' });
    // A Restricted incident the caller may not see is not found.
    expect((await run({ incident: { id: secret.id } }, member)).body.detail[0]).toMatchObject({ loc: ['incident'], msg: 'Incident not found.' });
    // The creator is the caller: a body naming someone else is not believed.
    const forged = await run({ incident: { id: open.id }, creator: { individual: { email: 'member@example.com' } } });
    expect(forged.status).toBe(200);
    expect(forged.body.creator).toMatchObject({ individual: { email: 'owner@example.com' } });
    // A member who takes no part in the incident runs it with no creator.
    const byMember = await run({ incident: { id: open.id } }, member);
    expect(byMember.body).toMatchObject({ status: 'Submitted', creator: null });

    const hidden = (await run({ incident: { id: secret.id } })).body;
    expect((await api('GET', `/default/workflows/instances/${hidden.id}`, member)).status).toBe(404);
    expect((await api('GET', `/default/workflows/instances/${hidden.id}`, owner)).status).toBe(200);
    expect((await api('GET', '/default/workflows/instances/999999', owner)).status).toBe(404);

    await api('PUT', `/default/workflows/${wf.id}`, admin, { ...wf, enabled: false });
    expect((await run({ incident: { id: open.id } })).status).toBe(422);
    await drainJobs(t.database, t.settings);
  });

  it('never answers with the plugin secret', () => {
    expect(seen.length).toBeGreaterThan(20);
    expect(JSON.stringify(seen)).not.toContain('s3cret');
  });
});
