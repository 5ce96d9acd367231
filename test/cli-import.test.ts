// `muster import dispatch` as a child process: a dry run of Dispatch's sample prints the report and
// writes nothing; a database that is not Dispatch's is refused with a message saying so.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTarget, muster, musterOk, postgresTarget, SERVER_URL, tempDir, type Target } from './cli-helpers.ts';
import { type DispatchServer, dispatchServer, sampleSql } from './dispatch-source.ts';

let cwd: string;
let target: Target;
let source: DispatchServer;
beforeAll(async () => {
  cwd = tempDir();
  target = SERVER_URL ? await postgresTarget() : embeddedTarget();
  source = await dispatchServer(SERVER_URL ?? '');
});
afterAll(async () => {
  source?.close();
  await target?.cleanup();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

describe('muster import dispatch', { timeout: 300_000 }, () => {
  it('prints what a dry run of the sample would bring and what has no home, and writes nothing', async () => {
    const from = source.restore('cli', sampleSql());
    const r = await musterOk(['import', 'dispatch', '--from', from, '--dry-run'], { cwd, env: target.env });
    expect(r.stdout).toContain('Organization default (dry run: nothing written): ids kept');
    expect(r.stdout).toMatch(/incident: 4 written, 0 unchanged/);
    expect(r.stdout).toMatch(/No home in Muster:\n(.|\n)*recommendation: 4 row\(s\)/);
    expect(await target.query('SELECT count(*)::int AS n FROM incident')).toEqual([{ n: 0 }]);
  });

  it('refuses a database that is not Dispatch', async () => {
    const from = source.restore('cli_other', 'CREATE TABLE things (id int);');
    const r = await muster(['import', 'dispatch', '--from', from], { cwd, env: target.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('muster: this database is not a Dispatch database');
  });
});
