// What the local vendor peers (Zoom, Microsoft Graph) share: an HTTP server on a free loopback
// port that records every request it is sent (method, path, query, headers, body) and can be told
// to answer the next requests of a route with a failure (a status, a Retry-After, or no answer).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PeerRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The body as sent; `json` when it parses as JSON, `form` when form-encoded. */
  text: string;
  json?: any;
  form?: URLSearchParams;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface PeerAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A failure to answer with: a status (and its body and headers), or `hang` (no answer at all). */
export type PeerFailure = PeerAnswer | 'hang';

export interface HttpPeer {
  url: string;
  received: PeerRequest[];
  /** Answers the next `times` requests whose `METHOD path` matches with the failure. */
  fail(route: RegExp, failure: PeerFailure, times?: number): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

function parsed(req: IncomingMessage, text: string): PeerRequest {
  const url = new URL(req.url ?? '/', 'http://peer');
  const out: PeerRequest = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, text, at: Date.now() };
  const type = req.headers['content-type'] ?? '';
  if (text && type.includes('application/json')) out.json = JSON.parse(text);
  if (type.includes('application/x-www-form-urlencoded')) out.form = new URLSearchParams(text);
  return out;
}

function send(res: ServerResponse, answer: PeerAnswer) {
  const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
  res.writeHead(answer.status, { ...(body ? { 'content-type': 'application/json' } : {}), ...answer.headers }).end(body);
}

/** Starts a peer whose `route` answers each request it did not fail; a thrown PeerAnswer is sent as it is. */
export function startHttpPeer(route: (req: PeerRequest, peerUrl: string) => PeerAnswer): Promise<HttpPeer> {
  const received: PeerRequest[] = [];
  const failures: { route: RegExp; failure: PeerFailure; times: number }[] = [];
  const hanging = new Set<ServerResponse>();
  let url = '';
  const server = createServer(async (req, res) => {
    const request = parsed(req, await readBody(req));
    received.push(request);
    const failing = failures.find((f) => f.times > 0 && f.route.test(`${request.method} ${request.path}`));
    if (failing) {
      failing.times--;
      if (failing.failure === 'hang') return void hanging.add(res);
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
        received,
        fail: (r, failure, times = 1) => void failures.push({ route: r, failure, times }),
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
