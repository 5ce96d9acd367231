// `muster server start` holds the Socket Mode connection of a Slack app configured with an
// app-level token, against a local Slack speaking Socket Mode: a command sent over it is answered in
// its acknowledgement, and its list reaches the response URL through the server's own job workers.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTarget, http, musterOk, startServer, stopAllServers, tempDir, type Target } from './cli-helpers.ts';
import { startSlack, type SlackPeer } from './peers/slack.ts';
import { startSlackSocket, type SocketPeer } from './peers/slack-socket.ts';

const APP_TOKEN = 'xapp-1-A0001-cli-socket-mode';

let cwd: string;
let target: Target;
let slack: SlackPeer;
let peer: SocketPeer;
beforeAll(async () => {
  cwd = tempDir();
  target = embeddedTarget({ migrated: true });
  target.env.MUSTER_OUTBOUND_ALLOW = '127.0.0.0/8';
  slack = await startSlack();
  peer = await startSlackSocket(slack, APP_TOKEN);
});
afterAll(async () => {
  await stopAllServers();
  await peer?.close();
  await slack?.close();
  await target?.cleanup();
  rmSync(cwd, { recursive: true, force: true });
});

describe('muster server start and Slack Socket Mode', { timeout: 300_000 }, () => {
  it('connects for an enabled app with an app-level token, handles envelopes with the server, and lets go when it stops', async () => {
    await musterOk(['user', 'create', 'owner@example.com', '--organization', 'default', '--role', 'Owner'], { cwd, env: target.env });
    const token = (
      await musterOk(['token', 'create', '--organization', 'default', '--user', 'owner@example.com', '--name', 'setup'], { cwd, env: target.env })
    ).stdout.trim();
    const slackUser = slack.addUser('owner@example.com', 'Olive Owner');

    // Configured while a server runs; a server started afterwards connects at once.
    const first = await startServer({ cwd, env: target.env });
    const instances = await http(first.base, 'GET', '/default/plugins/instances?itemsPerPage=-1', { token });
    const instance = instances.body.items.find((i: { plugin: { slug: string } }) => i.plugin.slug === 'slack-conversation');
    const put = await http(first.base, 'PUT', `/default/plugins/instances/${instance.id}`, {
      token,
      body: { enabled: true, configuration: { bot_token: slack.token, signing_secret: 'secret', api_url: slack.apiUrl, socket_mode_app_token: APP_TOKEN } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await first.stop();

    const server = await startServer({ cwd, env: target.env });
    const connected = peer.connected(1);
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error(`no Socket Mode connection\n${server.output()}`)), 30_000).unref());
    await Promise.race([connected, late]);
    const responseUrl = slack.responseUrl();
    const ack = await peer.send('slash_commands', {
      command: '/dispatch-list-incidents',
      text: '',
      user_id: slackUser,
      channel_id: 'C-general',
      channel_name: 'general',
      team_id: 'T0001',
      api_app_id: 'A0001',
      response_url: responseUrl,
      trigger_id: 'trigger-cli-1',
    });
    expect(ack.payload).toMatchObject({ response_type: 'ephemeral', text: expect.any(String) });
    // The list is a job of the server's, answered at the response URL.
    const id = responseUrl.split('/').at(-1);
    for (let i = 0; !slack.responses.some((r) => r.id === id); i++) {
      if (i > 300) throw new Error(`nothing answered at the response URL\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await server.stop();
    await expect(peer.send('events_api', { type: 'event_callback', event: { type: 'app_mention' } })).rejects.toThrow('no open Socket Mode connection');
  });
});
