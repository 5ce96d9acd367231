// What Muster does in Slack, end to end: a project's slack-conversation instance configured over the
// plugin API and pointed at a local Slack, incidents and cases written over the API, the real job
// workers, and what the local Slack saw.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import { type SlackChannel, type SlackPeer, startSlack } from '../../../test/peers/slack.ts';
import { cases as caseApi } from '../../../test/worlds/cases.ts';
import { api, person, useWorld } from '../../../test/worlds/incidents.ts';
import { rowsOf } from '../../db/statements.ts';
import { listJobs } from '../../jobs/admin.ts';
import { channelName } from '../../plugins/builtin/slack/plugin.ts';
import { remindReports } from '../incident/reminders.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { SYSTEM_USER } from '../project/each.ts';

const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
const cases = caseApi(w);
let slack: SlackPeer;
let projectId: number;
let instanceId: number;
const ids: Record<string, string> = {};

const drain = (opts: { retryNow?: boolean } = {}) => drainJobs(w.t.database, w.t.settings, 30_000, opts);

/** The Slack channel an incident's read names. */
async function channelOf(id: number): Promise<SlackChannel> {
  const read = await incidents.get(id, w.owner);
  const channel = slack.channels.get(read.body.conversation?.channel_id);
  if (!channel) throw new Error(`incident ${id} has no channel: ${JSON.stringify(read.body.conversation)}`);
  return channel;
}

