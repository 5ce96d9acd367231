// Test fixtures: a fresh migrated database per test file (embedded, or on the PostgreSQL server
// named by DATABASE_URL), the real application on it, and small helpers to call its HTTP API.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { sql } from 'drizzle-orm';
import { readSettings, type Settings } from '../src/config.ts';
import { openPostgres, type Database } from '../src/db/connection.ts';
import { type BuildOptions, buildApp } from '../src/app/app.ts';
import type { App } from '../src/server/routing.ts';
import { withDatabaseName } from './db-url.ts';
import { embeddedFromTemplate } from './embedded-reuse.ts';
import { TEST_PASSWORD_COST } from './password-cost.ts';

export interface TestDatabase {
  database: Database;
  url?: string;
  cleanup(): Promise<void>;
}

/**
 * A database holding the migrated schema and the default organization and project, nothing else:
 * a copy of the run's template on the server, or the test process's embedded instance reset to it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('serverUrl');
  if (serverUrl) {
    const name = `muster_test_${randomBytes(6).toString('hex')}`;
    const admin = await openPostgres(serverUrl, 1);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
    const url = withDatabaseName(serverUrl, name);
    const database = await openPostgres(url, 5);
    return {
      database,
      url,
      async cleanup() {
        await database.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      },
    };
  }
  const database = await embeddedFromTemplate(() => new Blob([readFileSync(inject('templateImage'))]));
  return { database, cleanup: () => database.close() };
}

/**
 * MUSTER_OUTBOUND_ALLOW for tests whose outside systems are local peers (on loopback): only they
 * set it, so every other test meets the outbound policy as a server does.
 */
export const LOCAL_PEERS = '127.0.0.0/8,::1';

export function testSettings(overrides: Partial<Settings> = {}): Settings {
  return { ...readSettings({}), jwtSecret: 'test-secret', encryptionKey: 'test-key', logLevel: 'silent', passwordCost: TEST_PASSWORD_COST, ...overrides };
}

export interface TestApp {
  app: App;
  database: Database;
  settings: Settings;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<Settings> = {}, opts: { logger?: BuildOptions['logger'] } = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const settings = testSettings(overrides);
  const app = await buildApp({ settings, database: db.database, logger: opts.logger ?? (process.env.TEST_LOG ? { level: 'error' } : false) });
  return {
    app,
    database: db.database,
    settings,
    async close() {
      await app.close();
      await db.cleanup();
    },
  };
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

type Query = Record<string, string | number | boolean | (string | number | boolean)[]>;

/** Calls the API under /api/v1 the way a client does, over Fastify's inject. */
export async function call<T = any>(
  app: App,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; query?: Query; raw?: string; headers?: Record<string, string> } = {},
): Promise<Res<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let payload: string | undefined;
  if (opts.raw !== undefined) payload = opts.raw;
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.query ?? {})) for (const x of ([] as unknown[]).concat(v)) qs.append(k, String(x));
  const url = `/api/v1${path}${qs.size ? `?${qs}` : ''}`;
  const res = await app.inject({ method: method as never, url, headers, payload });
  let body: unknown = res.body;
  try {
    body = res.body === '' ? undefined : JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body: body as T, headers: res.headers };
}

/** Registers a user in an organization and returns their token; the address counts as confirmed (see registerUnconfirmed). */
export async function register(app: App, email: string, org = 'default', password = 'correct horse battery'): Promise<string> {
  const token = await registerUnconfirmed(app, email, org, password);
  // As if its person had followed the confirmation link: tests of other things need members who are
  // matched as participants by their address. Tests of confirmation itself use registerUnconfirmed.
  await app.muster.db.execute(sql`UPDATE app_user SET email_confirmed_at = now() WHERE email = ${email.trim().toLowerCase()}`);
  return token;
}

/** Registers a user as the API does on a server without mail: their address unconfirmed. */
export async function registerUnconfirmed(app: App, email: string, org = 'default', password = 'correct horse battery'): Promise<string> {
  const res = await call(app, 'POST', `/${org}/auth/register`, { body: { email, password } });
  if (res.status !== 200 || typeof res.body?.token !== 'string') throw new Error(`register ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/**
 * Returns once the clock has passed into a later second than when it was called: tokens carry their
 * issue time to the second, so a change after this refuses every token issued before it.
 */
export async function nextSecond(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) <= second) await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 1));
}
