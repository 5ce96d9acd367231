// The four endpoints Slack calls (`POST /{organization}/events/slack/{event,command,action,menu}`).
// No user token: a request is Slack's when one of the organization's enabled Slack instances signed
// it (request.ts); anything else is 403 and does nothing. Bodies are kept as the bytes Slack sent,
// since the signature covers exactly those, and read only after it is checked.
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { App } from '../server/routing.ts';
import { action, command, event, menu } from './handlers.ts';
import { type ChatEnv, type RawRequest, signedBy, type SlackInstance } from './request.ts';

type Handler = (env: ChatEnv, signed: SlackInstance, req: RawRequest) => Promise<unknown>;

const ENDPOINTS: [string, Handler, string][] = [
  ['event', event, 'Handle all incoming Slack events.'],
  ['command', command, 'Handle all incoming Slack commands.'],
  ['action', action, 'Handle all incoming Slack actions.'],
  ['menu', menu, 'Handle all incoming Slack actions.'],
];

const EMPTY = Buffer.alloc(0);
// Any text, as the contract has it: an organization that does not exist is refused like a wrong signature.
const Params = Type.Object({ organization: Type.String() });

export default async function chatRoutes(app: App) {
  // Encapsulated: only these routes read bodies as bytes, whatever their type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, { raw: body }));
  const env: ChatEnv = { db: app.muster.db, settings: app.muster.settings };

  for (const [name, handle, description] of ENDPOINTS) {
    app.post(
      `/:organization/events/slack/${name}`,
      { schema: { tags: ['events'], description, params: Params, response: { 200: Type.Unknown() } }, config: { auth: false } },
      async (req: FastifyRequest<{ Params: { organization: string } }>, reply) => {
        const request: RawRequest = {
          organization: req.params.organization,
          headers: req.headers,
          contentType: req.headers['content-type'],
          raw: (req.body as { raw?: Buffer } | undefined)?.raw ?? EMPTY,
        };
        const answer = await handle(env, await signedBy(env, request), request);
        // Slack reads nothing from the answer to a button or a closed modal: an empty 200.
        return answer === null ? reply.send() : answer;
      },
    );
  }
}
