// Messages of an incident's channel marked with the timeline reaction become timeline events once;
// workflows are run and listed from an incident's channel, against a local workflow system.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/helpers.ts';
import { drainJobs } from '../../test/jobs.ts';
import { answersAt, command, incidentWithChannel, jobsNamed, openedView, signed, submit, useSlackWorld } from '../../test/worlds/slack.ts';
import { CHAT_TIMELINE_MESSAGE } from './timeline.ts';

const w = useSlackWorld({ timeline_reaction: 'pushpin' }, { workflowPollSeconds: 0 });
const drain = () => drainJobs(w.t.database, w.t.settings);
const events = async (id: number) => (await call(w.t.app, 'GET', `/default/incidents/${id}`, { token: w.owner })).body.events as any[];

const reaction = (channel: string, ts: string, name = 'pushpin', user = w.ids.admin) =>
  signed(
    w,
    'event',
    JSON.stringify({
      token: 'x',
      team_id: 'T0001',
      type: 'event_callback',
      event_id: `Ev${Math.random().toString(36).slice(2)}`,
      event: { type: 'reaction_added', user, reaction: name, item: { type: 'message', channel, ts }, item_user: w.ids.member, event_ts: ts },
    }),
  );

let inc: { id: number; name: string; channel: string };
beforeAll(async () => {
  inc = await incidentWithChannel(w);
});

describe('messages into the timeline', () => {
  it('a message marked with the configured reaction becomes an event in its author’s name, at its time, once', async () => {
    const ts = w.slack.addMessage(inc.channel, w.ids.member, `Replica is five minutes behind, <@${w.ids.owner}> is on it`);
    const first = await reaction(inc.channel, ts);
    expect(first).toMatchObject({ status: 200, body: 'OK' });
    // Slack retrying the event, and someone else marking the same message.
    await reaction(inc.channel, ts);
    await reaction(inc.channel, ts, 'pushpin', w.ids.owner);
    await drain();
    await reaction(inc.channel, ts);
    await drain();
    const imported = (await events(inc.id)).filter((e) => e.type === 'Imported message');
    expect(imported).toEqual([
      expect.objectContaining({ description: 'Replica is five minutes behind, @Olive Owner is on it', source: 'Slack', owner: 'Mel Member' }),
    ]);
    expect(new Date(imported[0].started_at).getTime()).toBe(Math.floor(Number(ts) * 1000));
  });

  it('other reactions, and messages outside incident channels, are left alone', async () => {
    const before = await jobsNamed(w, CHAT_TIMELINE_MESSAGE);
    const ts = w.slack.addMessage(inc.channel, w.ids.member, 'Nice work');
    expect((await reaction(inc.channel, ts, 'thumbsup')).body).toBe('OK');
    expect(await jobsNamed(w, CHAT_TIMELINE_MESSAGE)).toBe(before);

    const general = w.slack.addChannel('general');
    const elsewhere = w.slack.addMessage(general, w.ids.member, 'Lunch?');
    await reaction(general, elsewhere);
    await drain();
    expect((await events(inc.id)).map((e) => e.description)).not.toContain('Lunch?');
  });

  it('is retried when Slack rate limits the message lookup', async () => {
    const ts = w.slack.addMessage(inc.channel, w.ids.admin, 'Failover done');
    w.slack.fail('conversations.history', { ratelimited: 1 });
    await reaction(inc.channel, ts);
    await drain();
    expect((await events(inc.id)).find((e) => e.description === 'Failover done')).toMatchObject({ owner: 'Ada Admin' });
  });
});

/** A workflow system: starts a run, which is complete on its first check. */
function startReceiver() {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const id = req.method === 'POST' ? 'run-1' : decodeURIComponent(req.url!.split('/').at(-1)!);
      res.end(JSON.stringify({ status: req.method === 'POST' ? 'Running' : 'Completed', id, weblink: `https://wf.example.com/runs/${id}` }));
    });
  });
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

describe('workflows', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  it('run workflow says when none is enabled, else runs the one chosen; list workflows shows the runs', async () => {
    const none = await command(w, 'run-workflow', w.ids.member, inc.channel);
    expect(none.res.body.text).toBe("No workflows are enabled in this incident's project.");

    const instances = await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.owner, query: { itemsPerPage: -1 } });
    const generic = instances.body.items.find((i: any) => i.plugin.slug === 'muster-workflow');
    await call(w.t.app, 'PUT', `/default/plugins/instances/${generic.id}`, { token: w.owner, body: { enabled: true, configuration: { url: receiver.url } } });
    const wf = await call(w.t.app, 'POST', '/default/workflows', {
      token: w.owner,
      body: {
        name: 'Snapshot the database',
        description: 'Takes a snapshot',
        resource_id: 'snapshot',
        plugin_instance: { id: generic.id },
        project: { name: 'default' },
      },
    });
    expect(wf.status).toBe(200);

    const { res, triggerId } = await command(w, 'run-workflow', w.ids.member, inc.channel);
    expect(res.body.text).toBe('Opening a modal to run a workflow...');
    const choices = openedView(w, triggerId).view.blocks.find((b: any) => b.block_id === 'workflow').element.options;
    expect(choices).toEqual([{ text: { type: 'plain_text', text: 'Snapshot the database' }, value: String(wf.body.id) }]);
    const done = await submit(w, triggerId, w.ids.member, { workflow: { option: String(wf.body.id) }, run_reason: 'Before the failover' });
    expect(done.body.view.blocks[0].text.text).toContain('Workflow Snapshot the database submitted');
    await drain();

    const list = await command(w, 'list-workflows', w.ids.member, inc.channel);
    expect(list.res.body.text).toBe('Fetching the list of workflows...');
    await drain();
    const [answer] = answersAt(w, list.responseUrl);
    expect(answer.text).toBe('Incident Workflows');
    const text = JSON.stringify(answer.blocks);
    expect(text).toContain('Snapshot the database');
    expect(text).toContain('Before the failover');
    expect(text).toContain('Completed');
  });
});
