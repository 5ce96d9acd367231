// Single sign-on with an OpenID Connect provider (Okta, Entra ID, Google, Keycloak, Authentik, ...),
// beyond Dispatch 0.1.0's own PKCE and header providers:
// - the browser's code flow (openid-client): sign-in starts at GET /{organization}/auth/sso/login,
//   which keeps state, nonce and the PKCE verifier in a short-lived encrypted cookie (no state on
//   the server, so any node can take the callback), and ends at GET /auth/sso/callback, which
//   checks the ID token, finds or creates the person and hands Muster's own token to the web UI in a
//   URL fragment (never sent to a server, so never in a log);
// - the provider's access or ID tokens as `Authorization: Bearer` (API clients, Dispatch's web UI):
//   verified with jose against the provider's keys (fetched again when they rotate), its issuer,
//   the audience, expiry and asymmetric algorithms only;
// - people created at first sign-in by the organization's registration policy.
// A provider that cannot be reached answers 503 (errors.providerUnavailable); password sign-in is
// unaffected.
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, EncryptJWT, jwtDecrypt, jwtVerify, type JWTPayload } from 'jose';
import * as oidc from 'openid-client';
import { ConfigError, type Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import { ROLES, type Role } from '../../server/context.ts';
import { ApiError, errors } from '../../server/errors.ts';
import { audit } from '../audit/record.ts';
import { organization, type OrganizationRow } from '../organization/table.ts';
import type { Identity } from './hook.ts';
import { hashPassword, randomPassword } from './password.ts';
import { setPassword } from './account.ts';
import { admission } from './registration.ts';
import { addMembership } from './membership.ts';
import { appUser, userOrganization } from './table.ts';

/** Algorithms a provider's token may be signed with: asymmetric ones only (never `none`, never HS*, whose key Muster would share). */
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** The cookie holding a sign-in in progress; sent back only to the callback. */
export const STATE_COOKIE = 'muster_sso';
export const CALLBACK_PATH = '/api/v1/auth/sso/callback';
const STATE_TTL_SECONDS = 600;
/** Seconds to wait for the provider before it counts as down. */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** The lock `register` (service.ts) takes so that exactly one first user of an installation becomes its Owner. */
const FIRST_USER_LOCK = 7_357_114;

const ROLE_LEVEL: Record<Role, number> = { Owner: 4, Manager: 3, Admin: 2, Member: 1 };

/**
 * The role a role claim names: a string or a list of strings, each compared without case to
 * Owner, Manager, Admin and Member; the highest one named counts. Anything else: none (Member).
 */
export function roleFromClaim(value: unknown): Role | undefined {
  const names = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  let best: Role | undefined;
  for (const name of names) {
    const role = ROLES.find((r) => r.toLowerCase() === name.trim().toLowerCase());
    if (role && (!best || ROLE_LEVEL[role] > ROLE_LEVEL[best])) best = role;
  }
  return best;
}

/** Whether an error means the provider could not be reached or failed on its side (5xx), rather than refused. */
function isOutage(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError' || (name === 'TypeError' && /fetch/i.test((e as Error).message))) return true;
    if ((e as { code?: string }).code === 'ECONNREFUSED' || (e as { code?: string }).code === 'ENOTFOUND') return true;
    const status = (e as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 500) return true;
    if (e instanceof Response && e.status >= 500) return true;
    if (name === 'JWKSTimeout') return true;
  }
  return false;
}

interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  org: string;
}

const SSO_ERROR = (msg: string) => errors.ssoFailed(msg);

export interface SsoClaims {
  email: string;
  emailVerified: boolean | undefined;
  role: Role | undefined;
}

