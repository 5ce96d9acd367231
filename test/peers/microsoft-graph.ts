// A local Microsoft identity platform and Microsoft Graph for tests: the tenant's token endpoint
// (POST /{tenant}/oauth2/v2.0/token, the client-credentials grant with the client secret in the
// form body, as MSAL sends it) and Graph's online meetings (POST and DELETE under
// /v1.0/users/{userId}/onlineMeetings) with a Bearer token, answering as Microsoft documents: a
// token `{token_type, expires_in, access_token}`, OAuth errors with AADSTS codes, an onlineMeeting
// with `id`, `joinWebUrl` and `joinMeetingIdSettings`, 204 on delete, and `{error: {code, message}}`.
import { randomBytes, randomInt } from 'node:crypto';
import { type HttpPeer, type PeerAnswer, startHttpPeer } from './http-peer.ts';

export interface EntraApp {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** Users whose meetings the application access policy lets the app organize, by UPN. */
  organizers: string[];
  /** Whether an administrator consented to OnlineMeetings.ReadWrite.All. */
  consented: boolean;
}

export interface OnlineMeeting {
  id: string;
  organizer: string;
  /** The meeting as Muster asked for it. */
  request: any;
  joinWebUrl: string;
  joinMeetingId: string;
  passcode: string;
}

export interface GraphPeer extends HttpPeer {
  app: EntraApp;
  meetings: Map<string, OnlineMeeting>;
  tokens: string[];
  revokeTokens(): void;
}

const graphError = (status: number, code: string, message: string): PeerAnswer => ({
  status,
  body: { error: { code, message, innerError: { date: new Date().toISOString(), 'request-id': randomBytes(8).toString('hex') } } },
});

const oauthError = (status: number, error: string, code: number, description: string): PeerAnswer => ({
  status,
  body: { error, error_description: `AADSTS${code}: ${description}\r\nTrace ID: ${randomBytes(8).toString('hex')}`, error_codes: [code] },
});

export async function startMicrosoftGraph(app: EntraApp): Promise<GraphPeer> {
  const meetings = new Map<string, OnlineMeeting>();
  const tokens: string[] = [];
  const valid = new Set<string>();

  const bearer = (auth: string | undefined) => {
    const token = /^Bearer (.+)$/.exec(auth ?? '')?.[1];
    if (!token || !valid.has(token)) throw graphError(401, 'InvalidAuthenticationToken', 'Access token validation failure. Invalid audience.');
  };
  const organizerOf = (id: string) => {
    const user = decodeURIComponent(id);
    if (!app.consented) throw graphError(403, 'Forbidden', 'Insufficient privileges to complete the operation.');
    if (!app.organizers.includes(user)) throw graphError(403, 'Forbidden', 'No application access policy found for this app.');
    return user;
  };

  const peer = await startHttpPeer((req) => {
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(req.path);
    if (req.method === 'POST' && token) {
      if (decodeURIComponent(token[1]) !== app.tenantId) throw oauthError(400, 'invalid_request', 90002, `Tenant '${token[1]}' not found.`);
      const form = req.form ?? new URLSearchParams();
      if (form.get('grant_type') !== 'client_credentials')
        throw oauthError(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
      if (form.get('client_id') !== app.clientId)
        throw oauthError(400, 'unauthorized_client', 700016, `Application with identifier '${form.get('client_id')}' was not found in the directory.`);
      if (form.get('client_secret') !== app.clientSecret) throw oauthError(401, 'invalid_client', 7000215, 'Invalid client secret provided.');
      if (form.get('scope') !== 'https://graph.microsoft.com/.default')
        throw oauthError(400, 'invalid_scope', 1002012, 'The provided value for scope is not valid.');
      const issued = randomBytes(16).toString('hex');
      tokens.push(issued);
      valid.add(issued);
      return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: issued } };
    }
    const list = /^\/v1\.0\/users\/([^/]+)\/onlineMeetings$/.exec(req.path);
    if (req.method === 'POST' && list) {
      bearer(req.headers.authorization);
      const organizer = organizerOf(list[1]);
      const body = req.body;
      if (!body || Number.isNaN(Date.parse(body.startDateTime)) || Number.isNaN(Date.parse(body.endDateTime)))
        throw graphError(400, 'BadRequest', 'Invalid meeting start or end time.');
      const id = `MSo${randomBytes(18).toString('base64url')}`;
      const meeting: OnlineMeeting = {
        id,
        organizer,
        request: body,
        joinWebUrl: `https://teams.example/l/meetup-join/19%3ameeting_${randomBytes(8).toString('hex')}%40thread.v2/0`,
        joinMeetingId: String(randomInt(1e11, 1e12)),
        passcode: randomBytes(4).toString('hex'),
      };
      meetings.set(id, meeting);
      return {
        status: 201,
        body: {
          '@odata.context': "https://graph.microsoft.com/v1.0/$metadata#users('...')/onlineMeetings/$entity",
          id,
          creationDateTime: new Date().toISOString(),
          startDateTime: body.startDateTime,
          endDateTime: body.endDateTime,
          joinWebUrl: meeting.joinWebUrl,
          subject: body.subject ?? null,
          participants: { organizer: { upn: organizer, role: 'presenter' }, attendees: body.participants?.attendees ?? [] },
          joinMeetingIdSettings: { isPasscodeRequired: false, joinMeetingId: meeting.joinMeetingId, passcode: meeting.passcode },
        },
      };
    }
    const one = /^\/v1\.0\/users\/([^/]+)\/onlineMeetings\/([^/]+)$/.exec(req.path);
    if (req.method === 'DELETE' && one) {
      bearer(req.headers.authorization);
      organizerOf(one[1]);
      if (!meetings.delete(decodeURIComponent(one[2]))) throw graphError(404, 'NotFound', 'The specified meeting was not found.');
      return { status: 204 };
    }
    throw graphError(404, 'UnknownError', `No route for ${req.method} ${req.path}`);
  });
  return { ...peer, app, meetings, tokens, revokeTokens: () => valid.clear() };
}
