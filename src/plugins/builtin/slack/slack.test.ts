import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlack, type SlackPeer } from '../../../../test/peers/slack.ts';
import { LOCAL_PEERS } from '../../../../test/helpers.ts';
import { outboundFor } from '../../../lib/outbound/client.ts';
import { RetryLater } from '../../../lib/retry-later.ts';
import { SlackCallError } from './api.ts';
import { slackSettings } from './config.ts';
import { channelName, slackPlugin } from './plugin.ts';
import { slackSignature, verifySlackSignature } from './signature.ts';

const env = { idempotencyKey: 'job-1', uiUrl: 'http://ui', namePrefix: 'muster', log: { info() {}, warn() {} }, outbound: outboundFor(LOCAL_PEERS) };

describe('the Slack plugin against a local Slack', () => {
  let slack: SlackPeer;
  let config: Record<string, unknown>;
  beforeAll(async () => {
    slack = await startSlack();
    config = { bot_token: slack.token, signing_secret: 's', api_url: slack.apiUrl };
  });
  afterAll(() => slack.close());

  it('creates a private channel named after the incident, with a suffix when the name is taken, and sets its topic', async () => {
    const a = await slackPlugin.createChannel('Muster Default 1', { private: true, topic: 'Database down' }, config, env);
    expect(a).toMatchObject({ name: 'muster-default-1', weblink: expect.stringContaining(a.id) });
    const b = await slackPlugin.createChannel('Muster Default 1', { private: true }, config, env);
    expect(b.name).toBe('muster-default-1-2');
    expect(slack.channels.get(a.id)).toMatchObject({ is_private: true, topic: 'Database down' });
  });

  it('invites people by e-mail and returns those Slack does not know', async () => {
    const ann = slack.addUser('ann@example.com', 'Ann');
    const { id } = await slackPlugin.createChannel('invites', { private: false }, config, env);
    const r = await slackPlugin.invite(id, ['ann@example.com', 'nobody@example.com'], config, env);
    expect(r).toEqual({ invited: ['ann@example.com'], unknown: ['nobody@example.com'] });
    expect(slack.channels.get(id)?.members.has(ann)).toBe(true);
    // Again: Slack says already_in_channel, which is no error.
    await expect(slackPlugin.invite(id, ['ann@example.com'], config, env)).resolves.toMatchObject({ invited: ['ann@example.com'] });
  });

  it('posts, archives once, and names Slack error codes', async () => {
    const { id } = await slackPlugin.createChannel('posts', { private: false }, config, env);
    const { ts } = await slackPlugin.post(id, { text: 'hello', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*hello*' } }] }, config, env);
    expect(slack.channels.get(id)?.messages).toEqual([expect.objectContaining({ ts, text: 'hello', blocks: [expect.objectContaining({ type: 'section' })] })]);
    await slackPlugin.archive(id, config, env);
    await slackPlugin.archive(id, config, env);
    expect(slack.channels.get(id)?.is_archived).toBe(true);
    await expect(slackPlugin.post('C404', { text: 'x' }, config, env)).rejects.toEqual(new SlackCallError('chat.postMessage', 'channel_not_found'));
    await expect(slackPlugin.post(id, { text: 'x' }, { ...config, bot_token: 'xoxb-wrong' }, env)).rejects.toThrow('invalid_auth');
  });

  it('turns a rate limit into a retry after the seconds Slack asked for', async () => {
    slack.fail('chat.postMessage', { ratelimited: 7 });
    const err = await slackPlugin.send('#anywhere', 'x', config, env).catch((e) => e);
    expect(err).toBeInstanceOf(RetryLater);
    expect(err.seconds).toBe(7);
  });

  it('makes a channel private when asked, else as configured, and sets its topic', async () => {
    const open = { ...config, private_channels: false };
    const a = await slackPlugin.createChannel('configured public', { private: false }, open, env);
    const b = await slackPlugin.createChannel('restricted one', { private: true }, open, env);
    const c = await slackPlugin.createChannel('configured private', { private: false }, config, env);
    expect([a, b, c].map((x) => slack.channels.get(x.id)?.is_private)).toEqual([false, true, true]);
    await slackPlugin.setTopic(a.id, `Database down | Commander: ann@example.com${' x'.repeat(200)}`, config, env);
    expect(slack.channels.get(a.id)?.topic).toMatch(/^Database down \| Commander: ann@example.com/);
    expect(slack.channels.get(a.id)?.topic).toHaveLength(250);
  });

  it('finds a channel by id or #name, through every page of the list, but not an archived one', async () => {
    for (let i = 0; i < 210; i++) slack.addChannel(`filler-${i}`);
    const triage = slack.addChannel('case-triage');
    const expected = { id: triage, name: 'case-triage', weblink: expect.stringContaining(triage) };
    expect(await slackPlugin.findChannel('#case-triage', config, env)).toEqual(expected);
    expect(await slackPlugin.findChannel(triage, config, env)).toEqual(expected);
    expect(slack.callsOf('conversations.list').length).toBeGreaterThan(1);
    expect(await slackPlugin.findChannel('#no-such-channel', config, env)).toBeNull();
    expect(await slackPlugin.findChannel('C99999999', config, env)).toBeNull();
    await slackPlugin.archive(triage, config, env);
    expect(await slackPlugin.findChannel('#case-triage', config, env)).toBeNull();
    expect(await slackPlugin.findChannel(triage, config, env)).toBeNull();
  });

  it('replies in a thread, and invites the newcomers of a list whose others are there already', async () => {
    const id = slack.addChannel('threads');
    const { ts } = await slackPlugin.post(id, { text: 'Case opened' }, config, env);
    await slackPlugin.post(id, { text: 'Status changed', thread: ts }, config, env);
    expect(slack.channels.get(id)?.messages.map((m) => [m.text, m.thread_ts])).toEqual([
      ['Case opened', undefined],
      ['Status changed', ts],
    ]);
    const bob = slack.addUser('bob@example.com');
    const cy = slack.addUser('cy@example.com');
    await slackPlugin.invite(id, ['bob@example.com'], config, env);
    expect(await slackPlugin.invite(id, ['bob@example.com', 'cy@example.com'], config, env)).toEqual({
      invited: ['bob@example.com', 'cy@example.com'],
      unknown: [],
    });
    expect([...(slack.channels.get(id)?.members ?? [])]).toEqual(expect.arrayContaining([bob, cy]));
  });

  it('posts a notification to a channel named by a #target', async () => {
    const id = slack.addChannel('security');
    await slackPlugin.send('#security', 'Incident reported', config, env);
    expect(slack.channels.get(id)?.messages.at(-1)?.text).toBe('Incident reported');
  });
});

describe('Slack request signatures', () => {
  const body = 'token=x&command=%2Fdispatch-list-incidents';
  const now = 1_700_000_000;
  const sig = slackSignature('secret', String(now), body);

  it("accept Slack's v0 HMAC of the timestamp and raw body within five minutes", () => {
    expect(sig).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(verifySlackSignature('secret', { timestamp: String(now), signature: sig }, body, now + 299)).toBe(true);
  });

  it('refuse a stale timestamp, another secret, another body or a missing header', () => {
    expect(verifySlackSignature('secret', { timestamp: String(now), signature: sig }, body, now + 301)).toBe(false);
    expect(verifySlackSignature('other', { timestamp: String(now), signature: sig }, body, now)).toBe(false);
    expect(verifySlackSignature('secret', { timestamp: String(now), signature: sig }, `${body}&x=1`, now)).toBe(false);
    expect(verifySlackSignature('secret', { timestamp: String(now) }, body, now)).toBe(false);
    expect(verifySlackSignature('secret', { timestamp: 'soon', signature: sig }, body, now)).toBe(false);
  });
});

describe('the Slack configuration', () => {
  it("names commands with Dispatch's prefix by default, Muster's own when configured, and single overrides", () => {
    expect(slackSettings({}).commands.get('/dispatch-report-incident')).toBe('report-incident');
    const own = slackSettings({ command_prefix: '/muster-', commands: { 'list-incidents': '/incidents' } });
    expect(own.commands.get('/muster-report-incident')).toBe('report-incident');
    expect(own.commands.get('/incidents')).toBe('list-incidents');
    expect(own.commands.has('/muster-list-incidents')).toBe(false);
  });

  it("keeps channel names within Slack's rules", () => {
    expect(channelName('Muster: Default/42 (prod)')).toBe('muster-default-42-prod');
  });
});
