// `muster plugins list|install|uninstall` and MUSTER_PLUGINS, run as child processes on a fresh
// embedded data directory, with the fixture package test/fixtures/muster-plugin-example loaded by
// its absolute path.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_PLUGINS } from '../src/plugins/registry.ts';
import { embeddedTarget, http, muster, musterOk, ROOT, startServer, stopAllServers, tempDir, type Target } from './cli-helpers.ts';

/** Muster's own plugins, by slug, sorted as the catalogue query sorts them. */
const BUILTINS = BUILTIN_PLUGINS.map((p) => p.slug);
const builtinRows = () => BUILTIN_PLUGINS.map((p) => ({ slug: p.slug, title: p.title }));
const bySlug = (a: { slug: string }, b: { slug: string }) => (a.slug < b.slug ? -1 : 1);

const FIXTURE = join(ROOT, 'test', 'fixtures', 'muster-plugin-example', 'index.js');

let target: Target;
let cwd: string;
const withFixture = () => ({ ...target.env, MUSTER_PLUGINS: FIXTURE });

beforeAll(() => {
  cwd = tempDir();
  target = embeddedTarget();
});
afterAll(async () => {
  await stopAllServers();
  await target?.cleanup();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

const catalogue = () => target.query<{ slug: string; title: string }>('SELECT slug, title FROM plugin ORDER BY slug');
const instancesOf = (slug: string) =>
  target.query<{ enabled: boolean }>(
    `SELECT i.enabled FROM plugin_instance i JOIN plugin p ON p.id = i.plugin_id JOIN project pr ON pr.id = i.project_id WHERE p.slug = '${slug}' AND pr.name = 'default'`,
  );

describe('muster plugins', () => {
  it('list shows the built-in plugins and those of MUSTER_PLUGINS, without a database', async () => {
    const r = await musterOk(['plugins', 'list'], { cwd, env: withFixture() });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['Title', 'Slug', 'Version', 'Type', 'Author', 'Description']);
    const row = (slug: string) => lines.find((l) => l.includes(` ${slug} `))?.split(/\s{2,}/);
    expect(row('muster-ticket')).toEqual(expect.arrayContaining(['Muster Plugin - Ticket Management', 'muster-ticket', 'ticket', 'Muster']));
    // The types as the summary spells them, Muster's own plugin of each.
    expect(row('muster-storage')).toEqual(expect.arrayContaining(['muster-storage', 'storage']));
    expect(row('muster-jitsi-conference')).toEqual(expect.arrayContaining(['muster-jitsi-conference', 'conference']));
    expect(row('muster-participant-group')).toEqual(expect.arrayContaining(['muster-participant-group', 'participant_group']));
    expect(row('example-webhook')).toEqual([
      'Example Plugin - Signed Webhook',
      'example-webhook',
      '0.1.0',
      'webhook',
      'Example Corp',
      'Posts each event to its URL, signed with a shared secret.',
    ]);

    const without = await musterOk(['plugins', 'list'], { cwd, env: target.env });
    expect(without.stdout).not.toContain('example-webhook');
  });

  it("list shows the document types as the service summary spells them, Muster's own built in", async () => {
    const r = await musterOk(['plugins', 'list'], { cwd, env: target.env });
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s{2,}/));
    const typeOf = (slug: string) => rows.find((cols) => cols[1] === slug)?.[3];
    expect(typeOf('muster-document')).toBe('document');
    expect(typeOf('muster-document-resolver')).toBe('document-resolver');
    expect(typeOf('muster-participant-resolver')).toBe('participant');
  });

  it('refuses a MUSTER_PLUGINS entry that cannot be loaded', async () => {
    const r = await muster(['plugins', 'list'], { cwd, env: { ...target.env, MUSTER_PLUGINS: join(cwd, 'missing.js') } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('MUSTER_PLUGINS names');
    expect(r.stderr).toContain('missing.js');
  });

  it('install adds the plugins missing from the catalogue, each project getting a disabled instance; --force refreshes', async () => {
    // The first start of a database writes the catalogue of the plugins loaded then: the built-ins.
    const first = await musterOk(['plugins', 'install'], { cwd, env: target.env });
    expect(first.stdout).toContain(`Added: ${BUILTINS.join(', ')}`);
    expect((await catalogue()).map((p) => p.slug)).toEqual([...BUILTINS].sort());
    const second = await musterOk(['plugins', 'install'], { cwd, env: target.env });
    expect(second.stdout).toContain(`Already installed: ${BUILTINS.join(', ')}`);

    const added = await musterOk(['plugins', 'install'], { cwd, env: withFixture() });
    expect(added.stdout).toContain('Added: example-webhook');
    expect(await catalogue()).toEqual([{ slug: 'example-webhook', title: 'Example Plugin - Signed Webhook' }, ...builtinRows()].sort(bySlug));
    expect(await instancesOf('example-webhook')).toEqual([{ enabled: false }]);

    const title = async () => (await catalogue()).find((p) => p.slug === 'example-webhook')?.title;
    await target.query(`UPDATE plugin SET title = 'Stale' WHERE slug = 'example-webhook'`);
    const again = await musterOk(['plugins', 'install'], { cwd, env: withFixture() });
    expect(again.stdout).toContain(`Already installed: ${[...BUILTINS, 'example-webhook'].join(', ')}`);
    expect(await title()).toBe('Stale');
    const forced = await musterOk(['plugins', 'install', '--force'], { cwd, env: withFixture() });
    expect(forced.stdout).toContain(`Refreshed: ${[...BUILTINS, 'example-webhook'].join(', ')}`);
    expect(await title()).toBe('Example Plugin - Signed Webhook');
    expect(await instancesOf('example-webhook')).toHaveLength(1);
  }, 240_000);

  it('the server loads MUSTER_PLUGINS and serves their schemas', async () => {
    const server = await startServer({ cwd, env: withFixture() });
    try {
      const reg = await http(server.base, 'POST', '/default/auth/register', { body: { email: 'plugins@example.com', password: 'correct horse battery' } });
      const res = await http(server.base, 'GET', '/default/plugins?itemsPerPage=-1', { token: reg.body.token });
      const example = res.body.items.find((p: { slug: string }) => p.slug === 'example-webhook');
      expect(example.configuration_schema.properties.signing_secret).toMatchObject({ type: 'string', writeOnly: true });
    } finally {
      await server.stop();
    }
  });

  it('uninstall removes plugins with their instances; an unknown slug is an error', async () => {
    const r = await musterOk(['plugins', 'uninstall', 'example-webhook'], { cwd, env: target.env });
    expect(r.stdout).toContain('Uninstalled: example-webhook');
    expect((await catalogue()).map((p) => p.slug)).toEqual([...BUILTINS].sort());
    expect(await instancesOf('example-webhook')).toEqual([]);

    const unknown = await muster(['plugins', 'uninstall', 'example-webhook'], { cwd, env: target.env });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('not installed: example-webhook');
  });
});

describe('docs/plugins.md', () => {
  it('shows the fixture package, which these tests load, as its example', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'plugins.md'), 'utf8');
    const shown = /`index.js`:\n\n```js\n([\s\S]*?)```/.exec(doc)?.[1];
    const code = readFileSync(FIXTURE, 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('//'))
      .join('\n');
    expect(shown?.trim()).toBe(code.trim());
  });
});
