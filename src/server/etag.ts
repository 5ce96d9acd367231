// Conditional GETs for the API: every 200 answer to a GET carries a weak ETag of its bytes, and a
// request whose If-None-Match names it is answered 304 with no body. Clients that poll for changes
// (the web UI's tables and record pages) then cost the network nothing while nothing changed, and
// this works on every node behind a load balancer, as the tag is a function of the answer alone.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../db/connection.ts';
import type { Ctx } from './context.ts';
import { errors } from './errors.ts';

export const etagOf = (body: string | Buffer) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

/** Whether an If-None-Match or If-Match header names `etag` (weak comparison, `*`, or a list). */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

export function installEtags(app: FastifyInstance, prefix: string) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || !request.url.startsWith(prefix)) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // Encoded once: the hash and the socket then read the same bytes (a dashboard answer is megabytes).
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
    // An answer kept with its tag (list/kept-answers.ts) brings it: the same hash of the same bytes.
    const given = reply.getHeader('etag');
    const etag = typeof given === 'string' ? given : etagOf(bytes);
    reply.header('etag', etag);
    // Revalidate on every use: a cached answer is reused only after the server says it still holds.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
    if (!matches(request.headers['if-none-match'], etag)) return bytes;
    reply.code(304);
    reply.removeHeader('content-length');
    reply.removeHeader('content-type');
    return '';
  });
}

/**
 * Optimistic concurrency for a record's PUT (beyond 0.1.0): a request carrying If-Match is applied only
 * while the record still reads as the tag the client saw (its GET's ETag); otherwise 412, and the
 * client shows the other person's change instead of overwriting it. Without If-Match nothing changes,
 * as Dispatch's clients expect. The check is the request's `precondition`, which the update runs in
 * its transaction with the record locked (lifecycle's beginUpdate), so two saves from one tag cannot
 * both pass. The current record is serialized with the route's own 200 shape, the same bytes its GET
 * tags. The answer carries the new record's tag, so the next save needs no GET.
 */
export function ifMatch(current: (ctx: Ctx, request: FastifyRequest) => Promise<unknown>) {
  return {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const header = request.headers['if-match'];
      if (!header) return;
      request.ctx.precondition = async (db: Executor) => {
        const etag = etagOf(reply.serialize(await current({ ...request.ctx, db }, request)) as string);
        if (!matches(header, etag)) throw errors.preconditionFailed();
      };
    },
    onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload))) reply.header('etag', etagOf(payload));
      return payload;
    },
  };
}