/** Links posted as a record gets them (its documents, its meeting): tests of the other messages leave them out. */
const RESOURCES = ['Incident document', 'Case document', 'Post-incident review', 'Meeting', 'Files'];
const told = (messages: SlackChannel['messages']) => messages.filter((m) => !RESOURCES.includes(m.text.split('\n')[0]));
const said = (c: SlackChannel) => told(c.messages);
const texts = (c: SlackChannel) => said(c).map((m) => m.text.split('\n')[0]);
const members = (c: SlackChannel) => [...c.members].filter((m) => m !== 'UBOT').sort();
const actionIds = (blocks: unknown[] | undefined) =>
  (blocks as { type: string; elements?: { action_id?: string; value?: string }[] }[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? [])
    .map((e) => [e.action_id, e.value]);

const syncJobs = async () => listJobs(w.t.database, { names: ['conversation-sync'], limit: 500 });

const slackConfig = (extra: Record<string, unknown> = {}) => ({ bot_token: slack.token, signing_secret: 'signing-secret', api_url: slack.apiUrl, ...extra });

/** Enables or disables the instance, its configuration changed by `extra` (a configuration sent replaces the stored one). */
const configure = (enabled: boolean, extra?: Record<string, unknown>) =>
  call(w.t.app, 'PUT', `/default/plugins/instances/${instanceId}`, {
    token: w.admin,
    body: { enabled, ...(extra ? { configuration: slackConfig(extra) } : {}) },
  });

beforeAll(async () => {
  slack = await startSlack();
  for (const email of ['owner@example.com', 'member@example.com', 'admin@example.com', 'bob@example.com']) ids[email] = slack.addUser(email);
  projectId = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items.find((p: { name: string }) => p.name === 'default').id;
  const created = await call(w.t.app, 'POST', '/default/plugins/instances', {
    token: w.admin,
    body: {
      plugin: { slug: 'slack-conversation' },
      project: { id: projectId },
      enabled: true,
      configuration: slackConfig(),
    },
  });
  expect(created.status).toBe(200);
  instanceId = created.body.id;
});
afterAll(() => slack?.close());
beforeEach(async () => {
  await drain();
  slack.calls.length = 0;
});

describe('an incident in Slack', () => {
  it('gets a private channel named after it, its people invited, its topic and its summary', async () => {
    const created = await incidents.create({ title: 'Database down', description: 'Writes <fail> & reads too.', commander: person('owner@example.com') });
    expect(created.status).toBe(200);
    // The write answers before Slack hears of it.
    expect(slack.callsOf('conversations.create')).toEqual([]);
    await drain();

    const read = (await incidents.get(created.body.id, w.owner)).body;
    expect(read.conversation).toEqual({
      id: read.id,
      resource_id: expect.stringMatching(/^C/),
      resource_type: 'slack-conversation',
      channel_id: read.conversation.resource_id,
      thread_id: null,
      weblink: expect.stringContaining(read.conversation.resource_id),
      description: 'Private conversation for real-time discussion. All incident participants get added to it.',
    });
    const channel = await channelOf(read.id);
    // The people job and the created job both ran: one channel.
    expect(slack.callsOf('conversations.create')).toHaveLength(1);
    expect(channel).toMatchObject({ name: channelName(read.name), is_private: true, topic: 'Database down | Commander: owner@example.com' });
    expect(channel.name).toMatch(/-default-default-\d+$/);
    expect(members(channel)).toEqual([ids['member@example.com'], ids['owner@example.com']].sort());

    // The summary first, then the links the incident got: its document (made with it) and its meeting.
    expect(channel.messages.map((m) => m.text.split('\n').slice(0, 2))).toEqual([
      [`Incident ${read.name}: Database down`, ''],
      ['Incident document', expect.stringContaining(`/default/incidents/${read.name}/documents/incident`)],
      ['Meeting', read.conference.weblink],
    ]);
    const [summary] = channel.messages;
    expect(summary.text).toContain(`Incident ${read.name}: Database down`);
    expect(summary.text).toContain('Commander: owner@example.com');
    expect(summary.text).toContain('Reporter: member@example.com');
    expect(summary.text).toContain(`/default/incidents/${read.name}`);
    expect(actionIds(summary.blocks)).toEqual([['incident-update', String(read.id)]]);
    const shown = JSON.stringify(summary.blocks);
    for (const fact of ['*Status*\\nActive', '*Type*\\nDefault', '*Priority*\\nLow', '*Severity*\\nUndetermined', '*Commander*\\nowner@example.com'])
      expect(shown).toContain(fact);
    // Slack's mrkdwn shows the description as written.
    expect(shown).toContain('Writes &lt;fail&gt; &amp; reads too.');
  });

  it('posts each status, priority, severity and role change, invites newcomers, and follows the commander in the topic', async () => {
    const inc = (await incidents.create({ title: 'Cache cold', commander: person('owner@example.com') })).body;
    await drain();
    const before = said(await channelOf(inc.id)).length;

    const res = await incidents.edit(inc.id, {
      status: 'Stable',
      incident_priority: { name: 'High' },
      incident_severity: { name: 'High' },
      commander: person('bob@example.com'),
      reporter: person('stranger@example.com'),
    });
    expect(res.status).toBe(200);
    await drain();
    const channel = await channelOf(inc.id);
    const change = said(channel).slice(before);
    expect(change).toHaveLength(1);
    expect(change[0].text.split('\n')).toEqual([
      `Incident ${inc.name} updated`,
      'Status changed from Active to Stable',
      'Severity changed to High',
      'Priority changed to High',
      'Incident Commander: bob@example.com (was owner@example.com)',
      'Reporter: stranger@example.com (was member@example.com)',
      expect.stringContaining(`/default/incidents/${inc.name}`),
    ]);
    expect(channel.topic).toBe('Cache cold | Commander: bob@example.com');
    // bob was invited; Slack knows no stranger, which is logged, not an error.
    expect(members(channel)).toContain(ids['bob@example.com']);
    const jobs = (await syncJobs()).filter((j) => (j.data as { record_id: number }).record_id === inc.id);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    expect(jobs.some((j) => JSON.stringify(j.output).includes('stranger@example.com'))).toBe(true);

    // Joining invites, and says nothing; whoever left the channel is not pulled back in.
    channel.members.delete(ids['member@example.com']);
    expect((await incidents.post(inc.id, 'join', w.admin)).status).toBe(200);
    await drain();
    const after = await channelOf(inc.id);
    expect(members(after)).toContain(ids['admin@example.com']);
    expect(members(after)).not.toContain(ids['member@example.com']);
    expect(slack.callsOf('conversations.invite').at(-1)?.users).toBe(ids['admin@example.com']);
    expect(said(after)).toHaveLength(before + 1);
  });

  it('posts tactical and executive reports', async () => {
    const inc = (await incidents.create({ title: 'Queue stuck' })).body;
    const tactical = await incidents.post(inc.id, 'report/tactical', w.member, { conditions: 'Backlog of 10k', actions: 'Draining', needs: 'More workers' });
    expect(tactical.status).toBe(200);
    await incidents.post(inc.id, 'report/executive', w.member, { current_status: 'Degraded', overview: 'Slow jobs', next_steps: 'Scale out' });
    await drain();
    const [, first, second] = said(await channelOf(inc.id));
    expect(first.text.split('\n').slice(0, 4)).toEqual([
      'Tactical Report by member@example.com',
      'Conditions: Backlog of 10k',
      'Actions: Draining',
      'Needs: More workers',
    ]);
    expect(second.text.split('\n').slice(0, 4)).toEqual([
      'Executive Report by member@example.com',
      'Current status: Degraded',
      'Overview: Slow jobs',
      'Next steps: Scale out',
    ]);
  });

  it('posts report reminders in the channel', async () => {
    const inc = (await incidents.create({ title: 'Reminded', incident_priority: { name: 'High' }, commander: person('owner@example.com') })).body;
    await drain();
    // High: a tactical report every 2 hours. Four hours (and a little) since the incident started.
    const now = new Date(new Date(inc.reported_at).getTime() + 4 * 3600_000 + 60_000);
    const [org] = rowsOf<{ id: number; slug: string }>(await w.t.database.db.execute(sql`SELECT id, slug FROM organization WHERE slug = 'default'`));
    const scope = {
      ctx: { db: w.t.database.db, settings: w.t.settings, user: SYSTEM_USER, organization: org, role: 'Owner' as const },
      project: { id: projectId, name: 'default', slug: 'default' },
    };
    expect(await remindReports(scope, now)).toBeGreaterThan(0);
    // The same period again: nothing more.
    await remindReports(scope, now);
    await drain();
    const reminders = (await channelOf(inc.id)).messages.filter((m) => m.text.startsWith('The tactical report is due'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0].text).toContain('4 hours ago');
    expect(reminders[0].text).toContain('Commander: owner@example.com');
  });

  it('archives the channel on close (posting the change once though Slack asked to wait), and gives a reopened incident a new one', async () => {
    const inc = (await incidents.create({ title: 'Closing time', commander: person('owner@example.com') })).body;
    await drain();
    const first = await channelOf(inc.id);
    slack.fail('conversations.archive', { ratelimited: 1 });
    expect((await incidents.edit(inc.id, { status: 'Closed' })).status).toBe(200);
    await drain();
    expect(first.is_archived).toBe(true);
    expect(slack.callsOf('conversations.archive')).toHaveLength(2);
    expect(texts(first).filter((t) => t.startsWith('Incident'))).toEqual([`Incident ${inc.name}: Closing time`, `Incident ${inc.name} updated`]);
    expect(said(first).at(-1)?.text).toContain('Status changed from Active to Closed');

    // Closed: a report says nothing to the archived channel.
    await incidents.post(inc.id, 'report/tactical', w.owner, { conditions: 'c', actions: 'a', needs: 'n' });
    await drain();
    expect(said(first)).toHaveLength(2);

    // Slack lets no bot unarchive: the reopened incident gets a new channel, its people, its summary.
    expect((await incidents.edit(inc.id, { status: 'Active' })).status).toBe(200);
    await drain();
    const second = await channelOf(inc.id);
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ name: `${first.name}-2`, is_archived: false });
    expect(members(second)).toEqual(members(first));
    expect(texts(second)).toEqual([`Incident ${inc.name}: Closing time`, `Incident ${inc.name} updated`]);
    expect(said(second)[1].text).toContain('Status changed from Closed to Active');
  });

  it('loses nothing written before its channel exists', async () => {
    expect((await configure(false)).status).toBe(200);
    const inc = (await incidents.create({ title: 'Before Slack', commander: person('owner@example.com') })).body;
    await drain();
    expect((await syncJobs()).filter((j) => (j.data as { record_id: number }).record_id === inc.id)).toEqual([]);
    expect((await configure(true)).status).toBe(200);

    // Changed twice before any job runs: the first job makes the channel, every message follows the summary.
    await incidents.edit(inc.id, { incident_priority: { name: 'Medium' } });
    await incidents.edit(inc.id, { commander: person('bob@example.com') });
    await drain();
    const channel = await channelOf(inc.id);
    expect(slack.callsOf('conversations.create')).toHaveLength(1);
    expect(members(channel)).toEqual([ids['bob@example.com'], ids['member@example.com'], ids['owner@example.com']].sort());
    expect(channel.messages.map((m) => m.text.split('\n').slice(0, 2).join(' / '))).toEqual([
      `Incident ${inc.name}: Before Slack / `,
      `Incident ${inc.name} updated / Priority changed to Medium`,
      `Incident ${inc.name} updated / Incident Commander: bob@example.com (was owner@example.com)`,
    ]);
  });

  it('makes a Restricted incident private whatever the configuration, and others as configured', async () => {
    expect((await configure(true, { private_channels: false })).status).toBe(200);
    try {
      const open = (await incidents.create({ title: 'Open one' })).body;
      const restricted = (await incidents.create({ title: 'Hidden one', visibility: 'Restricted' })).body;
      await drain();
      expect((await channelOf(open.id)).is_private).toBe(false);
      expect((await channelOf(restricted.id)).is_private).toBe(true);
    } finally {
      await configure(true, { private_channels: true });
    }
  });
});

