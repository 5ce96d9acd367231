// Meetings on a Jitsi Meet server (self-hosted, or meet.jit.si by default): a room per incident,
// made by naming it (Jitsi opens a room when its first person arrives). With an app secret, the
// link carries a signed room token in Jitsi's format (HS256; aud/iss/sub/room/exp/context.user),
// as a server with token authentication requires.
import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { SignJWT } from 'jose';
import { text } from './configuration-text.ts';
import { authoredByMuster } from './authored.ts';
import type { Configuration, ConferencePlugin, Subject } from '../types.ts';

/** How long a room token is good for: a week covers most incidents; a new link is one request away. */
const TOKEN_SECONDS = 7 * 24 * 3600;

/** A room name Jitsi accepts and nobody guesses: the record's name and random letters. */
const roomOf = (subject: Subject) =>
  `${(subject.name ?? `${subject.kind}-${subject.id}`).toLowerCase().replace(/[^a-z0-9-]+/g, '-')}-${randomBytes(6).toString('hex')}`;

/** Jitsi's room token: `sub` is the server's domain, `room` the room (or `*`). */
export async function roomToken(config: Configuration, room: string, user: { email: string; name?: string | null }, now = Date.now()) {
  const secret = text(config, 'app_secret');
  if (!secret) return undefined;
  const appId = text(config, 'app_id') ?? 'muster';
  return new SignJWT({ room, context: { user: { email: user.email, name: user.name ?? user.email } } })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(appId)
    .setIssuer(appId)
    .setSubject(new URL(baseUrl(config)).hostname)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + TOKEN_SECONDS)
    .sign(new TextEncoder().encode(secret));
}

const baseUrl = (config: Configuration) => (text(config, 'base_url') ?? 'https://meet.jit.si').replace(/\/+$/, '');

export const jitsiPlugin: ConferencePlugin = {
  slug: 'muster-jitsi-conference',
  title: 'Muster Plugin - Jitsi Meet',
  type: 'conference',
  ...authoredByMuster,
  description: 'Opens a Jitsi Meet room for each incident and links it from the incident and its chat channel.',
  enabledByDefault: true,
  configuration: Type.Object(
    {
      base_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', description: 'The Jitsi Meet server (default https://meet.jit.si)' })),
      app_id: Type.Optional(Type.String({ minLength: 1, description: 'Application id of token authentication (aud and iss of room tokens)' })),
      app_secret: Type.Optional(
        Type.String({ minLength: 1, writeOnly: true, description: 'Shared secret of token authentication: room links carry a signed token' }),
      ),
    },
    { additionalProperties: false },
  ),
  async create(subject, _participants, config) {
    const room = roomOf(subject);
    const link = `${baseUrl(config)}/${room}`;
    const token = await roomToken(config, room, { email: subject.owner ?? subject.reporter ?? 'muster', name: null });
    return {
      resource_id: room,
      resource_type: 'muster-jitsi-room',
      weblink: token ? `${link}?jwt=${token}` : link,
      conference_id: room,
      conference_challenge: null,
    };
  },
  // Jitsi keeps no room once everybody has left: there is nothing to delete.
  delete() {},
};
