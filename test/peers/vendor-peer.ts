// A local HTTP peer standing in for an on-call vendor's API: it records every request (method, path, query,
// headers, body) and answers through the vendor's handler, unless told to fail: a status (with
// headers, e.g. Retry-After) for every request or the next `times`, or `drop`: the connection is
// closed without an answer, as a vendor that does not answer.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PeerRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as JSON when it is JSON, else its text (or null when empty). */
  body: any;
}

export interface Failure {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Close the connection without answering. */
  drop?: boolean;
  /** How many requests fail (default: all until cleared); counts down. */
  times?: number;
  /** Only requests whose path starts with this fail. */
  path?: string;
}

export interface HttpPeer {
  url: string;
  requests: PeerRequest[];
  failure: Failure | null;
  close(): Promise<void>;
}

export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
export type Handler = (req: PeerRequest) => Answer;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({ status, body, headers });

function parse(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(res: ServerResponse, answer: Answer) {
  const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  if (answer.status === 204) return res.writeHead(204, answer.headers).end();
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(text);
}

export async function startHttpPeer(handle: Handler): Promise<HttpPeer> {
  const peer = { requests: [] as PeerRequest[], failure: null as Failure | null } as HttpPeer;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      const request: PeerRequest = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: parse(text) };
      peer.requests.push(request);
      const f = peer.failure;
      if (f && (!f.path || request.path.startsWith(f.path))) {
        if (f.times !== undefined && --f.times <= 0) peer.failure = null;
        if (f.drop) return req.socket.destroy();
        return send(res, { status: f.status ?? 500, body: f.body ?? { error: 'failing' }, headers: f.headers });
      }
      send(res, handle(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return peer;
}
