// `muster user` and `muster token` as child processes, on a fresh embedded data directory (or a
// fresh database on the PostgreSQL server named by DATABASE_URL): accounts made and changed by an
// operator, tokens printed once and used against a running server, every change in the audit log,
// a password reset link handed over when no mail transport is configured.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  childEnv,
  embeddedTarget,
  http,
  muster,
  musterOk,
  postgresTarget,
  SERVER_URL,
  startServer,
  stopAllServers,
  tempDir,
  type Target,
} from './cli-helpers.ts';

let cwd: string;
let target: Target;
beforeAll(async () => {
  cwd = tempDir();
  target = SERVER_URL ? await postgresTarget({ migrated: true }) : embeddedTarget({ migrated: true });
});
afterAll(async () => {
  await stopAllServers();
  await target?.cleanup();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

/** `muster ARGS...` with `input` on its standard input. */
function musterWithInput(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv(target.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => ok({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const run = (args: string[]) => musterOk(args, { cwd, env: target.env });
const rows = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .slice(2)
    .map((l) => l.split(/\s{2,}/));
const audit = () =>
  target.query<{ action: string; actor_email: string | null; target_label: string; details: { via?: string } }>(
    'SELECT action, actor_email, target_label, details FROM audit_log ORDER BY id',
  );

describe('muster user and muster token', { timeout: 300_000 }, () => {
  let personal: string;
  let service: string;
  let readOnly: string;

  it('user create makes confirmed accounts, with a password from standard input; list shows them', async () => {
    const owner = await musterWithInput(
      ['user', 'create', 'Ops@Example.com', '--organization', 'default', '--role', 'Owner', '--password-stdin'],
      'a long passphrase\n',
    );
    expect(owner.code, owner.stderr).toBe(0);
    expect(owner.stdout).toContain('Created ops@example.com: Owner in default');
    await run(['user', 'create', 'member@example.com', '--organization', 'default']);
    const again = await muster(['user', 'create', 'member@example.com', '--organization', 'default'], { cwd, env: target.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('member@example.com is a member of default already');
    const bad = await muster(['user', 'set-role', 'member@example.com', 'King', '--organization', 'default'], { cwd, env: target.env });
    expect(bad.stderr).toContain('unknown role "King"');
    const short = await musterWithInput(['user', 'create', 'short@example.com', '--organization', 'default', '--password-stdin'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('A password needs at least 8 characters.');

    const list = await run(['user', 'list', '--organization', 'default']);
    expect(list.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['Email', 'Organization', 'Role', 'Confirmed', 'Active', 'Service account']);
    expect(rows(list.stdout)).toEqual([
      ['member@example.com', 'default', 'Member', 'yes', 'yes', 'no'],
      ['ops@example.com', 'default', 'Owner', 'yes', 'yes', 'no'],
    ]);
    const users = await target.query<{ email: string; confirmed: boolean }>(
      'SELECT email, email_confirmed_at IS NOT NULL AS confirmed FROM app_user ORDER BY email',
    );
    expect(users).toEqual([
      { email: 'member@example.com', confirmed: true },
      { email: 'ops@example.com', confirmed: true },
    ]);
  });

  it('set-role changes a role and keeps the last Owner; token create prints the token once and caps its role', async () => {
    expect((await run(['user', 'set-role', 'member@example.com', 'admin', '--organization', 'default'])).stdout).toContain('Member -> Admin');
    const last = await muster(['user', 'set-role', 'ops@example.com', 'Member', '--organization', 'default'], { cwd, env: target.env });
    expect(last.stderr).toContain('last Owner');

    const mine = await run(['token', 'create', '--organization', 'default', '--user', 'member@example.com', '--name', 'laptop']);
    personal = mine.stdout.trim();
    expect(personal).toMatch(/^mst_[\w-]+$/);
    expect(mine.stderr).toContain('"laptop" for member@example.com in default: Admin, does not expire');
    const over = await muster(['token', 'create', '--organization', 'default', '--user', 'member@example.com', '--name', 'x', '--role', 'Owner'], {
      cwd,
      env: target.env,
    });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('cannot grant Owner');

    const bot = await run([
      'token',
      'create',
      '--organization',
      'default',
      '--user',
      'ops@example.com',
      '--name',
      'deploys',
      '--service-account',
      'Deploy Bot',
      '--role',
      'Admin',
      '--expires-in-days',
      '30',
    ]);
    service = bot.stdout.trim();
    expect(bot.stderr).toContain('Created service account deploy-bot@default.service-accounts.invalid');
    const ro = await run(['token', 'create', '--organization', 'default', '--user', 'ops@example.com', '--name', 'dashboards', '--read-only']);
    readOnly = ro.stdout.trim();

    const list = await run(['token', 'list']);
    const table = rows(list.stdout);
    expect(table.map((r) => [r[1], r[2], r[4], r[5], r[6]])).toEqual([
      ['default', 'dashboards', 'ops@example.com', 'Owner', 'yes'],
      ['default', 'deploys', 'deploy-bot@default.service-accounts.invalid', 'Admin', 'no'],
      ['default', 'laptop', 'member@example.com', 'Admin', 'no'],
    ]);
    expect(table[1][7]).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Only hashes are stored.
    const stored = await target.query<{ token_hash: string }>('SELECT token_hash FROM api_token');
    expect(JSON.stringify(stored)).not.toContain(personal.slice(4));
  });

  it('the tokens work against a running server; a CLI command meanwhile says who holds the embedded database', async () => {
    const server = await startServer({ cwd, env: target.env });
    try {
      const me = await http(server.base, 'GET', '/default/auth/me', { token: personal });
      expect(me).toMatchObject({ status: 200, body: { email: 'member@example.com' } });
      const made = await http(server.base, 'POST', '/default/incidents', {
        token: service,
        body: { title: 'From the pipeline', description: 'Deploy failed.' },
      });
      expect(made.status).toBe(200);
      expect(made.body.reporter.individual.email).toBe('deploy-bot@default.service-accounts.invalid');
      expect((await http(server.base, 'GET', '/default/incidents', { token: readOnly })).status).toBe(200);
      expect((await http(server.base, 'POST', '/default/incidents', { token: readOnly, body: { title: 'No', description: 'No.' } })).status).toBe(403);
      const login = await http(server.base, 'POST', '/default/auth/login', { body: { email: 'ops@example.com', password: 'a long passphrase' } });
      expect(login.status).toBe(200);
      if (target.kind === 'embedded') {
        const busy = await muster(['token', 'list'], { cwd, env: target.env });
        expect(busy.code).toBe(1);
        expect(busy.stderr).toMatch(/in use by process \d+.*POST \/\{organization\}\/api-tokens/);
      }
    } finally {
      await server.stop();
    }
  });

  it('deactivate and revoke refuse tokens; confirm proves an address; every change is in the audit log', async () => {
    const ids = await target.query<{ id: number; name: string }>('SELECT id, name FROM api_token ORDER BY id');
    const dashboards = ids.find((r) => r.name === 'dashboards')!.id;
    expect((await run(['token', 'revoke', String(dashboards)])).stdout).toContain(`Revoked API token ${dashboards} "dashboards"`);
    expect((await muster(['token', 'revoke', String(dashboards)], { cwd, env: target.env })).stderr).toContain('revoked already');
    expect((await run(['user', 'deactivate', 'member@example.com'])).stdout).toContain('Deactivated member@example.com; API tokens revoked: 1');
    const left = await target.query<{ name: string; revoked: boolean }>('SELECT name, revoked_at IS NOT NULL AS revoked FROM api_token ORDER BY id');
    expect(left).toEqual([
      { name: 'laptop', revoked: true },
      { name: 'deploys', revoked: false },
      { name: 'dashboards', revoked: true },
    ]);
    expect(rows((await run(['token', 'list'])).stdout).map((r) => r[2])).toEqual(['deploys']);

    await target.query(`UPDATE app_user SET email_confirmed_at = NULL WHERE email = 'ops@example.com'`);
    expect((await run(['user', 'confirm', 'ops@example.com'])).stdout).toContain('Confirmed ops@example.com');

    // The server's own entries (the sign-in above) aside, every entry is the operator's.
    const entries = (await audit()).filter((e) => e.details?.via === 'cli');
    expect(entries.every((e) => e.actor_email === null)).toBe(true);
    expect(entries.map((e) => `${e.action} ${e.target_label}`)).toEqual([
      'user.created ops@example.com',
      'user.created member@example.com',
      'user.role_changed member@example.com',
      'api_token.created laptop',
      'service_account.created deploy-bot@default.service-accounts.invalid',
      'api_token.created deploys',
      'api_token.created dashboards',
      'api_token.revoked dashboards',
      'api_token.revoked laptop',
      'user.deactivated member@example.com',
      'user.email_confirmed ops@example.com',
    ]);

    // A password reset: with no mail transport, the link is printed for the operator to hand over.
    const reset = await run(['user', 'reset-password', 'ops@example.com', '--organization', 'default']);
    expect(reset.stdout.trim()).toMatch(/^http:\/\/127\.0\.0\.1:8000\/default\/auth\/reset\?token=[\w%-]+$/);
    expect(reset.stderr).toContain('No mail transport is configured');
    const links = await target.query<{ purpose: string; used: boolean }>('SELECT purpose, used_at IS NOT NULL AS used FROM email_link');
    expect(links).toEqual([{ purpose: 'reset', used: false }]);
    const refused = await muster(['user', 'reset-password', 'deploy-bot@default.service-accounts.invalid', '--organization', 'default'], {
      cwd,
      env: target.env,
    });
    expect(refused.stderr).toContain('is a service account');
  });
});