export class Sso {
  readonly issuer: string | undefined;
  readonly name: string;
  private readonly audiences: string[];
  private readonly stateKey: Uint8Array;
  private discovered: Promise<oidc.Configuration> | undefined;
  private jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(private readonly settings: Settings) {
    this.issuer = settings.oidcIssuer?.trim() || undefined;
    this.name = settings.oidcName;
    this.audiences = (settings.oidcAudience ?? settings.oidcClientId ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    this.stateKey = createHash('sha256')
      .update(`muster sso state\u0000${settings.jwtSecret ?? ''}`)
      .digest();
    if ((this.issuer || settings.oidcJwksUrl) && this.audiences.length === 0) {
      throw new ConfigError('MUSTER_OIDC_ISSUER (or a JWKS URL) needs MUSTER_OIDC_CLIENT_ID or MUSTER_OIDC_AUDIENCE: the audience its tokens must name');
    }
    if (settings.oidcJwksUrl) {
      try {
        this.jwks = createRemoteJWKSet(new URL(settings.oidcJwksUrl), { timeoutDuration: PROVIDER_TIMEOUT_SECONDS * 1000 });
      } catch {
        throw new ConfigError(`MUSTER_OIDC_JWKS_URL must be a URL, got "${settings.oidcJwksUrl}"`);
      }
    }
    if (this.issuer && !URL.canParse(this.issuer)) throw new ConfigError(`MUSTER_OIDC_ISSUER must be a URL, got "${this.issuer}"`);
  }

  /** Whether the browser's sign-in is offered: an issuer and a client id are configured. */
  get browserSignIn(): boolean {
    return !!(this.issuer && this.settings.oidcClientId);
  }

  /** Whether provider tokens are accepted as bearer credentials at all. */
  get bearerTokens(): boolean {
    return !!(this.issuer || this.jwks);
  }

  get redirectUri(): string {
    return new URL(CALLBACK_PATH, this.settings.uiUrl).href;
  }

  /** The provider's configuration from its discovery document, fetched once per process (again after a failure). */
  private configuration(): Promise<oidc.Configuration> {
    if (!this.issuer || !this.settings.oidcClientId) throw errors.ssoNotConfigured();
    this.discovered ??= (async () => {
      const secret = this.settings.oidcClientSecret;
      const server = new URL(this.issuer!);
      const config = await oidc.discovery(server, this.settings.oidcClientId!, secret, secret ? oidc.ClientSecretPost(secret) : oidc.None(), {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // A provider on plain http (a development one, or the test peer) is allowed only on a loopback address.
        execute: ['localhost', '127.0.0.1', '[::1]'].includes(server.hostname) ? [oidc.allowInsecureRequests] : [],
      });
      return config;
    })();
    const pending = this.discovered;
    pending.catch(() => {
      if (this.discovered === pending) this.discovered = undefined;
    });
    return pending;
  }

  /** The provider's signing keys: the configured JWKS URL, else the one its discovery names. */
  private async keys() {
    if (this.jwks) return this.jwks;
    const config = await this.configuration();
    const uri = config.serverMetadata().jwks_uri;
    if (!uri) throw new Error('the provider names no jwks_uri');
    this.jwks = createRemoteJWKSet(new URL(uri), { timeoutDuration: PROVIDER_TIMEOUT_SECONDS * 1000 });
    return this.jwks;
  }

  /** Where the browser goes to sign in, and the cookie that remembers the attempt. */
  async start(orgSlug: string): Promise<{ url: string; cookie: string }> {
    let config: oidc.Configuration;
    try {
      config = await this.configuration();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw errors.providerUnavailable();
    }
    const pending: PendingSignIn = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), org: orgSlug };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: this.settings.oidcScopes,
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    const sealed = await new EncryptJWT({ ...pending })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt()
      .setExpirationTime(`${STATE_TTL_SECONDS}s`)
      .encrypt(this.stateKey);
    return { url: url.href, cookie: sealed };
  }

  /** The attempt a callback's cookie remembers; null when missing, tampered with or expired. */
  async pending(cookie: string | undefined): Promise<PendingSignIn | null> {
    if (!cookie) return null;
    try {
      const { payload } = await jwtDecrypt(cookie, this.stateKey, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
      const { state, nonce, verifier, org } = payload as JWTPayload & Partial<PendingSignIn>;
      if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string' || typeof org !== 'string') return null;
      return { state, nonce, verifier, org };
    } catch {
      return null;
    }
  }

  /** Exchanges the callback's code (with the attempt's state, nonce and verifier) and reads who the ID token names. */
  async finish(pending: PendingSignIn, query: string): Promise<SsoClaims> {
    let config: oidc.Configuration;
    try {
      config = await this.configuration();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw errors.providerUnavailable();
    }
    const current = new URL(this.redirectUri);
    current.search = query;
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      if (isOutage(err)) throw errors.providerUnavailable();
      const denied = (err as { error?: unknown }).error;
      throw SSO_ERROR(
        typeof denied === 'string' && denied === 'access_denied'
          ? 'Single sign-on was cancelled or refused by the provider.'
          : 'Single sign-on failed: the provider’s answer did not hold. Please, try again.',
      );
    }
    if (!claims) throw SSO_ERROR('Single sign-on failed: the provider sent no ID token.');
    return this.claimsOf(claims);
  }

  private claimsOf(claims: Record<string, unknown>): SsoClaims {
    const email = claims[this.settings.oidcEmailClaim];
    if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email.trim())) {
      throw SSO_ERROR(`Single sign-on failed: the provider gave no e-mail address (claim "${this.settings.oidcEmailClaim}").`);
    }
    const verified = claims.email_verified;
    return {
      email: email.trim().toLowerCase(),
      emailVerified: typeof verified === 'boolean' ? verified : verified === 'true' ? true : verified === 'false' ? false : undefined,
      role: this.settings.oidcRoleClaim ? roleFromClaim(claims[this.settings.oidcRoleClaim]) : undefined,
    };
  }

  /**
   * An Authenticator for the provider's access and ID tokens. Tokens of another issuer (Muster's
   * own, another provider's) are not its kind (undefined); one of this issuer that fails any check
   * is refused (null, 401). Without an issuer configured (Dispatch's PKCE set-up: a JWKS URL only),
   * its kind is every token signed with an asymmetric algorithm.
   */
  readonly authenticate = async (_request: FastifyRequest, token: string | null): Promise<Identity | null | undefined> => {
    if (!token || !this.bearerTokens) return undefined;
    let iss: unknown;
    let alg: unknown;
    try {
      iss = decodeJwt(token).iss;
      alg = decodeProtectedHeader(token).alg;
    } catch {
      return undefined;
    }
    if (this.issuer) {
      if (typeof iss !== 'string' || iss.replace(/\/$/, '') !== this.issuer.replace(/\/$/, '')) return undefined;
    } else if (typeof alg !== 'string' || !ASYMMETRIC_ALGORITHMS.includes(alg)) {
      return undefined;
    }
    const verify = async () =>
      jwtVerify(token, await this.keys(), {
        algorithms: ASYMMETRIC_ALGORITHMS,
        audience: this.audiences,
        ...(this.issuer ? { issuer: iss as string } : {}),
        requiredClaims: ['exp'],
      });
    let payload: JWTPayload;
    try {
      // Fetching the keys again once: a connection the provider closed while idle fails the first try.
      ({ payload } = await verify().catch((err) => (isOutage(err) ? verify() : Promise.reject(err))));
    } catch (err) {
      if (isOutage(err)) throw errors.providerUnavailable();
      return null;
    }
    const email = payload[this.settings.oidcEmailClaim];
    if (typeof email !== 'string' || !email.includes('@')) return null;
    return { email: email.trim().toLowerCase(), issuedAt: payload.iat };
  };
}

