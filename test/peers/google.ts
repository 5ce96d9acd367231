// A local Google Workspace for tests: an HTTP server speaking what Muster's Google plugins call.
// The OAuth 2.0 token endpoint takes the JWT-bearer grant of a service account with domain-wide
// delegation and checks its assertion as Google does (an RS256 JWT signed by the account's key, its
// `iss`, `sub`, `aud` and `scope`); the Drive v3, Docs v1, Admin SDK Directory v1 and Calendar v3
// endpoints answer with Google's documented shapes, accept only the tokens it issued for their
// scope, and keep what they made. Every API request is recorded; the next ones can be made to fail.
import { generateKeyPairSync, type KeyObject, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The `aud` Google requires of a service account's assertion: its token endpoint. */
const GOOGLE_TOKEN_AUD = 'https://oauth2.googleapis.com/token';

/** The scope each API's paths need (any of them), as Google's docs list them. */
const API_SCOPES: [RegExp, string[]][] = [
  [/^\/(upload\/)?drive\/v3\//, ['https://www.googleapis.com/auth/drive']],
  [/^\/v1\/documents\//, ['https://www.googleapis.com/auth/documents', 'https://www.googleapis.com/auth/drive']],
  [/^\/admin\/directory\/v1\/groups/, ['https://www.googleapis.com/auth/admin.directory.group']],
  [/^\/calendar\/v3\//, ['https://www.googleapis.com/auth/calendar', 'https://www.googleapis.com/auth/calendar.events']],
];

export interface GoogleRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  /** The uploaded bytes of a multipart upload, as text. */
  media?: string;
  /** The Workspace user the request's token acts as. */
  subject: string;
  /** When it came (ms since the epoch). */
  at: number;
  /** The status it was failed with, when `failures` told the peer to fail it. */
  failedWith?: number;
}

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  text: string;
  permissions: { id: string; type: string; role: string; emailAddress?: string }[];
  contentRestrictions: { readOnly: boolean; reason?: string }[];
}

export interface GoogleGroup {
  id: string;
  email: string;
  name: string;
  description: string;
  members: { email: string; role: string }[];
}

export interface GoogleEvent {
  id: string;
  body: any;
}

export interface GooglePeer {
  url: string;
  /** The service account's JSON key, as Google gives it, its token_uri this peer's. */
  key: string;
  requests: GoogleRequest[];
  /** Token requests: the assertion's claims, checked. */
  grants: { sub: string; scope: string }[];
  files: Map<string, DriveFile>;
  groups: Map<string, GoogleGroup>;
  events: Map<string, GoogleEvent>;
  /** The Workspace user the key may act as; other subjects are refused (`unauthorized_client`). */
  delegatedTo: string;
  /** The next API requests answer these (status, headers), one each; token requests are never failed. */
  failures: { status: number; headers?: Record<string, string> }[];
  /** Whether the token endpoint refuses every grant as a deleted key (`invalid_grant`). */
  keyRevoked: boolean;
  close(): Promise<void>;
}

const b64url = (s: string) => Buffer.from(s, 'base64url');

async function read(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A multipart/related upload's parts (Drive's `uploadType=multipart`): metadata JSON, then the media. */
function multipart(body: Buffer, contentType: string): { metadata: any; media: string } {
  const boundary = /boundary=([^;]+)/.exec(contentType)?.[1];
  if (!boundary) throw new Error('no boundary');
  const parts = body
    .toString('utf8')
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((p) => p.slice(p.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, ''));
  return { metadata: JSON.parse(parts[0]), media: parts[1] ?? '' };
}

/** Google's error body: `{error: {code, message, status, errors: [{reason}]}}`. */
const apiError = (res: ServerResponse, code: number, reason: string, message: string, headers: Record<string, string> = {}) =>
  res
    .writeHead(code, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ error: { code, message, status: reason.toUpperCase(), errors: [{ reason, message, domain: 'global' }] } }));

