// Responses whose JSON text PostgreSQL has written (crud/document.ts): a route returns a JsonText
// and Muster sends the text as it is, instead of parsing it and serializing the object again.
//
// The route's response shape stays the contract: with `check` (the test suite sets
// MUSTER_CHECK_RESPONSES) every such text is parsed and serialized by the route's serializer, and
// anything but the same bytes fails the request, so the suite proves the text is what the
// serializer would have written.
import type { FastifyInstance } from 'fastify';

export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * The response `text` writes, typed as the object it is the text of (`T`, the route's response
 * type), so a route returns either alike; the serializer never sees it (installJsonText).
 */
export const jsonText = <T>(text: string): T => new JsonText(text) as unknown as T;

const asIs = (payload: JsonText) => payload.text;

export function installJsonText(app: FastifyInstance, opts: { check: boolean }) {
  app.addHook('preSerialization', async (_request, reply, payload) => {
    if (!(payload instanceof JsonText)) return payload;
    if (opts.check) {
      const serialized = reply.serialize(JSON.parse(payload.text));
      if (serialized !== payload.text) throw new Error(`response text differs from its serialization:\n${payload.text}\n${serialized}`);
    }
    reply.serializer(asIs);
    return payload;
  });
}
