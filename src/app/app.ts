// The application factory: one Fastify instance with Muster's cross-cutting plugins (errors,
// JSON bodies, auth and tenancy, API docs), every domain's routes and the chat platform's endpoints
// under /api/v1.
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ConfigError, type Settings } from '../config.ts';
import type { Database, Db } from '../db/connection.ts';
import { Tokens } from '../domains/auth/token.ts';
import { DOMAIN_ROUTES } from './domains.ts';
import chatRoutes from '../chat/routes.ts';
import type { PgTable } from 'drizzle-orm/pg-core';
import { installAuth, type Authenticator } from '../domains/auth/hook.ts';
import { callerCache } from '../domains/auth/caller-cache.ts';
import type { Caller } from '../domains/auth/service.ts';
import { headerAuthenticator } from '../domains/auth/header.ts';
import { Sso } from '../domains/auth/sso.ts';
import { installEtags } from '../server/etag.ts';
import { projectHoldings } from '../domains/project/holdings.ts';
import * as tables from './schema.ts';
import { installErrorHandling } from '../server/error-handler.ts';
import { staticFiles } from '../server/static-files.ts';
import { installJsonBody, trimStrings } from '../server/json-body.ts';
import type { App } from '../server/routing.ts';
import { ajvOptions, canonicalIntegers } from '../server/validation.ts';
import { compilersFactory } from '../server/compilers.ts';
import { checkProxySettings, fastifyTrustProxy } from '../server/proxies.ts';
import { healthRoutes, type Readiness, type ReadinessCheck } from '../server/health.ts';
import { installSecurityHeaders } from '../server/security-headers.ts';
import { installRequestTelemetry } from '../server/observability/http.ts';
import { requestIdOf } from '../server/observability/request-id.ts';
import { metricsRoute } from '../server/observability/metrics-routes.ts';
import { outboundFor } from '../lib/outbound/client.ts';
import { metricsMode, recordMetrics } from '../lib/telemetry/metrics.ts';
import { flushTraces, startTracing } from '../lib/telemetry/tracing.ts';
import { watchQueues } from '../jobs/queue-metrics.ts';

export const API_PREFIX = '/api/v1';
const DOCS_PREFIX = `${API_PREFIX}/docs`;

export interface RouteInfo {
  path: string;
  methods: string[];
  authenticated: boolean;
}

export interface Muster {
  settings: Settings;
  database: Database;
  db: Db;
  tokens: Tokens;
  /** Single sign-on with the configured OpenID Connect provider; null when none is configured. */
  sso: Sso | null;
  routes: RouteInfo[];
  /** The tables whose rows belong to a project, in the order deleting a project deletes them. */
  projectHoldings: PgTable[];
  /** What GET /healthcheck/ready checks, and whether the server is stopping. */
  readiness: Readiness;
  addReadinessCheck(check: ReadinessCheck): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    muster: Muster;
  }
}

export interface BuildOptions {
  settings: Settings;
  database: Database;
  logger?: FastifyServerOptions['logger'];
}

/** Throws ConfigError when the trusted proxies, header sign-in, single sign-on or outbound settings cannot be used. */
export function checkSignInSettings(settings: Settings) {
  checkProxySettings(settings);
  try {
    outboundFor(settings.outboundAllow);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  if (settings.oidcIssuer || settings.oidcJwksUrl) new Sso(settings);
}

export async function buildApp({ settings, database, logger }: BuildOptions): Promise<App> {
  const trusted = checkProxySettings(settings);
  const metrics = metricsMode(settings);
  startTracing(settings);
  const app = Fastify({
    logger: logger ?? { level: settings.logLevel },
    genReqId: requestIdOf,
    bodyLimit: settings.bodyLimit,
    ajv: ajvOptions,
    schemaController: { compilersFactory },
    trustProxy: fastifyTrustProxy(trusted),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Fastify's own two lines per request (with the URL's query string) at debug and below only; at
    // info the access log (server/observability/http.ts) writes one line with no request values.
    logController: new LogController({
      disableRequestLogging: settings.logLevel !== 'debug' && settings.logLevel !== 'trace',
      requestIdLogLabel: 'requestId',
    }),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const sso = settings.oidcIssuer || settings.oidcJwksUrl ? new Sso(settings) : null;
  const readiness: Readiness = { checks: [], stopping: false };
  const muster: Muster = {
    settings,
    database,
    db: database.db,
    tokens: new Tokens(settings.jwtSecret!, settings.jwtExp),
    sso,
    routes: [],
    projectHoldings: projectHoldings(Object.values(tables)),
    readiness,
    addReadinessCheck: (check) => readiness.checks.push(check),
  };
  muster.addReadinessCheck({
    name: 'database',
    check: async () => {
      await database.query('SELECT 1');
    },
  });
  app.decorate('muster', muster);
  // First: every later hook, and the handler, runs in the request's context.
  installRequestTelemetry(app, settings);
  if (metrics.serve !== 'off') {
    recordMetrics();
    const unwatch = watchQueues(database);
    app.addHook('onClose', async () => unwatch());
  }
  if (metrics.serve === 'api') metricsRoute(app);
  app.addHook('onClose', () => flushTraces());

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(DOCS_PREFIX) || route.url.startsWith(`${API_PREFIX}/healthcheck`)) route.config = { ...route.config, auth: false };
    const methods = ([] as string[]).concat(route.method).filter((m) => m !== 'HEAD');
    if (methods.length === 0 || route.url.includes('/static/')) return;
    muster.routes.push({ path: route.url, methods, authenticated: route.config?.auth !== false });
  });

  installSecurityHeaders(app, {
    staticDir: settings.staticDir,
    connectTo: settings.oidcIssuer ? [new URL(settings.oidcIssuer).origin] : [],
    policy: settings.contentSecurityPolicy || undefined,
  });
  installErrorHandling(app, settings.bodyLimit, settings.staticDir ? staticFiles(settings.staticDir) : undefined);
  installJsonBody(app);
  installEtags(app, API_PREFIX);
  // Before authentication, which reads `organization_id` from the path.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema;
    if (!schema) return;
    canonicalIntegers(request.params, schema.params);
    canonicalIntegers(request.query, schema.querystring);
  });
  const authenticators: Authenticator[] = [];
  if (sso?.bearerTokens) authenticators.push(sso.authenticate);
  if (settings.headerAuth && trusted && 'cidrs' in trusted) authenticators.push(headerAuthenticator(settings.headerAuthName, trusted.cidrs));
  const callers = callerCache<Caller | null>(database);
  if (callers) app.addHook('onClose', async () => callers.close());
  installAuth(app, { db: database.db, settings, tokens: muster.tokens, authenticators, callers });
  app.addHook('preValidation', async (request) => {
    if (request.body && typeof request.body === 'object') trimStrings(request.body);
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Muster', description: 'Incident and case management. Wire-compatible with the Dispatch 0.1.0 API.', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { docExpansion: 'list' } });

  await app.register(
    async (api: App) => {
      await api.register(healthRoutes(readiness, settings.readyTimeout));
      api.get('/docs/openapi.json', { schema: { hide: true }, config: { auth: false } }, async () => app.swagger());
      for (const routes of DOMAIN_ROUTES) await api.register(routes);
      // Slack's requests: signed by Slack, not by a user's token.
      await api.register(chatRoutes);
    },
    { prefix: API_PREFIX },
  );
  await app.ready();
  return app;
}
