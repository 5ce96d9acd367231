// Authentication and tenancy for every route: the bearer token names the user, the URL names the
// organization, and one query (resolveCaller) loads both with the user's role. A route opts out
// with `config: { auth: false }` and names its permission class with `config: { permission }`.
// This runs after the body is parsed and before it is validated, so the errors come in Dispatch's
// order: malformed JSON, then 401, then 404/403, then 422.
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Executor } from '../../db/connection.ts';
import { singleFlight } from '../../lib/single-flight.ts';
import type { Settings } from '../../config.ts';
import { resolveCaller } from './service.ts';
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

export function installAuth(app: FastifyInstance, deps: { db: Executor; settings: Settings; tokens: Tokens }) {
  // Fastify types a decoration's initial value as the decorated type; both are null until the hook below sets them.
  app.decorateRequest('caller', null as never);
  app.decorateRequest('ctx', null as never);
  // A burst of requests from one caller (a detection system posting alerts) shares one lookup.
  const callerOf = singleFlight(
    (email: string, org?: { slug: string } | { id: number }) => `${email}\u0000${org ? ('slug' in org ? `s:${org.slug}` : `i:${org.id}`) : ''}`,
    (email: string, org?: { slug: string } | { id: number }) => resolveCaller(deps.db, email, org),
  );

  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    if (config.auth === false || !request.routeOptions.url) return;
    const token = bearer(request);
    const email = token ? await deps.tokens.verify(token) : null;
    if (!email) throw errors.unauthorized();

    const params = request.params as { organization?: string; organization_id?: number | string };
    const org =
      params.organization !== undefined
        ? { slug: params.organization }
        : params.organization_id !== undefined && /^\d+$/.test(String(params.organization_id)) && Number(params.organization_id) <= MAX_ID
          ? { id: Number(params.organization_id) }
          : undefined;
    const caller = await callerOf(email, org);
    if (!caller) throw errors.unauthorized(); // a valid token of a user who no longer exists
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
