// The embedded database's failures, through the `muster` program: every start-up failure names the
// data directory and the cause in one line (no stack), a directory another process holds is
// refused, and `muster database check` verifies a database and fails on damage that is otherwise
// silent (a table file cut short, a page damaged on disk).
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, rmSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { muster, musterOk, postgresTarget, SERVER_URL, startServer, stopAllServers, tempDir } from './cli-helpers.ts';
import { openEmbedded } from '../src/db/connection.ts';

let cwd: string;
let template: string;
const copies: string[] = [];

/** A copy of one initialized data directory (initializing takes a while). */
function copy(): string {
  const dir = tempDir('muster-cli-data-');
  cpSync(template, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

/** The data file of a table, relative to pgdata. */
async function fileOf(dataDir: string, table: string): Promise<string> {
  const db = await openEmbedded(dataDir);
  try {
    const [row] = await db.query<{ path: string }>('SELECT pg_relation_filepath($1::regclass) AS path', [table]);
    return join(dataDir, 'pgdata', row.path);
  } finally {
    await db.close();
  }
}

/** A one-line failure naming the directory, no stack, exit 1. */
function expectOneLineFailure(r: { code: number | null; stderr: string }, pgdata: string, cause: RegExp) {
  expect(r.code).toBe(1);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0].startsWith(`muster: the embedded database in ${pgdata} cannot be opened: `)).toBe(true);
  expect(lines[0]).toMatch(cause);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr).not.toContain('Aborted()');
}

beforeAll(async () => {
  cwd = tempDir();
  template = tempDir('muster-cli-template-');
  await musterOk(['database', 'init'], { cwd, env: { MUSTER_DATA_DIR: template } });
}, 180_000);
afterAll(async () => {
  await stopAllServers();
  for (const d of [cwd, template, ...copies]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('the embedded database', { timeout: 300_000 }, () => {
  it('database check passes on a sound database, with data checksums on', async () => {
    const r = await musterOk(['database', 'check'], { cwd, env: { MUSTER_DATA_DIR: copy() } });
    expect(r.stdout).toMatch(/Checked \d+ tables \(\d+ rows\) and \d+ indexes with amcheck; data checksums on\./);
    expect(r.stdout).toContain('No problems found.');
  });

  it('database check fails, naming the table, when a table file was cut short (which serving does not notice)', async () => {
    const dir = copy();
    const file = await fileOf(dir, 'incident_priority');
    truncateSync(file, 0);
    const r = await muster(['database', 'check'], { cwd, env: { MUSTER_DATA_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/problem: "public"\."incident_priority": reading the table through its primary key failed: could not read blocks? 0/);
    expect(r.stderr).toMatch(/muster: 1 problem\(s\) found; restore the database from a dump/);
  });

  it('database check fails on a page damaged on disk: its checksum no longer matches', async () => {
    const dir = copy();
    const file = await fileOf(dir, 'incident_priority');
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.from('damaged damaged damaged'), 0, 23, 8000);
    closeSync(fd);
    const r = await muster(['database', 'check'], { cwd, env: { MUSTER_DATA_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('problem: "public"."incident_priority": reading the table failed: invalid page in block 0');
  });

  it('server start on a damaged pg_control fails in one line naming the directory and the cause', async () => {
    const dir = copy();
    truncateSync(join(dir, 'pgdata', 'global', 'pg_control'), 100);
    const r = await muster(['server', 'start', '--port', '0'], { cwd, env: { MUSTER_DATA_DIR: dir } });
    expectOneLineFailure(r, join(dir, 'pgdata'), /global\/pg_control is damaged \(100 bytes, expected 8192\)/);
  });

  it("server start on a pg_control overwritten with garbage gives PostgreSQL's reason, in one line", async () => {
    const dir = copy();
    const fd = openSync(join(dir, 'pgdata', 'global', 'pg_control'), 'r+');
    writeSync(fd, Buffer.alloc(200, 0x5a), 0, 200, 0);
    closeSync(fd);
    const r = await muster(['server', 'start', '--port', '0'], { cwd, env: { MUSTER_DATA_DIR: dir } });
    expectOneLineFailure(r, join(dir, 'pgdata'), /: \S.+/);
  });

  it('server start on a read-only data directory fails in one line saying so', async () => {
    const dir = copy();
    const asRoot = process.getuid?.() === 0;
    let user: { uid: number; gid: number } | undefined;
    if (asRoot) {
      try {
        user = { uid: Number(execFileSync('id', ['-u', 'nobody']).toString()), gid: Number(execFileSync('id', ['-g', 'nobody']).toString()) };
      } catch {
        return; // no ordinary user to run as
      }
      execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
    }
    chmodSync(dir, 0o555);
    chmodSync(join(dir, 'pgdata'), 0o555);
    try {
      const r = await muster(['server', 'start', '--port', '0'], { cwd: dir, env: { MUSTER_DATA_DIR: dir, HOME: dir }, ...user });
      expectOneLineFailure(r, join(dir, 'pgdata'), /is not writable \(permission denied\)/);
    } finally {
      chmodSync(dir, 0o755);
      chmodSync(join(dir, 'pgdata'), 0o700);
    }
  });

  it('a data directory a running server holds is refused by another process, and free again once it stops', async () => {
    const dir = copy();
    const server = await startServer({ cwd, env: { MUSTER_DATA_DIR: dir } });
    const r = await muster(['database', 'upgrade'], { cwd, env: { MUSTER_DATA_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `muster: the embedded database in ${join(dir, 'pgdata')} cannot be opened: it is in use by process ${server.child.pid} (a running muster server?); the embedded database is one process's: stop that process first, or use the server's API`,
    );
    expect((await server.stop()).code).toBe(0);
    expect(existsSync(join(dir, 'muster.pid'))).toBe(false);
    await musterOk(['database', 'upgrade'], { cwd, env: { MUSTER_DATA_DIR: dir } });
  });

  it('a lock left by a process that ended (kill -9) does not stop the next start', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'muster.pid'), '999999\n');
    const r = await musterOk(['database', 'upgrade'], { cwd, env: { MUSTER_DATA_DIR: dir } });
    expect(r.stdout).toContain('Already up to date.');
  });
});

describe.skipIf(!SERVER_URL)('database check on a PostgreSQL server', { timeout: 300_000 }, () => {
  it('passes on a sound database', async () => {
    const target = await postgresTarget();
    try {
      await musterOk(['database', 'init'], { cwd, env: target.env });
      const r = await musterOk(['database', 'check'], { cwd, env: target.env });
      expect(r.stdout).toMatch(/Checked \d+ tables \(\d+ rows\)/);
      expect(r.stdout).toContain('No problems found.');
    } finally {
      await target.cleanup();
    }
  });
});
