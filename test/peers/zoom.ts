// A local Zoom for tests: the OAuth server's Server-to-Server grant (POST /oauth/token with
// `grant_type=account_credentials`, the app's client id and secret as Basic credentials) and the
// REST API's meetings (POST /v2/users/{userId}/meetings, DELETE /v2/meetings/{meetingId}) with a
// Bearer token, answering as Zoom documents: `{access_token, token_type, expires_in, scope}`, a
// meeting with `id`, `join_url` and `password`, 204 on delete, and `{code, message}` errors.
import { randomBytes } from 'node:crypto';
import { type HttpPeer, type PeerAnswer, startHttpPeer } from './http-peer.ts';

export interface ZoomApp {
  accountId: string;
  clientId: string;
  clientSecret: string;
  /** Users of the account who may host meetings, by e-mail. */
  users: string[];
}

export interface ZoomMeeting {
  id: number;
  host: string;
  /** The meeting as Muster asked for it. */
  request: any;
  join_url: string;
  password: string;
}

export interface ZoomPeer extends HttpPeer {
  app: ZoomApp;
  meetings: Map<number, ZoomMeeting>;
  /** Access tokens issued so far. */
  tokens: string[];
  /** Revokes every token issued (a rotated secret): the API answers 401 to them. */
  revokeTokens(): void;
}

const refuse = (status: number, body: unknown): PeerAnswer => ({ status, body });

export async function startZoom(app: ZoomApp): Promise<ZoomPeer> {
  const meetings = new Map<number, ZoomMeeting>();
  const tokens: string[] = [];
  const valid = new Set<string>();
  let nextId = 81_000_000_000;

  const bearer = (auth: string | undefined) => {
    const token = /^Bearer (.+)$/.exec(auth ?? '')?.[1];
    if (!token || !valid.has(token)) throw refuse(401, { code: 124, message: 'Invalid access token.' });
  };

  const peer = await startHttpPeer((req, url) => {
    if (req.method === 'POST' && req.path === '/oauth/token') {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
      if (id !== app.clientId || secret !== app.clientSecret) throw refuse(401, { reason: 'Invalid client_id or client_secret', error: 'invalid_client' });
      // Zoom takes the grant's parameters from the form body or the query string.
      const param = (k: string) => req.form?.get(k) ?? req.query.get(k);
      if (param('grant_type') !== 'account_credentials') throw refuse(400, { reason: 'unsupported grant type', error: 'unsupported_grant_type' });
      if (param('account_id') !== app.accountId) throw refuse(400, { reason: 'Invalid account_id', error: 'invalid_request' });
      const token = randomBytes(16).toString('hex');
      tokens.push(token);
      valid.add(token);
      return {
        status: 200,
        body: { access_token: token, token_type: 'bearer', expires_in: 3599, scope: 'meeting:write:admin meeting:read:admin', api_url: url },
      };
    }
    const create = /^\/v2\/users\/([^/]+)\/meetings$/.exec(req.path);
    if (req.method === 'POST' && create) {
      bearer(req.headers.authorization);
      const user = decodeURIComponent(create[1]);
      const host = user === 'me' ? app.users[0] : user;
      if (!app.users.includes(host)) throw refuse(404, { code: 1001, message: `User does not exist: ${user}.` });
      const body = req.body;
      if (!body || typeof body.topic !== 'string' || ![1, 2, 3, 8, 10].includes(body.type)) throw refuse(400, { code: 300, message: 'Validation Failed.' });
      if (body.password !== undefined && !/^[a-zA-Z0-9@_*-]{1,10}$/.test(body.password)) throw refuse(400, { code: 300, message: 'Invalid password.' });
      const id = ++nextId;
      const password = body.password ?? 'zoom123';
      const meeting: ZoomMeeting = { id, host, request: body, join_url: `https://zoom.example/j/${id}?pwd=${randomBytes(8).toString('hex')}`, password };
      meetings.set(id, meeting);
      return {
        status: 201,
        body: {
          id,
          uuid: randomBytes(12).toString('base64'),
          host_email: host,
          topic: body.topic,
          type: body.type,
          start_time: body.start_time,
          duration: body.duration,
          timezone: body.timezone,
          created_at: new Date().toISOString(),
          join_url: meeting.join_url,
          start_url: `https://zoom.example/s/${id}?zak=host-only`,
          password,
          settings: body.settings ?? {},
        },
      };
    }
    const remove = /^\/v2\/meetings\/(\d+)$/.exec(req.path);
    if (req.method === 'DELETE' && remove) {
      bearer(req.headers.authorization);
      const id = Number(remove[1]);
      if (!meetings.delete(id)) throw refuse(404, { code: 3001, message: `Meeting does not exist: ${id}.` });
      return { status: 204 };
    }
    throw refuse(404, { code: 404, message: 'Not found' });
  });
  return { ...peer, app, meetings, tokens, revokeTokens: () => valid.clear() };
}
