// `muster database dump` and `muster database restore`, end to end: data written through the HTTP
// API of `muster server start`, dumped, restored into another database (embedded or PostgreSQL),
// and read back through the API of a server started on the copy.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTarget, http, muster, musterOk, postgresTarget, SERVER_URL, startServer, stopAllServers, tempDir, type Target } from './cli-helpers.ts';

const PASSWORD = 'correct horse battery';
const targets: Target[] = [];
let cwd: string;

/** A new database: empty, or (`migrated`) as `muster database init` leaves it. */
async function fresh(kind: 'embedded' | 'postgres', migrated = false): Promise<Target> {
  const t = kind === 'embedded' ? embeddedTarget({ migrated }) : await postgresTarget({ migrated });
  targets.push(t);
  return t;
}

beforeAll(() => {
  cwd = tempDir();
});
afterAll(async () => {
  await stopAllServers();
  for (const t of targets) await t.cleanup().catch(() => {});
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

const db = (t: Target, ...args: string[]) => musterOk(['database', ...args], { cwd, env: t.env });

/** Starts a server on the target and runs fn against its API, then stops it. */
async function withServer<T>(t: Target, fn: (base: string) => Promise<T>): Promise<T> {
  const server = await startServer({ cwd, env: t.env });
  try {
    return await fn(server.base);
  } finally {
    const end = await server.stop();
    expect(end.code, server.output()).toBe(0);
  }
}

/** Registers a user in `default` and creates an organization as them. */
async function populate(base: string, email: string, organization: string) {
  const reg = await http(base, 'POST', '/default/auth/register', { body: { email, password: PASSWORD } });
  expect(reg.status, JSON.stringify(reg.body)).toBe(200);
  const org = await http(base, 'POST', '/organizations', { token: reg.body.token, body: { name: organization, description: `${organization} and co.` } });
  expect(org.status, JSON.stringify(org.body)).toBe(200);
}

/** Logs in with the password and returns the names of the caller's organizations. */
async function organizationsOf(base: string, email: string): Promise<string[]> {
  const login = await http(base, 'POST', '/default/auth/login', { body: { email, password: PASSWORD } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const orgs = await http(base, 'GET', '/organizations', { token: login.body.token });
  expect(orgs.status).toBe(200);
  return orgs.body.items.map((o: { name: string }) => o.name).sort();
}

async function organizationNames(t: Target): Promise<string[]> {
  return (await t.query<{ name: string }>('SELECT name FROM organization ORDER BY name')).map((r) => r.name);
}

/** Dumps the target into a new file in the working directory and returns its path. */
async function dumpOf(t: Target, name: string): Promise<string> {
  const file = join(cwd, name);
  const r = await db(t, 'dump', '--dump-file', file);
  expect(r.stdout).toMatch(new RegExp(`^Wrote \\d+ bytes to ${file}`));
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('CREATE TABLE public.organization');
  return file;
}

async function restoreInto(t: Target, file: string, ...extra: string[]) {
  const r = await db(t, 'restore', '--dump-file', file, ...extra);
  expect(r.stdout).toMatch(/Restored \d+ statements from /);
  return r;
}

/**
 * Restoring into a database that holds data needs --yes; with it the dump replaces everything
 * (a row added by hand beforehand is gone afterwards).
 */
async function replaceChecks(t: Target, file: string, expectedOrganizations: string[]) {
  await t.query(`INSERT INTO organization (name, slug) VALUES ('Marker', 'marker')`);
  const before = await organizationNames(t);
  expect(before).toContain('Marker');

  const refused = await muster(['database', 'restore', '--dump-file', file], { cwd, env: t.env });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('The database is not empty; pass --yes to replace its contents with the dump');
  expect(await organizationNames(t)).toEqual(before);

  await restoreInto(t, file, '--yes');
  expect(await organizationNames(t)).toEqual(expectedOrganizations);
}

describe('muster database dump and restore', { timeout: 300_000 }, () => {
  let embeddedSource: Target;
  let embeddedDump: string;

  beforeAll(async () => {
    // An embedded database holding a user and an organization made through the API.
    embeddedSource = await fresh('embedded', true);
    await withServer(embeddedSource, (base) => populate(base, 'alice@example.com', 'Acme'));
    embeddedDump = await dumpOf(embeddedSource, 'embedded.sql');
  }, 300_000);

  it('dump writes muster-backup.sql in the working directory by default', async () => {
    const here = tempDir();
    try {
      const r = await musterOk(['database', 'dump'], { cwd: here, env: embeddedSource.env });
      expect(r.stdout).toContain(join(here, 'muster-backup.sql'));
      expect(existsSync(join(here, 'muster-backup.sql'))).toBe(true);
    } finally {
      rmSync(here, { recursive: true, force: true });
    }
  });

  let embeddedCopy: Target;

  it('an embedded dump restores into a fresh embedded data directory', async () => {
    embeddedCopy = await fresh('embedded');
    await restoreInto(embeddedCopy, embeddedDump);
    expect(await withServer(embeddedCopy, (base) => organizationsOf(base, 'alice@example.com'))).toEqual(['Acme', 'default']);
  });

  it('restore into an embedded database holding data needs --yes, and then replaces it', async () => {
    await replaceChecks(embeddedCopy, embeddedDump, ['Acme', 'default']);
  });

  describe.skipIf(!SERVER_URL)('across the embedded database and a PostgreSQL server', () => {
    let serverCopy: Target;
    let serverDump: string;

    it('an embedded dump restores into a fresh PostgreSQL database', async () => {
      serverCopy = await fresh('postgres');
      const r = await restoreInto(serverCopy, embeddedDump);
      // A PostgreSQL 18 dump carries settings an older server lacks; they are skipped, not fatal.
      for (const line of r.stdout.split('\n').filter((l) => l.startsWith('skipped: '))) expect(line).toMatch(/^skipped: (SET|SELECT pg_catalog\.set_config)/);
      await withServer(serverCopy, async (base) => {
        expect(await organizationsOf(base, 'alice@example.com')).toEqual(['Acme', 'default']);
        // Sequences came along: new rows get fresh ids.
        await populate(base, 'bob@example.com', 'Globex');
        expect(await organizationsOf(base, 'bob@example.com')).toEqual(['Globex', 'default']);
      });
    });

    it('a PostgreSQL dump restores into a fresh embedded data directory', async () => {
      serverDump = await dumpOf(serverCopy, 'server.sql');
      const copy = await fresh('embedded');
      await restoreInto(copy, serverDump);
      await withServer(copy, async (base) => {
        expect(await organizationsOf(base, 'alice@example.com')).toEqual(['Acme', 'default']);
        expect(await organizationsOf(base, 'bob@example.com')).toEqual(['Globex', 'default']);
      });
      expect(await organizationNames(copy)).toEqual(['Acme', 'Globex', 'default']);
    });

    it('restore into a PostgreSQL database holding data needs --yes, and then replaces it', async () => {
      // The server copy holds Acme and Globex; the embedded dump has only Acme.
      await replaceChecks(serverCopy, embeddedDump, ['Acme', 'default']);
      await withServer(serverCopy, async (base) => {
        expect(await organizationsOf(base, 'alice@example.com')).toEqual(['Acme', 'default']);
        const bob = await http(base, 'POST', '/default/auth/login', { body: { email: 'bob@example.com', password: PASSWORD } });
        expect(bob.status).not.toBe(200);
      });
    });
  });
});
