// Stopping without losing a request, the way load balancers expect: readiness fails first (the
// caller sets that), the listener keeps accepting for a moment (MUSTER_SHUTDOWN_DELAY) so that
// balancers notice, then it stops accepting. Every request still arriving on an open connection is
// answered, with `Connection: close` so the client opens its next connection elsewhere; connections
// that stay idle are closed once they have been idle for a moment (a client sending on a connection
// at the instant it is closed is the one race keep-alive leaves, so a connection in use is never
// closed under it). When no connection is left, or MUSTER_SHUTDOWN_TIMEOUT has passed (what is
// still open then is closed), draining ends.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** How long a connection must have been idle during draining before it is closed. */
export const IDLE_CLOSE_MS = 1_000;

interface ConnectionState {
  inFlight: Set<ServerResponse>;
  idleSince: number;
}

export interface Drainer {
  /** Runs the drain; resolves with the number of connections closed by force at the deadline. */
  drain(opts: { delayMs: number; timeoutMs: number }): Promise<number>;
  /** Open connections and requests in flight, now. */
  stats(): { connections: number; inFlight: number };
}

/** Tracks the connections of `server` from now on, so that it can be drained later. */
export function drainable(server: Server): Drainer {
  const connections = new Map<Socket, ConnectionState>();
  let draining = false;
  let accepted = 0;

  server.on('connection', (socket: Socket) => {
    accepted++;
    connections.set(socket, { inFlight: new Set(), idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  // Ahead of the application's own listener, so the header is set before anything is written.
  server.prependListener('request', (req, res: ServerResponse) => {
    const state = connections.get(req.socket);
    if (draining && !res.headersSent) res.setHeader('connection', 'close');
    if (!state) return;
    state.inFlight.add(res);
    res.once('close', () => {
      state.inFlight.delete(res);
      state.idleSince = Date.now();
    });
  });

  const closeIdle = (now: number, force: boolean) => {
    let forced = 0;
    for (const [socket, state] of connections) {
      if (state.inFlight.size === 0 && (force || now - state.idleSince >= IDLE_CLOSE_MS)) {
        socket.end();
        setTimeout(() => socket.destroy(), 1_000).unref();
      } else if (force) {
        forced++;
        socket.destroy();
      }
    }
    return forced;
  };

  return {
    stats: () => ({ connections: connections.size, inFlight: [...connections.values()].reduce((n, s) => n + s.inFlight.size, 0) }),
    async drain({ delayMs, timeoutMs }) {
      draining = true;
      const deadline = Date.now() + delayMs + timeoutMs;
      // Answers already on their way but not yet begun also tell the client to close.
      for (const state of connections.values()) for (const res of state.inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      // Stop accepting. http.Server#close would also close every idle keep-alive connection at
      // once, under clients that may be sending on it; closing the listener alone leaves them to the loop below.
      // (Its callback waits for every connection to end, which is what the loop below brings about.)
      // Connections clients have made that wait in the listener's queue would be reset by the close.
      // Node takes one of them per turn of the event loop (a busy process lets them pile up): turn
      // until two turns in a row bring none (the first may end before the loop next polls). Before
      // each look at the connections too, a turn reads the requests that arrived while the process
      // was busy (a connection is idle only when none has), and idleness counts from here.
      const polled = () => new Promise((r) => setImmediate(r));
      for (let quiet = 0; quiet < 2; ) {
        const before = accepted;
        await polled();
        quiet = accepted === before ? quiet + 1 : 0;
      }
      if (server.listening) NetServer.prototype.close.call(server);
      const started = Date.now();
      for (const state of connections.values()) state.idleSince = Math.max(state.idleSince, started);
      for (;;) {
        await polled();
        const now = Date.now();
        if (connections.size === 0) return 0;
        if (now >= deadline) return closeIdle(now, true);
        closeIdle(now, false);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
