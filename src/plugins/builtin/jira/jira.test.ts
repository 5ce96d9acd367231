// The Jira plugin against a local Jira (test/peers/jira.ts): configured over HTTP (a configuration
// Jira refuses is refused on save), then incidents and cases driven through create, update, Stable
// and Closed over HTTP with their jobs run, checking what Jira received; Jira refusing or not
// answering fails the job with a reason, never the write; Data Center through its v2 API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS } from '../../../../test/helpers.ts';
import { drainJobs } from '../../../../test/jobs.ts';
import { type JiraPeer, startJiraPeer } from '../../../../test/peers/jira.ts';
import { cases as casesApi } from '../../../../test/worlds/cases.ts';
import { api, person, useWorld } from '../../../../test/worlds/incidents.ts';
import { installPlugins } from '../../../domains/plugin/catalogue.ts';
import { listJobs } from '../../../jobs/admin.ts';
import { outboundFor } from '../../../lib/outbound/client.ts';
import { isRetryLater } from '../../../lib/retry-later.ts';
import type { PluginEnv, Subject } from '../../types.ts';
import { jiraPlugin } from './plugin.ts';

const USERS = [
  { email: 'owner@example.com', accountId: '5b10a2844c20165700ede21g', name: 'owner', displayName: 'Olive Owner' },
  { email: 'admin@example.com', accountId: '5b10ac8d82e05b22cc7d4ef5', name: 'admin', displayName: 'Adam Admin' },
];

const w = useWorld({ outboundAllow: LOCAL_PEERS, uiUrl: 'https://muster.example.com' });
const incidents = api(w);
const cases = casesApi(w);
let jira: JiraPeer;
let instanceId: number;
const drain = () => drainJobs(w.t.database, w.t.settings, 60_000, { retryNow: true });

const configuration = () => ({
  hosting: 'cloud',
  api_url: jira.url,
  email: 'muster@example.com',
  api_token: 'cloud-api-token',
  project_key: 'OPS',
  issue_type: 'Incident',
  case_issue_type: 'Task',
  labels: ['muster', 'incident-response'],
  statuses: { New: 'To Do', Triage: 'In Progress', Active: 'In Progress', Stable: 'Mitigated', Closed: 'Done' },
  priorities: { High: 'Highest', Medium: 'Medium', Low: 'Low' },
});
const save = (config: Record<string, unknown>) =>
  call(w.t.app, 'PUT', `/default/plugins/instances/${instanceId}`, { token: w.admin, body: { enabled: true, configuration: config } });

/** The text of an Atlassian document's paragraphs, and the links it holds. */
const adf = (doc: any) => ({
  text: doc.content.map((p: any) => p.content.map((n: any) => n.text).join('')),
  links: doc.content.flatMap((p: any) => p.content.flatMap((n: any) => (n.marks ?? []).map((m: any) => m.attrs.href))),
});

beforeAll(async () => {
  jira = await startJiraPeer({ hosting: 'cloud', projectKey: 'OPS', email: 'muster@example.com', token: 'cloud-api-token', users: USERS });
  await installPlugins(w.t.database.db);
  const list = await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } });
  const instance = list.body.items.find((i: any) => i.plugin.slug === 'jira-ticket' && i.project.name === 'default');
  expect(instance).toMatchObject({ enabled: false });
  instanceId = instance.id;
});
afterAll(() => jira?.close());

