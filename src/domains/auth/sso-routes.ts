// Single sign-on's endpoints (sso.ts) and an organization's sign-in methods (sign-in.ts):
// GET /{organization}/auth/methods, GET /{organization}/auth/sso/login, GET /auth/sso/callback,
// GET/PUT /{organization}/sign-in.
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { App } from '../../server/routing.ts';
import { ApiError, errors } from '../../server/errors.ts';
import { OrgParams } from '../../server/shapes.ts';
import { audit } from '../audit/record.ts';
import { organization } from '../organization/table.ts';
import { getSignIn, setSignIn, SignInMethods, SignInRead, SignInUpdate, signInMethods } from './sign-in.ts';
import { CALLBACK_PATH, STATE_COOKIE, signInBySso } from './sso.ts';

const API_PREFIX = '/api/v1';
const COOKIE_PATH = CALLBACK_PATH;

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export default async function ssoRoutes(app: App) {
  const { db, tokens, settings, sso } = app.muster;
  const tags = ['auth'];
  const secure = settings.uiUrl.startsWith('https:') ? '; Secure' : '';
  const setCookie = (value: string, maxAge: number) => `${STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;

  app.get('/:organization/auth/methods', { schema: { tags, params: OrgParams(), response: { 200: SignInMethods } }, config: { auth: false } }, (req) =>
    signInMethods(db, req.params.organization, sso, API_PREFIX),
  );

  app.get('/:organization/sign-in', { schema: { tags, params: OrgParams(), response: { 200: SignInRead } } }, (req) => getSignIn(req.ctx, sso));
  app.put('/:organization/sign-in', { schema: { tags, params: OrgParams(), body: SignInUpdate, response: { 200: SignInRead } } }, (req) =>
    setSignIn(req.ctx, sso, req.body),
  );

  // The browser is sent to the provider; the attempt's state, nonce and PKCE verifier go with it in an encrypted cookie.
  app.get(
    '/:organization/auth/sso/login',
    { schema: { tags, params: OrgParams(), response: { 302: Type.Null() } }, config: { auth: false } },
    async (req, reply) => {
      if (!sso?.browserSignIn) throw errors.ssoNotConfigured();
      const [org] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, req.params.organization));
      if (!org) throw errors.organizationNotFound();
      const { url, cookie } = await sso.start(req.params.organization);
      return reply.header('set-cookie', setCookie(cookie, 600)).header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  // The provider sends the browser back with a code; the session token goes to the web UI in a fragment.
  app.get(
    '/auth/sso/callback',
    // The query holds the provider's code: this route's requests are never logged below warn.
    { schema: { tags, response: { 302: Type.Null() } }, config: { auth: false }, logLevel: 'warn' },
    async (req, reply) => {
      if (!sso?.browserSignIn) throw errors.ssoNotConfigured();
      reply.header('set-cookie', setCookie('', 0)).header('cache-control', 'no-store');
      const pending = await sso.pending(cookieOf(req, STATE_COOKIE));
      if (!pending) throw errors.ssoFailed();
      const query = req.raw.url?.includes('?') ? req.raw.url.slice(req.raw.url.indexOf('?')) : '';
      let claims: Awaited<ReturnType<typeof sso.finish>>;
      try {
        claims = await sso.finish(pending, query);
      } catch (err) {
        if (err instanceof ApiError && err.statusCode === 401) {
          const [org] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, pending.org));
          if (org) await audit(db, { organizationId: org.id, address: req.ip }, { action: 'auth.sso_login_failed', details: { reason: err.message } });
        }
        throw err;
      }
      const { email } = await signInBySso(db, settings, pending.org, claims, req.ip);
      const token = await tokens.issue(email);
      const landing = new URL(`/${encodeURIComponent(pending.org)}/auth/sso`, settings.uiUrl);
      landing.hash = new URLSearchParams({ token }).toString();
      return reply.redirect(landing.href, 302);
    },
  );
}
