// Slack's Socket Mode for tests: `apps.connections.open` on the local Slack (test/peers/slack.ts),
// which takes only the app-level token, answers the ws:// address of a WebSocket server here. That
// server says hello to each connection, sends envelopes as Slack does (the newest connection gets
// them), collects their acknowledgements by envelope id, and can tell a connection to go away
// (`disconnect`), as Slack does before it recycles one.
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SlackPeer } from './slack.ts';

export interface Ack {
  envelope_id: string;
  payload?: any;
}

export interface SocketPeer {
  appToken: string;
  /** How many times apps.connections.open was answered. */
  opened: number;
  /** Connections made so far (each was said hello to). */
  connections: number;
  /** Resolves once `n` connections have been made. */
  connected(n: number): Promise<void>;
  /** Sends an envelope on the newest open connection; resolves with its acknowledgement (rejects after 15 s without one). */
  send(type: 'events_api' | 'slash_commands' | 'interactive', payload: object): Promise<Ack>;
  /** Asks the newest connection to go away, as Slack does before recycling it. */
  disconnect(): void;
  close(): Promise<void>;
}

export async function startSlackSocket(slack: SlackPeer, appToken = 'xapp-1-A0001-test-app-token'): Promise<SocketPeer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link/`;
  const sockets: WebSocket[] = [];
  const acks = new Map<string, (ack: Ack) => void>();
  const waiting: { n: number; resolve: () => void }[] = [];
  let seq = 0;

  const peer: SocketPeer = {
    appToken,
    opened: 0,
    connections: 0,
    connected: (n) => (peer.connections >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }))),
    send(type, payload) {
      const socket = sockets.filter((s) => s.readyState === s.OPEN).at(-1);
      if (!socket) return Promise.reject(new Error('no open Socket Mode connection'));
      const envelope_id = `env-${++seq}`;
      return new Promise<Ack>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no acknowledgement of ${type} envelope ${envelope_id}`)), 15_000);
        acks.set(envelope_id, (ack) => {
          clearTimeout(timer);
          resolve(ack);
        });
        socket.send(JSON.stringify({ envelope_id, type, payload, accepts_response_payload: type !== 'events_api', retry_attempt: 0, retry_reason: '' }));
      });
    },
    disconnect() {
      sockets
        .filter((s) => s.readyState === s.OPEN)
        .at(-1)
        ?.send(JSON.stringify({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'applink-test' } }));
    },
    async close() {
      slack.appMethods.delete('apps.connections.open');
      for (const s of sockets) s.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };

  slack.appMethods.set('apps.connections.open', {
    token: appToken,
    answer: () => {
      peer.opened++;
      return { url: `${url}?ticket=${peer.opened}&app_id=A0001` };
    },
  });

  wss.on('connection', (socket) => {
    sockets.push(socket);
    peer.connections++;
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (typeof message.envelope_id === 'string') acks.get(message.envelope_id)?.(message);
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: sockets.filter((s) => s.readyState === s.OPEN).length,
        debug_info: { host: 'applink-test', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0001' },
      }),
    );
    for (const w of waiting.filter((x) => peer.connections >= x.n)) w.resolve();
  });
  return peer;
}
