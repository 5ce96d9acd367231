// Authentication and tenancy for every route: the credential names the user (a session token, an
// API token, or another authenticator: a provider's token, a trusted proxy's header), the URL names
// the organization, and one query (resolveCaller or resolveTokenCaller) loads both with the role. A route opts out
// with `config: { auth: false }` and names its permission class with `config: { permission }`.
// This runs after the body is parsed and before it is validated, so the errors come in Dispatch's
// order: malformed JSON, then 401, then 404/403, then 422.
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Executor } from '../../db/connection.ts';
import { singleFlight } from '../../lib/single-flight.ts';
import type { Settings } from '../../config.ts';
import { type Caller, resolveCaller } from './service.ts';
import type { CallerCache } from './caller-cache.ts';
import { API_TOKEN_PREFIX, resolveTokenCaller, touchApiToken } from './api-token.ts';
import type { Tokens } from './token.ts';
import type { OrganizationRow } from '../organization/table.ts';
import { requirePermission, type Ctx, type Permission, type UserRef } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { MAX_ID } from '../../server/shapes.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: served without a user (login, register, healthcheck, docs). */
    auth?: boolean;
    permission?: Permission;
  }
  interface FastifyRequest {
    /** The calling user; set on every authenticated route. */
    caller: UserRef;
    /** Tenant context; set on routes whose URL names an organization. */
    ctx: Ctx<OrganizationRow>;
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : null;
}

/** Who a credential names: an account by its e-mail, and when the credential was issued (seconds), if it says. */
export interface Identity {
  email: string;
  issuedAt?: number;
}

/**
 * A way of signing in besides Muster's own tokens (a provider's bearer token, a trusted proxy's
 * header): undefined when the request carries no credential of its kind, null when it carries one
 * that does not hold (401), else who it names.
 */
export type Authenticator = (request: FastifyRequest, bearer: string | null) => Promise<Identity | null | undefined>;

type OrgRef = { slug: string } | { id: number };

function orgOf(request: FastifyRequest): OrgRef | undefined {
  const params = request.params as { organization?: string; organization_id?: number | string };
  if (params.organization !== undefined) return { slug: params.organization };
  const id = params.organization_id;
  return id !== undefined && /^\d+$/.test(String(id)) && Number(id) <= MAX_ID ? { id: Number(id) } : undefined;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function installAuth(
  app: FastifyInstance,
  deps: { db: Executor; settings: Settings; tokens: Tokens; authenticators?: Authenticator[]; callers?: CallerCache<Caller | null> },
) {
  // Fastify types a decoration's initial value as the decorated type; both are null until the hook below sets them.
  app.decorateRequest('caller', null as never);
  app.decorateRequest('ctx', null as never);
  const keyOf = (email: string, org?: OrgRef) => `${email}\u0000${org ? ('slug' in org ? `s:${org.slug}` : `i:${org.id}`) : ''}`;
  // A burst of requests from one caller (a detection system posting alerts) shares one lookup.
  const lookup = singleFlight(keyOf, (email: string, org?: OrgRef) => resolveCaller(deps.db, email, org));
  // On the embedded database the callers are kept until a write changes one (caller-cache.ts).
  const { callers } = deps;
  const callerOf = callers ? (email: string, org?: OrgRef) => callers.get(keyOf(email, org), () => lookup(email, org)) : lookup;
  const authenticators = deps.authenticators ?? [];

  /** Who a request comes from: a session token, else the first other authenticator that recognises its credential. */
  async function identify(request: FastifyRequest, token: string | null): Promise<Identity | null> {
    const claims = token ? await deps.tokens.verify(token) : null;
    if (claims) return { email: claims.email, issuedAt: claims.iat };
    for (const authenticate of authenticators) {
      const identity = await authenticate(request, token);
      if (identity !== undefined) return identity;
    }
    return null;
  }

  /** A request carrying an API token: its organization, user and role come from the token. */
  async function byApiToken(request: FastifyRequest, token: string, org: OrgRef | undefined) {
    const found = await resolveTokenCaller(deps.db, token);
    if (!found) throw errors.unauthorized();
    if (!org) throw errors.forbidden('An API token acts only within its own organization.');
    if ('slug' in org ? org.slug !== found.organization.slug : org.id !== found.organization.id) {
      throw errors.forbidden('This API token belongs to another organization.');
    }
    if (found.readOnly && !READS.has(request.method)) throw errors.forbidden('This API token is read-only.');
    if (found.stale) touchApiToken(deps.db, found.tokenId, request.ip).catch((err) => request.log.warn({ err }, 'noting an API token used failed'));
    return found;
  }

  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    if (config.auth === false || !request.routeOptions.url) return;
    const token = bearer(request);
    const org = orgOf(request);

    if (token?.startsWith(API_TOKEN_PREFIX)) {
      const found = await byApiToken(request, token, org);
      request.caller = found.user;
      request.ctx = {
        db: deps.db,
        settings: deps.settings,
        user: found.user,
        organization: found.organization,
        role: found.role,
        log: request.log,
        address: request.ip,
        tokenId: found.tokenId,
      };
      if (config.permission) requirePermission(found.role, config.permission);
      return;
    }

    const identity = await identify(request, token);
    if (!identity) throw errors.unauthorized();
    const caller = await callerOf(identity.email, org);
    // A user who no longer exists or is deactivated, a service account (API tokens only), or a
    // token issued before the password last changed: not a caller.
    if (!caller || caller.serviceAccount) throw errors.unauthorized();
    if (identity.issuedAt !== undefined && caller.tokensValidAfter !== null && identity.issuedAt < caller.tokensValidAfter) throw errors.unauthorized();
    request.caller = caller.user;
    if (!org) return;
    if (!caller.organization) throw errors.organizationNotFound();
    if (!caller.role) throw errors.notMember();
    request.ctx = {
      db: deps.db,
      settings: deps.settings,
      user: caller.user,
      organization: caller.organization as OrganizationRow,
      role: caller.role,
      log: request.log,
      address: request.ip,
    };
    if (config.permission) requirePermission(caller.role, config.permission);
  });
}

/**
 * A permission check on the record named by path parameter `param`, run before the body is
 * validated as Dispatch's permission classes are: a caller who may not act on the record gets
 * 404/403 whatever they sent (a malformed id is left to validation's 422). Services check again in
 * their transaction.
 */
export const guardRecord =
  (param: string, check: (ctx: Ctx, id: number) => Promise<unknown>): preValidationAsyncHookHandler =>
  async (req) => {
    const raw = (req.params as Record<string, string | undefined>)[param];
    if (raw !== undefined && /^\d+$/.test(raw) && Number(raw) <= MAX_ID) await check(req.ctx, Number(raw));
  };