const json = (res: ServerResponse, body: unknown, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

export async function startGooglePeer(opts: { delegatedTo: string }): Promise<GooglePeer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = 'muster@muster-test.iam.gserviceaccount.com';
  const tokens = new Map<string, { sub: string; scopes: string[] }>();
  let next = 0;
  const id = (prefix: string) => `${prefix}${++next}`;

  const peer = {
    requests: [],
    grants: [],
    files: new Map(),
    groups: new Map(),
    events: new Map(),
    delegatedTo: opts.delegatedTo,
    failures: [],
    keyRevoked: false,
  } as unknown as GooglePeer;

  function token(res: ServerResponse, body: Buffer, key: KeyObject) {
    const form = new URLSearchParams(body.toString());
    const refuse = (status: number, error: string, error_description: string) => json(res, { error, error_description }, status);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse(400, 'unsupported_grant_type', 'Invalid grant_type');
    const [h, p, s] = (form.get('assertion') ?? '').split('.');
    if (!h || !p || !s) return refuse(400, 'invalid_request', 'Invalid JWT');
    const header = JSON.parse(b64url(h).toString());
    if (header.alg !== 'RS256' || !verify('RSA-SHA256', Buffer.from(`${h}.${p}`), key, b64url(s)) || peer.keyRevoked)
      return refuse(400, 'invalid_grant', 'Invalid JWT Signature.');
    const claims = JSON.parse(b64url(p).toString());
    const now = Date.now() / 1000;
    if (claims.iss !== clientEmail || claims.aud !== GOOGLE_TOKEN_AUD || !(claims.exp > now) || !(claims.iat <= now + 60))
      return refuse(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe');
    if (claims.sub !== peer.delegatedTo)
      return refuse(
        401,
        'unauthorized_client',
        'Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.',
      );
    peer.grants.push({ sub: claims.sub, scope: claims.scope });
    const access = `ya29.${randomBytes(12).toString('hex')}`;
    tokens.set(access, { sub: claims.sub, scopes: String(claims.scope).split(' ') });
    json(res, { access_token: access, expires_in: 3599, token_type: 'Bearer' });
  }

  function drive(req: IncomingMessage, res: ServerResponse, path: string, body: any) {
    let m: RegExpExecArray | null;
    const fileOf = (fileId: string) => peer.files.get(fileId);
    const view = (f: DriveFile) => ({
      kind: 'drive#file',
      id: f.id,
      name: f.name,
      mimeType: f.mimeType,
      webViewLink:
        f.mimeType === 'application/vnd.google-apps.folder'
          ? `https://drive.google.com/drive/folders/${f.id}`
          : `https://docs.google.com/document/d/${f.id}/edit`,
    });
    if (req.method === 'POST' && (path === '/drive/v3/files' || path === '/upload/drive/v3/files')) {
      const f: DriveFile = {
        id: id('file-'),
        name: body.name,
        mimeType: body.mimeType ?? 'application/octet-stream',
        parents: body.parents ?? [],
        text: body.__media ?? '',
        permissions: [{ id: id('perm-'), type: 'user', role: 'owner', emailAddress: peer.delegatedTo }],
        contentRestrictions: [],
      };
      peer.files.set(f.id, f);
      return json(res, view(f));
    }
    if ((m = /^\/drive\/v3\/files\/([^/]+)\/copy$/.exec(path)) && req.method === 'POST') {
      const source = fileOf(m[1]);
      if (!source) return apiError(res, 404, 'notFound', `File not found: ${m[1]}.`);
      const f: DriveFile = {
        ...source,
        id: id('file-'),
        name: body.name ?? `Copy of ${source.name}`,
        parents: body.parents ?? [],
        permissions: [
          { id: id('perm-'), type: 'user', role: 'owner', emailAddress: peer.delegatedTo },
          { id: id('perm-'), type: 'domain', role: 'writer' },
        ],
        contentRestrictions: [],
      };
      peer.files.set(f.id, f);
      return json(res, view(f));
    }
    if ((m = /^\/drive\/v3\/files\/([^/]+)\/permissions(?:\/([^/]+))?$/.exec(path))) {
      const f = fileOf(m[1]);
      if (!f) return apiError(res, 404, 'notFound', `File not found: ${m[1]}.`);
      if (req.method === 'GET') return json(res, { kind: 'drive#permissionList', permissions: f.permissions });
      if (req.method === 'POST') {
        // As Drive: a user's permission has the user's own id, and sharing again makes no second one.
        const email = String(body.emailAddress ?? '').toLowerCase();
        const had = f.permissions.find((x) => x.type === 'user' && x.emailAddress === email);
        if (had) return json(res, { kind: 'drive#permission', ...had });
        const p = { id: `user-${email}`, type: body.type, role: body.role, emailAddress: email };
        f.permissions.push(p);
        return json(res, { kind: 'drive#permission', ...p });
      }
      const p = f.permissions.find((x) => x.id === decodeURIComponent(m![2]));
      if (!p) return apiError(res, 404, 'notFound', `Permission not found: ${m[2]}.`);
      if (req.method === 'DELETE') {
        f.permissions = f.permissions.filter((x) => x !== p);
        return res.writeHead(204).end();
      }
      if (req.method === 'PATCH') {
        Object.assign(p, { role: body.role });
        return json(res, { kind: 'drive#permission', ...p });
      }
    }
    if ((m = /^\/drive\/v3\/files\/([^/]+)$/.exec(path))) {
      const f = fileOf(m[1]);
      if (!f) return apiError(res, 404, 'notFound', `File not found: ${m[1]}.`);
      if (req.method === 'GET') return json(res, view(f));
      if (req.method === 'PATCH') {
        if (body.contentRestrictions) f.contentRestrictions = body.contentRestrictions;
        return json(res, view(f));
      }
      if (req.method === 'DELETE') {
        peer.files.delete(f.id);
        return res.writeHead(204).end();
      }
    }
    return apiError(res, 404, 'notFound', `No such method: ${req.method} ${path}`);
  }

  function docs(req: IncomingMessage, res: ServerResponse, path: string, body: any) {
    const m = /^\/v1\/documents\/([^/:]+):batchUpdate$/.exec(path);
    const f = m && peer.files.get(m[1]);
    if (!m || req.method !== 'POST') return apiError(res, 404, 'notFound', 'Requested entity was not found.');
    if (!f) return apiError(res, 404, 'notFound', 'Requested entity was not found.');
    if (f.contentRestrictions.some((r) => r.readOnly)) return apiError(res, 403, 'forbidden', 'The document is read-only.');
    const replies = (body.requests ?? []).map((r: any) => {
      const { containsText, replaceText } = r.replaceAllText;
      const parts = f.text.split(containsText.text);
      f.text = parts.join(replaceText);
      return { replaceAllText: { occurrencesChanged: parts.length - 1 } };
    });
    json(res, { documentId: f.id, replies, writeControl: { requiredRevisionId: id('rev-') } });
  }

  function directory(req: IncomingMessage, res: ServerResponse, path: string, body: any) {
    let m: RegExpExecArray | null;
    const groupOf = (key: string) => peer.groups.get(key) ?? [...peer.groups.values()].find((g) => g.email === decodeURIComponent(key));
    const view = (g: GoogleGroup) => ({
      kind: 'admin#directory#group',
      id: g.id,
      email: g.email,
      name: g.name,
      description: g.description,
      directMembersCount: String(g.members.length),
    });
    if (path === '/admin/directory/v1/groups' && req.method === 'POST') {
      if (groupOf(body.email)) return apiError(res, 409, 'duplicate', 'Entity already exists.');
      const g: GoogleGroup = { id: id('group-'), email: body.email, name: body.name ?? '', description: body.description ?? '', members: [] };
      peer.groups.set(g.id, g);
      return json(res, view(g));
    }
    if ((m = /^\/admin\/directory\/v1\/groups\/([^/]+)$/.exec(path)) && req.method === 'GET') {
      const g = groupOf(m[1]);
      return g ? json(res, view(g)) : apiError(res, 404, 'notFound', 'Resource Not Found: groupKey');
    }
    if ((m = /^\/admin\/directory\/v1\/groups\/([^/]+)\/members(?:\/([^/]+))?$/.exec(path))) {
      const g = groupOf(m[1]);
      if (!g) return apiError(res, 404, 'notFound', 'Resource Not Found: groupKey');
      if (req.method === 'GET')
        return json(res, { kind: 'admin#directory#members', members: g.members.map((x) => ({ kind: 'admin#directory#member', ...x })) });
      if (req.method === 'POST') {
        if (g.members.some((x) => x.email === body.email)) return apiError(res, 409, 'duplicate', 'Member already exists.');
        g.members.push({ email: body.email, role: body.role ?? 'MEMBER' });
        return json(res, { kind: 'admin#directory#member', email: body.email, role: body.role ?? 'MEMBER' });
      }
      if (req.method === 'DELETE') {
        const key = decodeURIComponent(m[2] ?? '');
        if (!g.members.some((x) => x.email === key)) return apiError(res, 404, 'notFound', 'Resource Not Found: memberKey');
        g.members = g.members.filter((x) => x.email !== key);
        return res.writeHead(204).end();
      }
    }
    return apiError(res, 404, 'notFound', `No such method: ${req.method} ${path}`);
  }

  function calendar(req: IncomingMessage, res: ServerResponse, path: string, q: Record<string, string>, body: any) {
    let m: RegExpExecArray | null;
    if ((m = /^\/calendar\/v3\/calendars\/([^/]+)\/events$/.exec(path)) && req.method === 'POST') {
      if (body.id && peer.events.has(body.id)) return apiError(res, 409, 'duplicate', 'The requested identifier already exists.');
      const eventId = body.id ?? id('event');
      const meet = q.conferenceDataVersion === '1' && body.conferenceData?.createRequest?.conferenceSolutionKey?.type === 'hangoutsMeet';
      const code = `abc-${eventId.slice(-4)}-xyz`;
      const event = {
        kind: 'calendar#event',
        ...body,
        id: eventId,
        status: 'confirmed',
        htmlLink: `https://www.google.com/calendar/event?eid=${eventId}`,
        ...(meet
          ? {
              hangoutLink: `https://meet.google.com/${code}`,
              conferenceData: {
                createRequest: { ...body.conferenceData.createRequest, status: { statusCode: 'success' } },
                entryPoints: [{ entryPointType: 'video', uri: `https://meet.google.com/${code}`, label: `meet.google.com/${code}` }],
                conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet' },
                conferenceId: code,
              },
            }
          : {}),
      };
      peer.events.set(eventId, { id: eventId, body: event });
      return json(res, event);
    }
    if ((m = /^\/calendar\/v3\/calendars\/([^/]+)\/events\/([^/]+)$/.exec(path))) {
      const event = peer.events.get(m[2]);
      if (!event) return apiError(res, 404, 'notFound', 'Not Found');
      if (req.method === 'GET') return json(res, event.body);
      if (req.method === 'DELETE') {
        if (event.body.status === 'cancelled') return apiError(res, 410, 'deleted', 'Resource has been deleted');
        event.body.status = 'cancelled';
        return res.writeHead(204).end();
      }
    }
    return apiError(res, 404, 'notFound', `No such method: ${req.method} ${path}`);
  }

  const key = publicKey;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    const raw = await read(req);
    try {
      if (url.pathname === '/token' && req.method === 'POST') return token(res, raw, key);
      const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const grant = auth ? tokens.get(auth) : undefined;
      if (!grant)
        return apiError(res, 401, 'authError', 'Request had invalid authentication credentials.', {
          'www-authenticate': 'Bearer realm="https://accounts.google.com/"',
        });
      const needs = API_SCOPES.find(([re]) => re.test(url.pathname))?.[1] ?? [];
      if (!needs.some((s) => grant.scopes.includes(s))) return apiError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
      const contentType = req.headers['content-type'] ?? '';
      let body: any = {};
      let media: string | undefined;
      if (contentType.startsWith('multipart/related')) {
        const parts = multipart(raw, contentType);
        media = parts.media;
        body = { ...parts.metadata, __media: media };
      } else if (raw.length) body = JSON.parse(raw.toString());
      const query = Object.fromEntries(url.searchParams);
      const { __media: _, ...recorded } = body;
      peer.requests.push({ method: req.method ?? '', path: url.pathname, query, body: recorded, media, subject: grant.sub, at: Date.now() });
      const failure = peer.failures.shift();
      if (failure) peer.requests[peer.requests.length - 1].failedWith = failure.status;
      if (failure) return apiError(res, failure.status, failure.status === 429 ? 'rateLimitExceeded' : 'backendError', 'Failing as told.', failure.headers);
      if (/^\/(upload\/)?drive\//.test(url.pathname)) return drive(req, res, url.pathname, body);
      if (url.pathname.startsWith('/v1/documents/')) return docs(req, res, url.pathname, body);
      if (url.pathname.startsWith('/admin/directory/v1/')) return directory(req, res, url.pathname, body);
      if (url.pathname.startsWith('/calendar/v3/')) return calendar(req, res, url.pathname, query, body);
      apiError(res, 404, 'notFound', 'Not Found');
    } catch (err) {
      apiError(res, 400, 'badRequest', (err as Error).message);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(peer, {
    url,
    key: JSON.stringify({
      type: 'service_account',
      project_id: 'muster-test',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: '100000000000000000001',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: `${url}/token`,
    }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
