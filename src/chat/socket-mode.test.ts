// A Slack app in Socket Mode, against a local Slack speaking its protocol: apps.connections.open
// with the app-level token, a WebSocket that says hello and sends envelopes. Each envelope reaches
// the handler of the endpoint Slack would otherwise have called, and is acknowledged with that
// endpoint's answer; Slack's `disconnect` makes Muster connect again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/helpers.ts';
import { drainJobs } from '../../test/jobs.ts';
import { startSlackSocket, type SocketPeer } from '../../test/peers/slack-socket.ts';
import { incidentWithChannel, openedView, stateOf, useSlackWorld } from '../../test/worlds/slack.ts';
import { OutboundRefused, outboundFor } from '../lib/outbound/client.ts';
import { openSlackSocket } from '../plugins/builtin/slack/socket.ts';
import { type SlackSockets, startSlackSockets } from './socket-mode.ts';

const APP_TOKEN = 'xapp-1-A0001-socket-mode-test';
const w = useSlackWorld({ timeline_reaction: 'pushpin', socket_mode_app_token: APP_TOKEN });
const drain = () => drainJobs(w.t.database, w.t.settings);
const logged: string[] = [];
const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m) };

let peer: SocketPeer;
let sockets: SlackSockets;
let inc: { id: number; name: string; channel: string };

beforeAll(async () => {
  peer = await startSlackSocket(w.slack, APP_TOKEN);
  inc = await incidentWithChannel(w);
  sockets = startSlackSockets({ db: w.t.database.db, settings: w.t.settings }, log);
  await peer.connected(1);
});
afterAll(async () => {
  await sockets?.stop();
  await peer?.close();
});

const incident = async () => (await call(w.t.app, 'GET', `/default/incidents/${inc.id}`, { token: w.owner })).body;

describe('Slack Socket Mode', () => {
  it('opens one connection with the app-level token (a bot token is refused for it)', async () => {
    expect(peer.opened).toBe(1);
    expect(peer.connections).toBe(1);
    const withBotToken = await fetch(`${w.slack.apiUrl}apps.connections.open`, { method: 'POST', headers: { authorization: `Bearer ${w.slack.token}` } });
    expect(await withBotToken.json()).toEqual({ ok: false, error: 'not_allowed_token_type' });
  });

  it('hands an events_api envelope to the events handler: a marked message of the incident channel enters the timeline', async () => {
    const ts = w.slack.addMessage(inc.channel, w.ids.member, 'Replica caught up');
    const ack = await peer.send('events_api', {
      token: 'x',
      team_id: 'T0001',
      api_app_id: 'A0001',
      type: 'event_callback',
      event_id: 'Ev0001',
      event_time: Number(ts.split('.')[0]),
      event: { type: 'reaction_added', user: w.ids.admin, reaction: 'pushpin', item: { type: 'message', channel: inc.channel, ts }, event_ts: ts },
    });
    expect(ack).toEqual({ envelope_id: expect.any(String), payload: {} });
    await drain();
    expect((await incident()).events).toContainEqual(expect.objectContaining({ description: 'Replica caught up', owner: 'Mel Member', source: 'Slack' }));
  });

  it('answers a slash command in its acknowledgement and opens its modal through the Web API; the modal submitted as an interactive envelope updates the incident', async () => {
    const triggerId = 'trigger-socket-1';
    const ack = await peer.send('slash_commands', {
      token: 'x',
      team_id: 'T0001',
      team_domain: 'muster-test',
      channel_id: inc.channel,
      channel_name: `incident-${inc.id}`,
      user_id: w.ids.owner,
      user_name: 'owner',
      command: '/dispatch-update-incident',
      text: '',
      api_app_id: 'A0001',
      is_enterprise_install: 'false',
      response_url: w.slack.responseUrl(),
      trigger_id: triggerId,
    });
    expect(ack.payload).toEqual({ response_type: 'ephemeral', text: 'Opening a dialog to update incident information...' });
    expect(w.slack.callsOf('views.open').map((c) => c.trigger_id)).toContain(triggerId);

    const { id, view } = openedView(w, triggerId);
    const submitted = await peer.send('interactive', {
      type: 'view_submission',
      team: { id: 'T0001' },
      user: { id: w.ids.owner },
      api_app_id: 'A0001',
      trigger_id: `${triggerId}-submit`,
      view: { ...view, id, state: stateOf(view, { title: 'Database down in eu-west' }), hash: 'h' },
    });
    expect(submitted.payload.view.blocks[0].text.text).toBe('Incident updated successfully.');
    const after = await incident();
    expect(after.title).toBe('Database down in eu-west');
    expect(after.events.map((e: { description: string }) => e.description)).toContainEqual(expect.stringContaining('Database down in eu-west'));
  });

  it('connects again when Slack asks it to go away, and goes on handling envelopes', async () => {
    peer.disconnect();
    await peer.connected(2);
    expect(peer.opened).toBe(2);
    const ack = await peer.send('interactive', { type: 'block_suggestion', user: { id: w.ids.owner }, action_id: 'nothing', value: '', view: {} });
    expect(ack.payload).toEqual({ options: [] });
  });

  it('reaches Slack through the outbound policy: an address it refuses is not connected to', async () => {
    const opened = peer.opened;
    const refused = openSlackSocket({ apiUrl: w.slack.apiUrl, appToken: APP_TOKEN }, outboundFor(undefined), async () => null, log);
    await expect(refused).rejects.toThrow(OutboundRefused);
    expect(peer.opened).toBe(opened);
  });

  it('drops the connection of an app whose instance is disabled', async () => {
    const disabled = await call(w.t.app, 'PUT', `/default/plugins/instances/${w.instanceId}`, { token: w.owner, body: { enabled: false } });
    expect(disabled.status).toBe(200);
    await sockets.refresh();
    await expect(peer.send('events_api', { type: 'event_callback', event: { type: 'app_mention' } })).rejects.toThrow('no open Socket Mode connection');
  });
});