describe("a role policy's on-call service", () => {
  let oncall: Server;
  afterAll(() => new Promise((resolve) => oncall?.close(resolve)));

  it('hands the commander role over in the channel: posted, invited, and the topic follows', async () => {
    ids['oncall@example.com'] = slack.addUser('oncall@example.com');
    oncall = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.url?.startsWith('/oncalls') ? { oncalls: [{ email: 'oncall@example.com' }] } : {}));
    });
    await new Promise<void>((resolve) => oncall.listen(0, '127.0.0.1', resolve));
    const instances = (await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } })).body.items;
    const http = instances.find(
      (i: { plugin: { slug: string }; project: { id: number } }) => i.plugin.slug === 'muster-oncall-http' && i.project.id === projectId,
    );
    const url = `http://127.0.0.1:${(oncall.address() as AddressInfo).port}`;
    expect(
      (await call(w.t.app, 'PUT', `/default/plugins/instances/${http.id}`, { token: w.admin, body: { enabled: true, configuration: { url } } })).status,
    ).toBe(200);
    const post = (path: string, body: Record<string, unknown>) =>
      call(w.t.app, path.startsWith('incident_roles') ? 'PUT' : 'POST', `/default/${path}`, {
        token: w.owner,
        body,
        query: path.startsWith('incident_roles') ? { projectName: 'default' } : undefined,
      });
    expect((await post('incident_priorities', { name: 'On call', view_order: 7, project: { name: 'default' } })).status).toBe(200);
    expect((await post('services', { name: 'Commanders', external_id: 'PD-IC', project: { name: 'default' } })).status).toBe(200);
    const policy = await post(`incident_roles/${encodeURIComponent('Incident Commander')}`, {
      policies: [{ order: 1, service: { external_id: 'PD-IC' }, incident_priorities: [{ name: 'On call' }], incident_types: [{ name: 'Default' }] }],
    });
    expect(policy.status).toBe(200);

    const inc = (await incidents.create({ title: 'Paged in', incident_priority: { name: 'On call' } })).body;
    await drain();
    expect((await incidents.get(inc.id)).body.commander.individual.email).toBe('oncall@example.com');
    const channel = await channelOf(inc.id);
    expect(members(channel)).toContain(ids['oncall@example.com']);
    expect(channel.topic).toBe('Paged in | Commander: oncall@example.com');
    expect(channel.messages.map((m) => m.text.split('\n')[1])).toContain('Incident Commander: oncall@example.com (was member@example.com)');
  });
});