/**
 * The person signing in, in `org`: an account found by e-mail, else one created by the
 * organization's registration policy (the first account of a fresh installation as Owner); a
 * member of `org`, else made one by the policy, with the role claim's role (Member without one)
 * and the organization's default project. The address counts as confirmed only when the provider
 * says it verified it. Writes its audit entries in the same transaction.
 */
export async function signInBySso(
  db: Executor,
  settings: Settings,
  orgSlug: string,
  claims: SsoClaims,
  address: string | undefined,
): Promise<{ email: string }> {
  const [org] = await db.select().from(organization).where(eq(organization.slug, orgSlug));
  if (!org) throw errors.organizationNotFound();
  type Refusal = { refused: ApiError; reason: string };
  const refuse = (refused: ApiError, reason: string): Refusal => ({ refused, reason });
  const outcome = await db.transaction(async (tx): Promise<Refusal | { email: string }> => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_USER_LOCK})`);
    const [user] = await tx
      .select({
        id: appUser.id,
        confirmed: sql<boolean>`${appUser.email_confirmed_at} IS NOT NULL`,
        deactivated: sql<boolean>`${appUser.deactivated_at} IS NOT NULL`,
        serviceAccount: appUser.service_account,
      })
      .from(appUser)
      .where(eq(appUser.email, claims.email));
    if (user?.deactivated || user?.serviceAccount) return refuse(errors.unauthorized(), user.deactivated ? 'deactivated' : 'service account');
    // An account whose owner proved the address is not handed to a provider that says it did not verify it.
    if (user?.confirmed && claims.emailVerified === false) return refuse(errors.ssoUnverified(), 'address not verified by the provider');
    const [member] = user
      ? await tx
          .select({ role: userOrganization.role })
          .from(userOrganization)
          .where(and(eq(userOrganization.user_id, user.id), eq(userOrganization.organization_id, org.id)))
      : [];
    let userId = user?.id;
    if (!member) {
      let admitted: { role: Role; needsConfirmation?: boolean };
      try {
        admitted = await admission(tx, org as OrganizationRow, claims.email, undefined, { confirmed: claims.emailVerified === true });
      } catch (err) {
        if (err instanceof ApiError) return refuse(err, 'registration policy');
        throw err;
      }
      // A `domains` policy admits proven addresses only: here, the provider's word that it verified it.
      if (admitted.needsConfirmation) return refuse(errors.ssoUnverified(), 'registration policy: address not verified by the provider');
      const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(appUser);
      const role: Role = n === 0 ? 'Owner' : (claims.role ?? admitted.role);
      if (!userId) {
        const password = await hashPassword(randomPassword(), settings.passwordCost);
        [{ id: userId }] = await tx
          .insert(appUser)
          .values({ email: claims.email, password, email_confirmed_at: claims.emailVerified === true ? new Date() : null })
          .returning({ id: appUser.id });
        await audit(
          tx,
          { organizationId: org.id, userId, email: claims.email, address },
          {
            action: 'user.created',
            target: { type: 'user', id: userId, label: claims.email },
            after: { email: claims.email, role, email_confirmed: claims.emailVerified === true },
            details: { via: 'sso' },
          },
        );
      }
      await addMembership(tx, { userId, organizationId: org.id, role });
    }
    if (user && !user.confirmed && claims.emailVerified === true) {
      // The provider proves the address is this person's: whoever registered it unconfirmed (perhaps
      // someone else) loses the password they chose and every token they hold.
      await setPassword(tx, user.id, randomPassword(), settings.passwordCost, { confirm: true });
      await audit(
        tx,
        { organizationId: org.id, userId: user.id, email: claims.email, address },
        { action: 'user.email_confirmed', target: { type: 'user', id: user.id, label: claims.email }, details: { via: 'sso' } },
      );
    }
    await audit(
      tx,
      { organizationId: org.id, userId, email: claims.email, address },
      { action: 'auth.sso_login', target: { type: 'user', id: userId, label: claims.email } },
    );
    return { email: claims.email };
  });
  if ('refused' in outcome) {
    // Written after the transaction (which wrote nothing): the refusal is kept.
    await audit(db, { organizationId: org.id, email: claims.email, address }, { action: 'auth.sso_login_failed', details: { reason: outcome.reason } });
    throw outcome.refused;
  }
  return outcome;
}
