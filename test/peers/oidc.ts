// A real OpenID Connect provider for tests: oidc-provider on a free loopback port, with one
// confidential client (a secret, PKCE required), its development login page (any login name and
// password; the login name is the account), and accounts whose claims a test chooses (e-mail,
// email_verified, a role claim). Its signing key is the peer's own, so tests can also mint tokens
// the provider could have signed (expired, for another audience); `rotate()` restarts the provider
// on the same address with a new key, as a provider rotating its keys does; `stop()` takes it down.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'muster';
export const CLIENT_SECRET = 'muster-test-secret';
/** The claim the peer's accounts carry their role in (MUSTER_OIDC_ROLE_CLAIM in tests). */
export const ROLE_CLAIM = 'muster_role';

export interface PeerAccount {
  email?: string;
  email_verified?: boolean;
  role?: string | string[];
}

export interface OidcPeer {
  issuer: string;
  port: number;
  /** Claims by login name; a login name not listed signs in as itself (an e-mail address), verified. */
  accounts: Map<string, PeerAccount>;
  /** A token signed with the provider's current key: `iss` the issuer, `aud` the client, an hour long unless the claims say otherwise. */
  sign(claims: JWTPayload, header?: { alg?: string; kid?: string }): Promise<string>;
  /** Restarts the provider on the same address with a new signing key (the old one is gone from its JWKS). */
  rotate(): Promise<void>;
  /** Takes the provider down (its address refuses connections) until `start()`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function newKey() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, alg: 'RS256', use: 'sig' };
  return { privateKey, jwk };
}

/** `redirectUris`: Muster's callback URLs the client may return to. */
export async function startOidcPeer(redirectUris: string[]): Promise<OidcPeer> {
  const accounts = new Map<string, PeerAccount>();
  let key = await newKey();
  let server: Server | undefined;
  let port = 0;
  let issuer = '';

  const listen = async () => {
    const provider = new Provider(issuer || 'http://127.0.0.1', {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [key.jwk] },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      // The ID token carries the scopes' claims (e-mail and role) itself, as most providers' do.
      conformIdTokenClaims: false,
      claims: { openid: ['sub'], email: ['email', 'email_verified', ROLE_CLAIM], profile: ['name'] },
      cookies: { keys: ['oidc-peer-cookie-key'] },
      ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
      // Consent is taken as given: the login page is the one page a person sees.
      async loadExistingGrant(ctx) {
        const id = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
        if (id) return ctx.oidc.provider.Grant.find(id);
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope('openid email profile');
        grant.addOIDCClaims(['email', 'email_verified', ROLE_CLAIM, 'name']);
        await grant.save();
        return grant;
      },
      async findAccount(_ctx, sub) {
        const account = accounts.get(sub) ?? {};
        return {
          accountId: sub,
          async claims() {
            return {
              sub,
              email: account.email ?? sub,
              email_verified: account.email_verified ?? true,
              ...(account.role !== undefined ? { [ROLE_CLAIM]: account.role } : {}),
              name: sub,
            };
          },
        };
      },
    });
    const s = createServer(provider.callback());
    await new Promise<void>((ok, fail) => s.once('error', fail).listen(port, '127.0.0.1', ok));
    server = s;
    if (!port) {
      port = (s.address() as AddressInfo).port;
      issuer = `http://127.0.0.1:${port}`;
      // The issuer names the port, known only now: start again with it.
      await stop();
      await listen();
    }
  };
  const stop = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((ok) => s.close(() => ok()));
  };

  await listen();

  return {
    get issuer() {
      return issuer;
    },
    get port() {
      return port;
    },
    accounts,
    async sign(claims, header = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: CLIENT_ID, iat: now, exp: now + 3600, ...claims })
        .setProtectedHeader({ alg: header.alg ?? 'RS256', kid: header.kid ?? key.jwk.kid })
        .sign(key.privateKey);
    },
    async rotate() {
      key = await newKey();
      await stop();
      await listen();
    },
    stop,
    start: listen,
    close: stop,
  };
}

/**
 * Signs in at the provider the way a browser does, with plain fetch and a cookie jar: follows
 * the authorization URL's redirects, fills the login page's form with `login`, and stops at the
 * redirect back to `callbackPrefix`, which it returns (the URL with the code and state).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, callbackPrefix: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(callbackPrefix)) return url;
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookie(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    keep(res);
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || !prompt) throw new Error(`provider answered ${res.status} at ${url}: ${html.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url).href;
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
  }
  throw new Error('the provider never sent the browser back');
}
