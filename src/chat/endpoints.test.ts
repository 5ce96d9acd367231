// The four Slack endpoints as Slack calls them: signed requests only (a wrong, stale or missing
// signature, an unknown organization or a disabled instance is 403 and does nothing), bodies as
// Slack sends them (anything else a 400 in the contract's shape), URL verification, events
// acknowledged at once, commands Muster does not run answered ephemerally.
import { describe, expect, it } from 'vitest';
import { call } from '../../test/helpers.ts';
import { commandBody, payloadBody, slackHeaders } from '../../test/peers/slack.ts';
import { command, jobsNamed, SIGNING_SECRET, signed, useSlackWorld } from '../../test/worlds/slack.ts';
import { CHAT_COMMAND } from './run.ts';

const w = useSlackWorld({ command_prefix: '/dispatch-', commands: { 'list-incidents': '/incidents' } });

const INVALID = { detail: [{ msg: 'Invalid request signature' }] };
const listIncidents = (user: string) => commandBody({ command: '/incidents', user_id: user, channel_id: 'C-general', response_url: w.slack.responseUrl() });

describe('Slack request signatures', () => {
  it('are required on every endpoint: none, wrong or stale is 403 with the contract body, and nothing is done', async () => {
    const before = { jobs: await jobsNamed(w, CHAT_COMMAND), calls: w.slack.calls.length };
    const body = listIncidents(w.ids.member);
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    for (const endpoint of ['event', 'command', 'action', 'menu'] as const) {
      const unsigned = await call(w.t.app, 'POST', `/default/events/slack/${endpoint}`, {
        raw: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(unsigned).toMatchObject({ status: 403, body: INVALID });
      expect(await signed(w, endpoint, body, { secret: 'another-apps-secret' })).toMatchObject({ status: 403, body: INVALID });
      expect(await signed(w, endpoint, body, { timestamp: tenMinutesAgo })).toMatchObject({ status: 403, body: INVALID });
    }
    // A body changed after signing.
    const headers = { 'content-type': 'application/x-www-form-urlencoded', ...slackHeaders(SIGNING_SECRET, body) };
    const tampered = await call(w.t.app, 'POST', '/default/events/slack/command', { raw: body.replace('C-general', 'C-other'), headers });
    expect(tampered).toMatchObject({ status: 403, body: INVALID });
    expect({ jobs: await jobsNamed(w, CHAT_COMMAND), calls: w.slack.calls.length }).toEqual(before);
  });

  it('of an unknown organization, or of one whose Slack instance is disabled, are refused alike', async () => {
    const body = listIncidents(w.ids.member);
    expect(await signed(w, 'command', body, { organization: 'nowhere' })).toMatchObject({ status: 403, body: INVALID });
    // `elsewhere` exists but has no enabled Slack instance.
    expect(await signed(w, 'command', body, { organization: 'elsewhere' })).toMatchObject({ status: 403, body: INVALID });
    await call(w.t.app, 'PUT', `/default/plugins/instances/${w.instanceId}`, { token: w.owner, body: { enabled: false } });
    try {
      expect(await signed(w, 'command', body)).toMatchObject({ status: 403, body: INVALID });
    } finally {
      await call(w.t.app, 'PUT', `/default/plugins/instances/${w.instanceId}`, { token: w.owner, body: { enabled: true } });
    }
    expect((await signed(w, 'command', body)).status).toBe(200);
  });
});

describe('bodies Slack would never send', () => {
  const cases: [string, 'event' | 'command' | 'action' | 'menu', string, string][] = [
    ['a command as JSON', 'command', '{"command":"/incidents"}', 'application/json'],
    ['a command without its user', 'command', 'command=%2Fincidents&channel_id=C1', 'application/x-www-form-urlencoded'],
    ['an interaction without a payload', 'action', 'type=block_actions', 'application/x-www-form-urlencoded'],
    ['an interaction whose payload is not JSON', 'action', payloadBody({}).replace('%7B', '%5B%5B'), 'application/x-www-form-urlencoded'],
    ['an interaction payload without a type', 'menu', payloadBody({ action_id: 'tags' }), 'application/x-www-form-urlencoded'],
    [
      'a button without a record id',
      'action',
      payloadBody({ type: 'block_actions', user: { id: 'U1' }, actions: [{ action_id: 'case-join', value: 'x' }] }),
      'application/x-www-form-urlencoded',
    ],
    ['an event form-encoded', 'event', 'type=url_verification&challenge=x', 'application/x-www-form-urlencoded'],
    ['an event that is not JSON', 'event', '{"type":', 'application/json'],
    ['a URL verification without its challenge', 'event', '{"type":"url_verification"}', 'application/json'],
  ];
  for (const [what, endpoint, body, contentType] of cases) {
    it(`answer 400 in the contract's shape: ${what}`, async () => {
      const res = await signed(w, endpoint, body, { contentType });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: [{ msg: expect.any(String) }] });
    });
  }
});

describe('events', () => {
  it("answers Slack's URL verification with its challenge", async () => {
    const res = await signed(w, 'event', JSON.stringify({ token: 'x', challenge: 'c-4711', type: 'url_verification' }));
    expect(res).toMatchObject({ status: 200, body: { challenge: 'c-4711' } });
  });

  it('acknowledges other events at once with "OK"', async () => {
    const event = { type: 'event_callback', team_id: 'T0001', event: { type: 'member_joined_channel', user: w.ids.member, channel: 'C1' }, event_id: 'Ev1' };
    const res = await signed(w, 'event', JSON.stringify(event));
    expect(res).toMatchObject({ status: 200, body: 'OK' });
  });
});

describe('commands Muster does not run', () => {
  it('are answered ephemerally: an unknown name, and the commands Muster does not offer', async () => {
    const unknown = await command(w, 'make-coffee', w.ids.member, 'C1');
    expect(unknown.res).toMatchObject({
      status: 200,
      body: { response_type: 'ephemeral', text: expect.stringContaining('does not know the command `/dispatch-make-coffee`') },
    });
    for (const name of ['notifications-group', 'engage-user', 'summary']) {
      const res = (await command(w, name, w.ids.member, 'C1')).res;
      expect(res.body).toEqual({ response_type: 'ephemeral', text: `\`/dispatch-${name}\` is not available in Muster.` });
    }
    // A command renamed in the configuration answers to its new name only.
    const old = await command(w, 'list-incidents', w.ids.member, 'C1');
    expect(old.res.body.text).toContain('does not know the command');
  });

  it('closing a modal, and interactions Muster does not use, are answered with an empty 200', async () => {
    const closed = await signed(w, 'action', payloadBody({ type: 'view_closed', user: { id: w.ids.member }, view: { id: 'V1', callback_id: 'x' } }));
    expect(closed.status).toBe(200);
    expect(closed.body).toBeUndefined();
    const link = await signed(
      w,
      'action',
      payloadBody({ type: 'block_actions', user: { id: w.ids.member }, actions: [{ action_id: 'open-link', value: 'x' }] }),
    );
    expect(link.status).toBe(200);
    expect(link.body).toBeUndefined();
  });
});
