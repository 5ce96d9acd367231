// `muster database init|heads|history|downgrade|upgrade|stamp|drop`, run as a child process on a
// fresh embedded data directory and, when a PostgreSQL server is reachable through DATABASE_URL, on
// a fresh database on that server.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heads, loadRevisions } from '../src/db/migrate.ts';
import { embeddedTarget, muster, musterOk, postgresTarget, SERVER_URL, tempDir, type Target } from './cli-helpers.ts';

/** The line of `database history` for a revision: `parents -> id (marks), message`. */
function historyLine(out: string, id: string): string {
  const line = out.split('\n').find((l) => l.includes(`-> ${id}`));
  if (!line) throw new Error(`revision ${id} is not in the history:\n${out}`);
  return line;
}

function suite(kind: 'embedded' | 'postgres') {
  let target: Target;
  let cwd: string;
  let head: string;
  let headParents: string[];
  const run = (...args: string[]) => muster(['database', ...args], { cwd, env: target.env });
  const ok = (...args: string[]) => musterOk(['database', ...args], { cwd, env: target.env });

  beforeAll(async () => {
    const revisions = loadRevisions();
    const all = heads(revisions);
    expect(all).toHaveLength(1);
    head = all[0];
    headParents = [...revisions.get(head)!.down].sort();
    cwd = tempDir();
    target = kind === 'embedded' ? embeddedTarget() : await postgresTarget();
  });
  afterAll(async () => {
    await target?.cleanup();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it('init creates the schema and the default organization and project; a second init does nothing', async () => {
    // Against a server, init needs only the database URL; the secrets matter to the API server.
    const env = kind === 'postgres' ? { DATABASE_URL: target.env.DATABASE_URL } : target.env;
    const r = await musterOk(['database', 'init'], { cwd, env });
    expect(r.stdout).toContain(`Upgraded to ${head}`);
    expect(r.stdout).toContain('Created organization "default" with project "default"');
    expect(r.stdout).toContain('Database initialized.');
    if (kind === 'embedded') expect(existsSync(join(target.env.MUSTER_DATA_DIR, 'secrets.json'))).toBe(true);

    const check = () =>
      target.connected(async (q) => ({
        organizations: await q('SELECT id, slug, "default" FROM organization'),
        projects: await q('SELECT name, "default", organization_id FROM project'),
        applied: (await q<{ version_num: string }>('SELECT version_num FROM muster_revision')).map((x) => x.version_num),
      }));
    const first = await check();
    expect(first.applied).toEqual([head]);
    expect(first.organizations).toEqual([{ id: expect.any(Number), slug: 'default', default: true }]);
    expect(first.projects).toEqual([{ name: 'default', default: true, organization_id: first.organizations[0].id }]);
    expect(historyLine((await ok('history')).stdout, head)).toContain('(head, applied)');

    const again = await ok('init');
    expect(again.stdout.trim()).toBe('Database already initialized; nothing to do.');
    expect(await check()).toEqual(first);
  });

  it('heads names the newest revision', async () => {
    const lines = (await ok('heads')).stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${head} \\(head\\) `));
  });

  it('downgrade undoes one revision and upgrade applies it again', async () => {
    const tables = (await target.state()).tables;
    const down = await ok('downgrade');
    expect(down.stdout).toContain(`Downgraded from ${head}`);
    expect(down.stdout).toContain('Undid 1 revision(s).');
    const after = await target.state();
    expect(after.applied).toEqual(headParents);
    if (headParents.length === 0) expect(after.tables).toEqual(['muster_revision']);
    const history = (await ok('history')).stdout;
    expect(historyLine(history, head)).not.toContain('applied');
    for (const p of headParents) expect(historyLine(history, p)).toContain('applied');

    const up = await ok('upgrade');
    expect(up.stdout).toContain(`Upgraded to ${head}`);
    expect(up.stdout).toContain('Applied 1 revision(s).');
    expect(await target.state()).toEqual({ tables, applied: [head] });
    expect(historyLine((await ok('history')).stdout, head)).toContain('(head, applied)');
    expect((await ok('upgrade')).stdout.trim()).toBe('Already up to date.');
  });

  it('stamp records a revision as applied without running it', async () => {
    const { tables } = await target.state();
    expect((await ok('stamp', 'base')).stdout.trim()).toBe('Stamped base.');
    expect(await target.state()).toEqual({ tables, applied: [] });

    // No argument means the heads.
    expect((await ok('stamp')).stdout.trim()).toBe('Stamped heads.');
    expect(await target.state()).toEqual({ tables, applied: [head] });

    const bad = await run('stamp', 'nosuchrevision');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('No revision named nosuchrevision');
  });

  it('drop without --yes and without a terminal drops nothing', async () => {
    const before = await target.state();
    const r = await ok('drop');
    expect(r.stdout).toContain('Nothing dropped');
    expect(await target.state()).toEqual(before);
  });

  it('drop --yes empties the database; init builds it again', async () => {
    expect((await ok('drop', '--yes')).stdout.trim()).toBe('Dropped all data.');
    expect(await target.state()).toEqual({ tables: [], applied: [] });

    // Reading the history of an empty database leaves it empty.
    expect(historyLine((await ok('history')).stdout, head)).not.toContain('applied');
    const down = await run('downgrade');
    expect(down.code).not.toBe(0);
    expect(down.stderr).toContain('nothing to downgrade');
    expect((await target.state()).tables).toEqual([]);

    expect((await ok('init')).stdout).toContain('Database initialized.');
    expect((await target.state()).applied).toEqual([head]);
    expect(await target.query('SELECT slug FROM organization')).toEqual([{ slug: 'default' }]);
  });
}

const timeout = 300_000;
describe('muster database on the embedded database', { timeout }, () => suite('embedded'));
describe.skipIf(!SERVER_URL)('muster database on a PostgreSQL server', { timeout }, () => suite('postgres'));