describe('jira plugin: configuration', () => {
  it('is refused on save when Jira refuses the token, knows no such project or issue type, or lacks the e-mail', async () => {
    const refused = async (config: Record<string, unknown>, field: string, msg: RegExp) => {
      const res = await save(config);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ['body', 'configuration', field], msg: expect.stringMatching(msg), type: 'value_error.plugin_refused' }]);
    };
    await refused({ ...configuration(), api_token: 'wrong' }, 'api_token', /^Jira refused the e-mail and API token \(401\)/);
    await refused({ ...configuration(), project_key: 'NOPE' }, 'project_key', /^Jira found nothing \(404\) for project NOPE/);
    await refused({ ...configuration(), case_issue_type: 'Story' }, 'case_issue_type', /no issue type "Story"/);
    const { email: _, ...noEmail } = configuration();
    await refused(noEmail, 'email', /e-mail of the Atlassian account/);
    const myself = jira.received('GET', '/rest/api/3/myself');
    expect(myself.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('muster@example.com:cloud-api-token').toString('base64')}`);
    const instances = await call(w.t.app, 'GET', `/default/plugins/instances/${instanceId}`, { token: w.admin });
    expect(instances.body.enabled).toBe(false);
  });

  it('is refused on save when Jira does not answer', async () => {
    jira.refuse('hang');
    const res = await save(configuration());
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'configuration', 'api_url'], msg: expect.stringMatching(/^Jira did not answer/) });
  });

  it('is saved when Jira accepts it, the token masked', async () => {
    const res = await save(configuration());
    expect(res.status).toBe(200);
    expect(res.body.configuration.api_token).not.toBe('cloud-api-token');
    expect(jira.received('GET', '/rest/api/3/project/OPS').length).toBeGreaterThan(0);
  });
});

describe('jira plugin: an issue per record', () => {
  it('makes an incident its issue and keeps it updated through update, Stable and Closed', async () => {
    const created = await incidents.create(
      { title: 'Checkout\nerrors', description: 'Payments fail.\n\nSince 10:00.', incident_priority: { name: 'Low' } },
      w.admin,
    );
    expect(created.status).toBe(200);
    await drain();
    const read = (await incidents.get(created.body.id, w.admin)).body;
    const key = read.ticket.resource_id as string;
    expect(key).toMatch(/^OPS-\d+$/);
    expect(read.name).toBe(key);
    expect(read.ticket).toMatchObject({ resource_type: 'jira-ticket', weblink: `${jira.url}/browse/${key}` });

    const issue = jira.issues.get(key)!;
    expect(issue.fields).toMatchObject({
      project: { key: 'OPS' },
      issuetype: { name: 'Incident' },
      summary: 'Checkout errors',
      labels: ['muster', 'incident-response'],
      priority: { name: 'Low' },
    });
    expect(adf(issue.fields.description)).toEqual({
      text: ['Payments fail.', 'Since 10:00.', 'Open the incident in Muster'],
      links: [`https://muster.example.com/default/incidents/${key}`],
    });
    expect(issue.status).toBe('In Progress');

    await incidents.edit(created.body.id, { title: 'Checkout errors in EU', incident_priority: { name: 'High' }, commander: person('owner@example.com') });
    await drain();
    expect(issue.fields).toMatchObject({ summary: 'Checkout errors in EU', priority: { name: 'Highest' }, assignee: { accountId: USERS[0].accountId } });
    expect(Object.fromEntries(jira.received('GET', '/rest/api/3/user/search').at(-1)?.query ?? [])).toMatchObject({ query: 'owner@example.com' });

    await incidents.edit(created.body.id, { status: 'Stable' });
    await drain();
    expect(issue.status).toBe('Mitigated');
    expect(jira.received('POST', `/rest/api/3/issue/${key}/transitions`).at(-1)?.body).toEqual({ transition: { id: '41' } });

    await incidents.edit(created.body.id, { status: 'Closed' });
    await drain();
    expect(issue.status).toBe('Done');
    for (const r of jira.requests.filter((x) => x.path.includes(key))) expect(r.headers.authorization).toMatch(/^Basic /);
  });

  it("makes a case its issue of the case issue type, assigned to the case's assignee, and closes it", async () => {
    const created = await cases.create({ title: 'Phishing report', assignee: person('admin@example.com') }, w.admin);
    expect(created.status).toBe(200);
    await drain();
    const read = (await cases.get(created.body.id, w.admin)).body;
    const key = read.ticket.resource_id as string;
    expect(read).toMatchObject({ name: key, ticket: { resource_type: 'jira-ticket', weblink: `${jira.url}/browse/${key}` } });
    const issue = jira.issues.get(key)!;
    expect(issue.fields).toMatchObject({ issuetype: { name: 'Task' }, summary: 'Phishing report', assignee: { accountId: USERS[1].accountId } });
    expect(adf(issue.fields.description).links).toEqual([`https://muster.example.com/default/cases/${key}`]);
    expect(issue.status).toBe(read.status === 'New' ? 'To Do' : 'In Progress');

    const closed = await cases.edit(created.body.id, { status: 'Closed', resolution_reason: 'False Positive', resolution: 'Not phishing.' });
    expect(closed.status).toBe(200);
    await drain();
    expect(issue.status).toBe('Done');
  });
});