describe('Slack failing', () => {
  it('is asked again after the Retry-After it gave, and the message is posted once', async () => {
    const inc = (await incidents.create({ title: 'Rate limited' })).body;
    await drain();
    slack.calls.length = 0;
    slack.fail('chat.postMessage', { ratelimited: 1 });
    expect((await incidents.edit(inc.id, { incident_severity: { name: 'High' } })).status).toBe(200);
    await drain();
    const channel = await channelOf(inc.id);
    expect(channel.messages.filter((m) => m.text.includes('Severity changed to High'))).toHaveLength(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(2);
    const [job] = (await syncJobs()).filter((j) => (j.data as { record_id: number }).record_id === inc.id && j.retry_count > 0);
    expect(job).toMatchObject({ state: 'completed', retry_count: 1 });
  });

  it('fails the job after its retries on channel_not_found, and the incident write stands', async () => {
    const inc = (await incidents.create({ title: 'Channel gone' })).body;
    await drain();
    const conversation = (await incidents.get(inc.id, w.owner)).body.conversation;
    slack.fail('chat.postMessage', { error: 'channel_not_found' }, 100);
    try {
      const res = await incidents.edit(inc.id, { incident_priority: { name: 'High' } });
      expect(res.status).toBe(200);
      expect(res.body.incident_priority.name).toBe('High');
      await drain({ retryNow: true });
    } finally {
      slack.fail('chat.postMessage', { error: 'channel_not_found' }, 0);
    }
    const failed = (await listJobs(w.t.database, { failed: true, names: ['conversation-sync'] })).filter(
      (j) => (j.data as { record_id: number }).record_id === inc.id,
    );
    expect(failed).toHaveLength(1);
    expect(failed[0].retry_count).toBe(failed[0].retry_limit);
    expect(JSON.stringify(failed[0].output)).toContain('channel_not_found');
    const read = (await incidents.get(inc.id, w.owner)).body;
    expect(read.incident_priority.name).toBe('High');
    expect(read.conversation).toEqual(conversation);
  });
});

describe('a case in Slack', () => {
  let triage: string;
  let typeId: number;
  beforeAll(async () => {
    triage = slack.addChannel('case-triage');
    const type = await call(w.t.app, 'POST', '/default/case_types', {
      token: w.admin,
      body: { name: 'Phishing', project: { name: 'default' }, conversation_target: '#case-triage' },
    });
    expect(type.status).toBe(200);
    typeId = type.body.id;
  });

  const threadOf = async (id: number) => {
    const [row] = await w.t.database.db.select({ conversation: caseTable.conversation }).from(caseTable).where(eq(caseTable.id, id));
    return row.conversation as { channel_id: string; thread_id: string } | null;
  };

  it("gets a thread in its type's channel, with its summary and buttons, and each change as a reply", async () => {
    const created = await cases.create({ title: 'Odd mail', case_type: { id: typeId } });
    expect(created.status).toBe(200);
    await drain();
    const c = (await cases.get(created.body.id, w.owner)).body;
    const thread = await threadOf(c.id);
    expect(thread).toMatchObject({ channel_id: triage, resource_type: 'slack-conversation', thread_id: expect.any(String) });
    const channel = slack.channels.get(triage)!;
    const root = channel.messages.find((m) => m.ts === thread?.thread_id)!;
    expect(root.text.split('\n')[0]).toBe(`Case ${c.name}: Odd mail`);
    expect(actionIds(root.blocks)).toEqual(['case-edit', 'case-escalate', 'case-resolve', 'case-join'].map((a) => [a, String(c.id)]));
    // A thread is no room of its own: nobody is invited, nothing archived.
    expect(slack.callsOf('conversations.invite')).toEqual([]);

    expect((await cases.edit(c.id, { status: 'Triage', assignee: person('bob@example.com') })).status).toBe(200);
    await drain();
    const replies = channel.messages.filter((m) => m.thread_ts === thread?.thread_id);
    // The case's document came with it, as a reply with its link; then the change.
    expect(replies.map((m) => m.text.split('\n').slice(0, 3))).toEqual([
      ['Case document', expect.stringContaining(`/default/cases/${c.name}/documents/case`), expect.stringContaining(`/default/cases/${c.name}`)],
      [`Case ${c.name} updated`, 'Status changed from New to Triage', 'Assignee: bob@example.com (was member@example.com)'],
    ]);
    expect((await cases.edit(c.id, { status: 'Closed' })).status).toBe(200);
    await drain();
    expect(channel.messages.filter((m) => m.thread_ts === thread?.thread_id).at(-1)?.text).toContain('Status changed from Triage to Closed');
    expect(channel.is_archived).toBe(false);
  });

  it('tells the thread of an escalation; the incident gets a channel of its own', async () => {
    const c = (await cases.create({ title: 'Mail storm', case_type: { id: typeId } })).body;
    await drain();
    const escalated = await cases.escalate(c.id, { title: 'Mail storm incident' });
    expect(escalated.status).toBe(200);
    await drain();
    const thread = await threadOf(c.id);
    const replies = told(slack.channels.get(triage)!.messages.filter((m) => m.thread_ts === thread?.thread_id));
    expect(replies.map((m) => m.text.split('\n')[1])).toEqual(['Status changed from New to Escalated']);
    expect((await channelOf(escalated.body.id)).messages[0].text).toContain('Mail storm incident');
  });

  it('keeps the title of a Restricted case out of the shared channel', async () => {
    const c = (await cases.create({ title: 'Secret matter', description: 'Private details', case_type: { id: typeId }, visibility: 'Restricted' })).body;
    await drain();
    const thread = await threadOf(c.id);
    const root = slack.channels.get(triage)!.messages.find((m) => m.ts === thread?.thread_id)!;
    expect(root.text.split('\n')[0]).toBe(`Case ${c.name}: (restricted)`);
    expect(JSON.stringify(root)).not.toMatch(/Secret matter|Private details/);
  });

  it('gets no thread when its type names no channel, and a failed job when the channel is unknown', async () => {
    const plain = (await cases.create({ title: 'No target' })).body;
    const typo = await call(w.t.app, 'POST', '/default/case_types', {
      token: w.admin,
      body: { name: 'Typo', project: { name: 'default' }, conversation_target: '#no-such-channel' },
    });
    const lost = (await cases.create({ title: 'Lost', case_type: { id: typo.body.id } })).body;
    await drain({ retryNow: true });
    expect(await threadOf(plain.id)).toBeNull();
    expect(await threadOf(lost.id)).toBeNull();
    const failed = (await listJobs(w.t.database, { failed: true, names: ['conversation-sync'] })).filter(
      (j) => (j.data as { kind: string; record_id: number }).kind === 'case' && (j.data as { record_id: number }).record_id === lost.id,
    );
    // Both of its room's jobs (its creation, its document's link) fail naming the channel.
    expect(failed.map((j) => JSON.stringify(j.output))).toEqual([expect.stringContaining('#no-such-channel'), expect.stringContaining('#no-such-channel')]);
    const [row] = await w.t.database.db.select({ status: caseTable.status }).from(caseTable).where(eq(caseTable.id, lost.id));
    expect(row.status).toBe('New');
  });
});

describe('without a conversation plugin', () => {
  it('enqueues nothing for the records of a project that has none', async () => {
    const before = (await syncJobs()).length;
    expect((await configure(false)).status).toBe(200);
    try {
      const inc = (await incidents.create({ title: 'Quiet' })).body;
      await incidents.edit(inc.id, { status: 'Stable' });
      await incidents.post(inc.id, 'join', w.admin);
      await drain();
      expect((await syncJobs()).length).toBe(before);
      const [row] = await w.t.database.db.select({ conversation: incident.conversation }).from(incident).where(eq(incident.id, inc.id));
      expect(row.conversation).toBeNull();
    } finally {
      await configure(true);
    }
  });
});
