// Every request's id: the one a proxy in front already gave it (X-Request-Id), when it looks like
// an id, else a new UUID. It names the request's log lines, those of the jobs it enqueues, and
// comes back in the answer's X-Request-Id header.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ID.test(given) ? given : randomUUID();
}
