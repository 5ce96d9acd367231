// Conditional GETs for the API: every 200 answer to a GET carries a weak ETag of its bytes, and a
// request whose If-None-Match names it is answered 304 with no body. Clients that poll for changes
// (the web UI's tables and record pages) then cost the network nothing while nothing changed, and
// this works on every node behind a load balancer, as the tag is a function of the answer alone.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const etagOf = (body: string | Buffer) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

/** Whether an If-None-Match header names `etag` (weak comparison, `*`, or a list). */
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
    const etag = etagOf(payload);
    reply.header('etag', etag);
    // Revalidate on every use: a cached answer is reused only after the server says it still holds.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
    if (!matches(request.headers['if-none-match'], etag)) return payload;
    reply.code(304);
    reply.removeHeader('content-length');
    reply.removeHeader('content-type');
    return '';
  });
}
