// What the local vendor peers share: an HTTP server on a free loopback port that records every
// request it is sent (method, path, query, headers, body, when) and answers through the vendor's
// route, unless told to fail the requests of a route: with a status (its body and headers, e.g. a
// Retry-After), `drop` (the connection closed without an answer) or `hang` (no answer at all).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PeerRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The body as sent. */
  text: string;
  /** The body as JSON when it parses, else its text (null when empty). */
  body: any;
  /** The body's fields when it is form-encoded. */
  form?: URLSearchParams;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface PeerAnswer {
  status: number;
  /** JSON, or a string sent as it is (give its content-type in `headers`). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A failure to answer with: a status (and its body and headers), `drop` (close the connection) or `hang` (never answer). */
export type PeerFailure = PeerAnswer | 'drop' | 'hang';

export interface HttpPeer {
  url: string;
  requests: PeerRequest[];
  /** Answers the next `times` requests whose `METHOD path` matches with the failure (Infinity: until cleared). */
  fail(route: RegExp, failure: PeerFailure, times?: number): void;
  /** Forgets the failures still to come. */
  clearFailures(): void;
  close(): Promise<void>;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): PeerAnswer => ({ status, body, headers });

/** The whole body of a request, as text. */
export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

function parsed(req: IncomingMessage, text: string): PeerRequest {
  const url = new URL(req.url ?? '/', 'http://peer');
  let body: unknown = text || null;
  try {
    if (text) body = JSON.parse(text);
  } catch {}
  const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded') ? new URLSearchParams(text) : undefined;
  return { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, text, body, form, at: Date.now() };
}

function send(res: ServerResponse, answer: PeerAnswer) {
  const text = answer.body === undefined || answer.status === 204 ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, { ...(text ? { 'content-type': 'application/json' } : {}), ...answer.headers }).end(text);
}

/** Starts a peer whose `route` answers each request it did not fail; a thrown PeerAnswer is sent as it is. */
export function startHttpPeer(route: (req: PeerRequest, peerUrl: string) => PeerAnswer): Promise<HttpPeer> {
  const requests: PeerRequest[] = [];
  const failures: { route: RegExp; failure: PeerFailure; times: number }[] = [];
  const hanging = new Set<ServerResponse>();
  let url = '';
  const server = createServer(async (req, res) => {
    const request = parsed(req, await readBody(req));
    requests.push(request);
    const failing = failures.find((f) => f.times > 0 && f.route.test(`${request.method} ${request.path}`));
    if (failing) {
      failing.times--;
      if (failing.failure === 'hang') return void hanging.add(res);
      if (failing.failure === 'drop') return void req.socket.destroy();
      return send(res, failing.failure);
    }
    try {
      send(res, route(request, url));
    } catch (thrown) {
      if (thrown && typeof thrown === 'object' && 'status' in thrown) send(res, thrown as PeerAnswer);
      else send(res, { status: 500, body: { error: String(thrown) } });
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        url,
        requests,
        fail: (r, failure, times = 1) => void failures.push({ route: r, failure, times }),
        clearFailures: () => void failures.splice(0),
        close: () =>
          new Promise<void>((done) => {
            for (const res of hanging) res.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}
