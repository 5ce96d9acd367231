// `muster server start|routes|config`, run as child processes: the embedded database in a temporary
// data directory, and a fresh database on the PostgreSQL server named by DATABASE_URL when one answers.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  embeddedTarget,
  freePort,
  http,
  muster,
  musterOk,
  postgresTarget,
  SERVER_SECRETS,
  SERVER_URL,
  startServer,
  stopAllServers,
  tempDir,
  type Target,
} from './cli-helpers.ts';

let cwd: string;
beforeAll(() => {
  cwd = tempDir();
});
afterAll(async () => {
  await stopAllServers();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

/** Rows of a table printed by formatTable: header, rule, then rows; cells split on 2+ spaces. */
function parseTable(out: string): { header: string[]; rows: string[][] } {
  const lines = out.trimEnd().split('\n');
  const split = (l: string) => l.trim().split(/\s{2,}/);
  expect(lines[1]).toMatch(/^-+(\s+-+)*$/);
  return { header: split(lines[0]), rows: lines.slice(2).map(split) };
}

describe('muster server', { timeout: 300_000 }, () => {
  it('routes prints Path, Authenticated and Methods, the healthcheck open to all', async () => {
    const r = await musterOk(['server', 'routes'], { cwd });
    const { header, rows } = parseTable(r.stdout);
    expect(header).toEqual(['Path', 'Authenticated', 'Methods']);
    const health = rows.find((row) => row[0] === '/api/v1/healthcheck');
    expect(health).toEqual(['/api/v1/healthcheck', 'No', 'GET']);
    expect(rows.some((row) => row[0].startsWith('/api/v1/organizations') && row[1] === 'Yes')).toBe(true);
    for (const row of rows) expect(row).toHaveLength(3);
  });

  it('config prints every setting as Key and Value, secrets masked', async () => {
    const env = {
      DATABASE_URL: 'postgres://muster:hunter2-password@db.example.com:5432/muster',
      MUSTER_JWT_SECRET: 'jwt-secret-that-must-not-show',
      MUSTER_ENCRYPTION_KEY: 'encryption-key-that-must-not-show',
      MUSTER_JWT_EXP: '3600',
    };
    const r = await musterOk(['server', 'config'], { cwd, env });
    const { header, rows } = parseTable(r.stdout);
    expect(header).toEqual(['Key', 'Value']);
    const value = (key: string) => rows.find((row) => row[0] === key)?.[1];
    expect(value('MUSTER_JWT_SECRET')).toBe("Secret('**********')");
    expect(value('MUSTER_ENCRYPTION_KEY')).toBe("Secret('**********')");
    expect(value('DATABASE_URL')).toBe("Secret('**********')");
    expect(value('MUSTER_JWT_EXP')).toBe('3600');
    expect(value('MUSTER_DATA_DIR')).toBeTruthy();
    const keys = rows.map((row) => row[0]);
    expect(keys).toEqual([...keys].sort());
    for (const secret of ['hunter2', 'jwt-secret-that', 'encryption-key-that']) expect(r.stdout).not.toContain(secret);
  });

  it('start with DATABASE_URL but without MUSTER_JWT_SECRET refuses to start', async () => {
    const r = await muster(['server', 'start', '--port', '1'], {
      cwd,
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', MUSTER_ENCRYPTION_KEY: 'k' },
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('MUSTER_JWT_SECRET');
  });

  it('start against a PostgreSQL that accepts connections and never answers gives up after MUSTER_DB_CONNECT_TIMEOUT, naming the server', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    const { port } = silent.address() as AddressInfo;
    try {
      const r = await muster(['server', 'start', '--port', '1'], {
        cwd,
        env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`, MUSTER_DB_CONNECT_TIMEOUT: '1000', ...SERVER_SECRETS },
        timeoutMs: 30_000,
      });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`muster: cannot connect to PostgreSQL at 127.0.0.1:${port}/postgres: no answer within 1000 ms (MUSTER_DB_CONNECT_TIMEOUT)`);
    } finally {
      silent.close();
    }
  });

  it('start against a PostgreSQL port nothing listens on says the connection was refused', async () => {
    const port = await freePort();
    const r = await muster(['server', 'start', '--port', '1'], {
      cwd,
      env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`, ...SERVER_SECRETS },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`muster: cannot connect to PostgreSQL at 127.0.0.1:${port}/postgres: connection refused`);
  });

  it('start --workers 2 on the embedded database refuses with a clear message', async () => {
    const target = embeddedTarget();
    try {
      const r = await muster(['server', 'start', '--workers', '2', '--port', '1'], { cwd, env: target.env });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/--workers needs DATABASE_URL/);
    } finally {
      await target.cleanup();
    }
  });

  it('start --static-dir serves a built web UI at / beside the API, and refuses a directory it cannot serve', async () => {
    const ui = join(cwd, 'ui-dist');
    mkdirSync(ui, { recursive: true });
    const html = '<!doctype html><title>UI</title>';
    writeFileSync(join(ui, 'index.html'), html);
    const target = embeddedTarget({ migrated: true });
    try {
      const bad = await muster(['server', 'start', '--static-dir', join(cwd, 'nowhere'), '--port', String(await freePort())], { cwd, env: target.env });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(`the static directory ${join(cwd, 'nowhere')} (MUSTER_STATIC_DIR, --static-dir) is not a directory`);
      const server = await startServer({ cwd, env: target.env, args: ['--static-dir', ui] });
      expect(server.output()).toContain(`Serving the web UI in ${ui} at http://127.0.0.1:${server.port}/`);
      const page = await fetch(`${server.base.replace(/\/api\/v1$/, '')}/default/incidents`);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(await page.text()).toBe(html);
      expect(await http(server.base, 'GET', '/healthcheck')).toEqual({ status: 200, body: { status: 'ok' } });
      expect(await http(server.base, 'GET', '/no-such-route')).toEqual({ status: 404, body: { detail: 'Not Found' } });
      expect((await server.stop()).code).toBe(0);
    } finally {
      await target.cleanup();
    }
  });

  it('start --port P serves the healthcheck on the embedded database and stops on SIGTERM', async () => {
    const target = embeddedTarget();
    try {
      const server = await startServer({ cwd, env: target.env });
      expect(await http(server.base, 'GET', '/healthcheck')).toEqual({ status: 200, body: { status: 'ok' } });
      // A fresh data directory is initialized on start: the default organization takes registrations.
      const reg = await http(server.base, 'POST', '/default/auth/register', { body: { email: 'cli@example.com', password: 'correct horse battery' } });
      expect(reg.status).toBe(200);
      expect(server.output()).toContain(`http://127.0.0.1:${server.port}/api/v1`);
      // Without --static-dir, Muster's own web UI is served at /, and its pages' paths answer its index.
      for (const path of ['/', '/default/incidents']) {
        const page = await fetch(`http://127.0.0.1:${server.port}${path}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root"></div>');
      }
      const end = await server.stop();
      expect(end.code).toBe(0);
      await expect(fetch(`${server.base}/healthcheck`)).rejects.toThrow();
    } finally {
      await target.cleanup();
    }
  });
});

describe.skipIf(!SERVER_URL)('muster server on a PostgreSQL server', { timeout: 300_000 }, () => {
  let target: Target;
  beforeAll(async () => {
    target = await postgresTarget({ migrated: true });
  });
  afterAll(() => target?.cleanup());

  it('start --workers 2 serves requests from two worker processes, and one metrics port counts them all', async () => {
    const workers = (out: string) => new Set([...out.matchAll(/\(PostgreSQL; worker (\d+);/g)].map((m) => m[1]));
    const metricsPort = await freePort();
    const env = { ...target.env, MUSTER_METRICS: String(metricsPort) };
    const server = await startServer({ cwd, env, args: ['--workers', '2'], readyWhen: (out) => workers(out).size === 2 });
    expect(workers(server.output()).size).toBe(2);
    // Healthchecks counted by the primary's scrape, which adds up both workers' registries.
    const healthchecks = async () =>
      (await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())
        .split('\n')
        .filter((l) => l.startsWith('muster_http_request_duration_seconds_count{') && l.includes('healthcheck"'))
        .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
    const before = await healthchecks();
    const results = await Promise.all(Array.from({ length: 20 }, () => http(server.base, 'GET', '/healthcheck')));
    for (const r of results) expect(r).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await healthchecks()) - before).toBe(20);
    const reg = await http(server.base, 'POST', '/default/auth/register', { body: { email: 'workers@example.com', password: 'correct horse battery' } });
    expect(reg.status).toBe(200);
    const me = await http(server.base, 'GET', '/default/auth/me', { token: reg.body.token });
    expect(me).toMatchObject({ status: 200, body: { email: 'workers@example.com' } });
    await server.stop();
    await expect(fetch(`${server.base}/healthcheck`)).rejects.toThrow();
  });

  it('start --workers 2 refuses metrics on the API port, where a scrape would read one worker', async () => {
    const r = await muster(['server', 'start', '--workers', '2', '--port', String(await freePort())], { cwd, env: { ...target.env, MUSTER_METRICS: 'on' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/with --workers, MUSTER_METRICS must be a port number/);
  });

  it('start serves on a server database with the secrets set', async () => {
    const server = await startServer({ cwd, env: { DATABASE_URL: target.env.DATABASE_URL, ...SERVER_SECRETS } });
    expect(await http(server.base, 'GET', '/healthcheck')).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await server.stop()).code).toBe(0);
  });
});