describe('jira plugin: follow-up tasks', () => {
  const tasks = (method: string, path: string, body: unknown) => call(w.t.app, method, `/default/tasks${path}`, { token: w.owner, body });
  const taskRead = async (id: number) =>
    (await call(w.t.app, 'GET', '/default/tasks', { token: w.owner, query: { itemsPerPage: -1 } })).body.items.find((t: { id: number }) => t.id === id);

  it('gives a task an issue only while the configuration says so, moved to Done when the task is resolved', async () => {
    const incident = await incidents.create({ title: 'Cache stampede' }, w.admin);
    await drain();
    const key = (await incidents.get(incident.body.id, w.admin)).body.name as string;
    const before = jira.issues.size;
    const plain = await tasks('POST', '', { incident: { id: incident.body.id }, description: 'Not tracked in Jira' });
    expect(plain.status).toBe(200);
    await drain();
    expect(jira.issues.size).toBe(before);

    expect((await save({ ...configuration(), create_task_issues: true, task_issue_type: 'Bug' })).status).toBe(200);
    try {
      const made = await tasks('POST', '', {
        incident: { id: incident.body.id },
        description: 'Add jitter to cache expiry\nSee the timeline.',
        priority: 'High',
        assignees: [person('owner@example.com')],
      });
      expect(made.status).toBe(200);
      await drain();
      const read = await taskRead(made.body.id);
      expect(read).toMatchObject({ resource_type: 'jira-issue', resource_id: expect.stringMatching(/^OPS-\d+$/) });
      expect(read.weblink).toBe(`${jira.url}/browse/${read.resource_id}`);
      const issue = jira.issues.get(read.resource_id)!;
      expect(issue.fields).toMatchObject({
        issuetype: { name: 'Bug' },
        summary: 'Add jitter to cache expiry',
        priority: { name: 'Highest' },
        assignee: { accountId: USERS[0].accountId },
      });
      expect(adf(issue.fields.description)).toMatchObject({ links: [`https://muster.example.com/default/incidents/${key}`] });
      expect(issue.status).toBe('To Do');

      expect((await tasks('PUT', `/${made.body.id}`, { incident: { id: incident.body.id }, status: 'Resolved' })).status).toBe(200);
      await drain();
      expect(issue.status).toBe('Done');
      // The task made before gets its issue when it next changes: made, then moved to Done.
      expect((await tasks('PUT', `/${plain.body.id}`, { incident: { id: incident.body.id }, status: 'Resolved' })).status).toBe(200);
      await drain();
      const late = await taskRead(plain.body.id);
      expect(late.resource_type).toBe('jira-issue');
      expect(jira.issues.get(late.resource_id)).toMatchObject({ status: 'Done', fields: { summary: 'Not tracked in Jira' } });
    } finally {
      expect((await save(configuration())).status).toBe(200);
    }
  });
});

describe('jira plugin: failures', () => {
  const failedJobs = async () => (await listJobs(w.t.database, { limit: 500 })).filter((j) => j.name === 'ticket-update' && j.state === 'failed');
  /** The reason of the one update job that failed since `before` (the ids of those failed then). */
  const newFailure = async (before: string[]) => {
    const fresh = (await failedJobs()).filter((j) => !before.includes(j.id));
    expect(fresh).toHaveLength(1);
    return JSON.stringify(fresh[0].output);
  };
  const failedIds = async () => (await failedJobs()).map((j) => j.id);

  it('Jira refusing the token or failing fails the update job with the reason; the write stands', async () => {
    const created = await incidents.create({ title: 'Queue stuck' }, w.admin);
    await drain();
    const key = (await incidents.get(created.body.id, w.admin)).body.ticket.resource_id;
    await w.t.database.query(`UPDATE pgboss.queue SET retry_limit = 1, retry_delay = 1, retry_backoff = false WHERE name = 'ticket-update'`);
    let before = await failedIds();
    jira.refuse(401, 2);
    expect((await incidents.edit(created.body.id, { title: 'Queue stuck again' })).status).toBe(200);
    await drain();
    expect(await newFailure(before)).toContain('Jira refused the e-mail and API token (401)');

    before = await failedIds();
    jira.refuse(503, 2);
    expect((await incidents.edit(created.body.id, { title: 'Queue stuck for good' })).status).toBe(200);
    await drain();
    expect(await newFailure(before)).toContain('Jira is unavailable (503)');
    expect((await incidents.get(created.body.id, w.admin)).body.title).toBe('Queue stuck for good');
    expect(jira.issues.get(key)!.fields.summary).toBe('Queue stuck');
  });

  it('a status Jira offers no transition to fails the job naming the statuses', async () => {
    const created = await incidents.create({ title: 'Odd workflow' }, w.admin);
    await drain();
    expect((await save({ ...configuration(), api_token: 'cloud-api-token', statuses: { Stable: 'Parked' } })).status).toBe(200);
    try {
      const before = await failedIds();
      await incidents.edit(created.body.id, { status: 'Stable' });
      await drain();
      expect(await newFailure(before)).toMatch(/no transition of OPS-\d+ from \\"In Progress\\" to \\"Parked\\"/);
    } finally {
      expect((await save(configuration())).status).toBe(200);
    }
  });
});

describe('jira plugin: called directly', () => {
  const env: PluginEnv = {
    idempotencyKey: 'job-1',
    uiUrl: 'https://muster.example.com',
    namePrefix: 'muster',
    log: { info() {}, warn() {} },
    outbound: outboundFor(LOCAL_PEERS),
  };
  const subject = (over: Partial<Subject> = {}): Subject => ({
    kind: 'incident',
    id: 7,
    organization: { id: 1, slug: 'default', name: 'Default' },
    project: { id: 1, name: 'default', slug: 'default' },
    name: null,
    title: 'Disk full',
    description: 'On db-1',
    status: 'Active',
    visibility: 'Open',
    type: null,
    priority: null,
    severity: null,
    owner: 'owner@example.com',
    reporter: null,
    reported_at: new Date().toISOString(),
    weblink: 'https://muster.example.com/default/incidents/7',
    ...over,
  });

  it('honours a rate limit: a 429 with Retry-After asks to be retried no sooner', async () => {
    const config = { ...configuration(), api_url: jira.url };
    const made = await jiraPlugin.create(subject(), config, env);
    jira.refuse(429, 1, { 'retry-after': '120' });
    const err = await jiraPlugin.update!(made, subject({ name: made.name! }), config, env).catch((e: unknown) => e);
    expect(isRetryLater(err)).toBe(true);
    expect(err).toMatchObject({ seconds: 120, message: expect.stringMatching(/^Jira is limiting the rate of requests \(429\).*; tried again after 120 s$/) });
  });

  it('speaks Data Center: REST v2, a personal access token, wiki markup and user names', async () => {
    const dc = await startJiraPeer({ hosting: 'data_center', projectKey: 'SEC', token: 'dc-personal-access-token', users: USERS });
    try {
      const config = {
        hosting: 'data_center',
        api_url: dc.url,
        browser_url: 'https://jira.example.com',
        api_token: 'dc-personal-access-token',
        project_key: 'SEC',
        issue_type: 'Bug',
        labels: ['muster'],
        statuses: { Active: 'In Progress', Closed: 'Done' },
        priorities: {},
      };
      await jiraPlugin.check!(config, env);
      const made = await jiraPlugin.create(subject(), config, env);
      expect(made).toEqual({ name: 'SEC-1', resource_id: 'SEC-1', resource_type: 'jira-ticket', weblink: 'https://jira.example.com/browse/SEC-1' });
      const issue = dc.issues.get('SEC-1')!;
      expect(issue.fields).toMatchObject({ issuetype: { name: 'Bug' }, assignee: { name: 'owner' } });
      expect(issue.fields.description).toBe('On db-1\n\n[Open the incident in Muster|https://muster.example.com/default/incidents/SEC-1]');
      expect(issue.status).toBe('In Progress');

      await jiraPlugin.update!(made, subject({ name: 'SEC-1', status: 'Closed', title: 'Disk full again' }), config, env);
      expect(issue).toMatchObject({ status: 'Done', fields: { summary: 'Disk full again' } });
      expect(dc.requests.every((r) => r.path.startsWith('/rest/api/2/') && r.headers.authorization === 'Bearer dc-personal-access-token')).toBe(true);
      expect(Object.fromEntries(dc.received('GET', '/rest/api/2/user/search')[0].query)).toMatchObject({ username: 'owner@example.com' });

      const refused = await jiraPlugin.check!({ ...config, api_token: 'expired' }, env).catch((e: unknown) => e);
      expect(refused).toMatchObject({
        field: 'api_token',
        message: "Jira refused the personal access token (401) for the account: check it in the plugin's configuration.",
      });
    } finally {
      await dc.close();
    }
  });
});
