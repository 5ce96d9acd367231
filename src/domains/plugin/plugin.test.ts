// The plugin catalogue and plugin instances over the API: schemas in the catalogue, configuration
// checked, encrypted at rest and never shown in clear, one enabled instance per type per project,
// Admin-only writes, tenancy. The third-party plugin is the fixture package, loaded by path as
// MUSTER_PLUGINS loads it; a second plugin of its type is declared here.
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { Type } from '@sinclair/typebox';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type Res } from '../../../test/helpers.ts';
import { useWorld } from '../../../test/worlds/world.ts';
import { loadPluginPackages, registerPlugins } from '../../plugins/registry.ts';
import { decryptConfiguration, SECRET_MASK } from '../../plugins/secrets.ts';
import { ConfigurationRefused, type WebhookPlugin } from '../../plugins/types.ts';
import { workflow } from '../workflow/table.ts';
import { ensureCatalogue, installPlugins, uninstallPlugins } from './catalogue.ts';
import { pluginInstanceReader } from './service.ts';
import { plugin, pluginInstance, pluginOffered } from './table.ts';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/muster-plugin-example/index.js', import.meta.url));
const SECRET = 'hunter2-but-longer';

const plainWebhook: WebhookPlugin = {
  slug: 'test-plain-webhook',
  title: 'Test Plugin - Plain Webhook',
  type: 'webhook',
  version: '0.0.1',
  author: 'Tests',
  author_url: '',
  description: 'Posts events unsigned.',
  async deliver() {},
};

/** A check held until the test lets it answer: a vendor that is slow to answer. */
let held: { reached: () => void; answer: Promise<void> } | undefined;
/** What each check was asked with, secrets in clear. */
const checked: Record<string, unknown>[] = [];

const checkedWebhook: WebhookPlugin = {
  ...plainWebhook,
  slug: 'test-checked-webhook',
  title: 'Test Plugin - Checked Webhook',
  description: 'Asks its vendor whether its token works.',
  configuration: Type.Object({ channel: Type.String(), token: Type.String({ writeOnly: true }) }, { additionalProperties: false }),
  async check(config) {
    checked.push(config);
    if (config.token === 'revoked') throw new ConfigurationRefused('token', 'The vendor refused the token.');
    if (held) {
      held.reached();
      await held.answer;
    }
  },
};

const w = useWorld();
let projectId: number;

beforeAll(async () => {
  const loaded = await loadPluginPackages(FIXTURE);
  registerPlugins([plainWebhook, checkedWebhook], 'plugin.test.ts');
  await installPlugins(w.t.database.db, { plugins: [...loaded, plainWebhook, checkedWebhook] });
  const created = await call(w.t.app, 'POST', '/default/projects', { token: w.owner, body: { name: 'Hooks', organization: { name: 'default' } } });
  projectId = created.body.id;
});

/** The response as the client receives it, before any parsing. */
async function rawText(method: string, path: string, token: string, body?: unknown): Promise<string> {
  const res = await w.t.app.inject({
    method: method as never,
    url: `/api/v1${path}`,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.body;
}

const instances = (token: string, filter: unknown = [{ model: 'Project', field: 'id', op: '==', value: projectId }]) =>
  call(w.t.app, 'GET', '/default/plugins/instances', { token, query: { itemsPerPage: -1, filter: JSON.stringify(filter) } });

const bySlug = (res: Res, slug: string) => res.body.items.filter((i: { plugin: { slug: string } }) => i.plugin.slug === slug);

async function storedConfiguration(id: number) {
  const [row] = await w.t.database.db.select({ c: pluginInstance.configuration }).from(pluginInstance).where(eq(pluginInstance.id, id));
  return decryptConfiguration(row.c, w.t.settings.encryptionKey!);
}

const createSigned = (body: Record<string, unknown>, token = w.admin) =>
  call(w.t.app, 'POST', '/default/plugins/instances', { token, body: { plugin: { slug: 'example-webhook' }, project: { id: projectId }, ...body } });

describe('the plugin catalogue', () => {
  it('gains at start-up a plugin it never offered (a built-in new since an upgrade); one uninstalled stays out', async () => {
    const db = w.t.database.db;
    const slug = 'slack-conversation';
    const instances = async () =>
      (await db.select({ id: pluginInstance.id }).from(pluginInstance).innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id)).where(eq(plugin.slug, slug)))
        .length;
    // A database from before the Slack plugin existed.
    await uninstallPlugins(db, [slug]);
    await db.delete(pluginOffered).where(eq(pluginOffered.slug, slug));
    expect(await instances()).toBe(0);
    expect((await ensureCatalogue(db))?.added).toContain(slug);
    expect(await instances()).toBeGreaterThan(0);
    // Uninstalled by an Owner: later starts leave it out.
    await uninstallPlugins(db, [slug]);
    expect((await ensureCatalogue(db))?.added ?? []).not.toContain(slug);
    expect(await instances()).toBe(0);
    await installPlugins(db);
    expect(await instances()).toBeGreaterThan(0);
  });

  it('lists every installed plugin with its configuration schema, to any member', async () => {
    const res = await call(w.t.app, 'GET', '/default/plugins', { token: w.member, query: { itemsPerPage: -1 } });
    expect(res.status).toBe(200);
    const slugs = res.body.items.map((p: { slug: string }) => p.slug);
    expect(slugs).toEqual(expect.arrayContaining(['muster-ticket', 'example-webhook', 'test-plain-webhook']));
    const signed = res.body.items.find((p: { slug: string }) => p.slug === 'example-webhook');
    expect(signed).toMatchObject({ title: 'Example Plugin - Signed Webhook', type: 'webhook', author: 'Example Corp', multiple: false });
    expect(signed.configuration_schema).toMatchObject({
      type: 'object',
      required: ['signing_secret'],
      properties: { signing_secret: { type: 'string', writeOnly: true } },
    });
    const ticket = res.body.items.find((p: { slug: string }) => p.slug === 'muster-ticket');
    expect(ticket.configuration_schema.properties.prefix).toMatchObject({ type: 'string', pattern: '^[A-Za-z0-9_-]+$' });
    const plain = res.body.items.find((p: { slug: string }) => p.slug === 'test-plain-webhook');
    expect(plain.configuration_schema).toBeNull();
  });

  it('searches, filters and sorts through the list engine', async () => {
    const q = await call(w.t.app, 'GET', '/default/plugins', { token: w.member, query: { q: 'example', itemsPerPage: -1 } });
    expect(q.body.items.map((p: { slug: string }) => p.slug)).toEqual(['example-webhook']);
    const filtered = await call(w.t.app, 'GET', '/default/plugins', {
      token: w.member,
      query: {
        itemsPerPage: -1,
        filter: JSON.stringify([{ model: 'Plugin', field: 'type', op: '==', value: 'webhook' }]),
        'sortBy[]': 'slug',
        'descending[]': true,
      },
    });
    expect(filtered.body.items.map((p: { slug: string }) => p.slug)).toEqual([
      'test-plain-webhook',
      'test-checked-webhook',
      'muster-webhook',
      'example-webhook',
    ]);
    const all = await call(w.t.app, 'GET', '/default/plugins', { token: w.member, query: { itemsPerPage: -1 } });
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    const paged = await call(w.t.app, 'GET', '/default/plugins', { token: w.member, query: { itemsPerPage: 1, page: 2 } });
    expect(paged.body).toMatchObject({ page: 2, itemsPerPage: 1, total: all.body.total });
    expect(paged.body.items[0].slug).toBe(all.body.items[1].slug);
    expect(paged.body.items).toHaveLength(1);
  });
});

describe('plugin instances', () => {
  it('a new project has an instance of every plugin; only the ticket plugin starts enabled', async () => {
    const res = await instances(w.member);
    expect(res.status).toBe(200);
    const ticket = bySlug(res, 'muster-ticket');
    expect(ticket).toHaveLength(1);
    expect(ticket[0]).toMatchObject({ enabled: true, configuration: {}, project: { id: projectId, name: 'Hooks' } });
    expect(ticket[0].configuration_schema).toEqual(ticket[0].plugin.configuration_schema);
    expect(bySlug(res, 'example-webhook')).toMatchObject([{ enabled: false, configuration: {} }]);
    expect(bySlug(res, 'test-plain-webhook')).toMatchObject([{ enabled: false }]);
  });

  it('keep a stored secret for a mask sent back only while it still goes to the same place', async () => {
    const oncall = bySlug(await instances(w.admin), 'muster-oncall-http')[0];
    const put = (configuration: Record<string, unknown>) =>
      call(w.t.app, 'PUT', `/default/plugins/instances/${oncall.id}`, { token: w.admin, body: { configuration } });
    expect((await put({ url: 'https://oncall.example/api', api_key: 'key-never-shown', routing_key: 'route-never-shown' })).status).toBe(200);
    expect((await put({ url: 'https://oncall.example/api', api_key: SECRET_MASK, routing_key: SECRET_MASK })).status).toBe(200);
    const elsewhere = await put({ url: 'https://attacker.example/api', api_key: SECRET_MASK, routing_key: SECRET_MASK });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['body.configuration.api_key', 'body.configuration.routing_key']);
    expect(await storedConfiguration(oncall.id)).toEqual({ url: 'https://oncall.example/api', api_key: 'key-never-shown', routing_key: 'route-never-shown' });
    const moved = await put({ url: 'https://oncall2.example/api', api_key: 'new-key', routing_key: 'new-route' });
    expect(moved.status).toBe(200);
    expect(moved.body.configuration).toEqual({ url: 'https://oncall2.example/api', api_key: SECRET_MASK, routing_key: SECRET_MASK });
  });

  it('refuse a URL or an SMTP host the outbound policy refuses, naming the field', async () => {
    const oncall = bySlug(await instances(w.admin), 'muster-oncall-http')[0];
    const email = bySlug(await instances(w.admin), 'muster-email')[0];
    const put = (id: number, configuration: Record<string, unknown>) =>
      call(w.t.app, 'PUT', `/default/plugins/instances/${id}`, { token: w.admin, body: { configuration } });
    for (const url of [
      'http://127.0.0.1:5432/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://localhost/',
      'file:///etc/passwd',
      'gopher://oncall.example/',
    ]) {
      const res = await put(oncall.id, { url, api_key: 'k' });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', 'url'], type: 'value_error.outbound_refused' })]);
    }
    for (const host of ['localhost', '10.0.0.5', '100.64.1.1']) {
      const res = await put(email.id, { host, from: 'muster@example.com' });
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', 'host'], type: 'value_error.outbound_refused' })]);
    }
    expect((await put(email.id, { host: 'smtp.example.com', from: 'muster@example.com' })).status).toBe(200);
  });

  it('need the SMTP password again when a change weakens where or how it travels', async () => {
    const email = bySlug(await instances(w.admin), 'muster-email')[0];
    const base = { host: 'smtp.example.com', port: 587, username: 'muster', from: 'muster@example.com' };
    const put = (configuration: Record<string, unknown>) =>
      call(w.t.app, 'PUT', `/default/plugins/instances/${email.id}`, { token: w.admin, body: { configuration } });
    expect((await put({ ...base, password: 'smtp-password-never-shown' })).status).toBe(200);
    for (const change of [{ starttls: false }, { reject_unauthorized: false }, { port: 25 }, { secure: true }, { host: 'smtp.attacker.example' }]) {
      const res = await put({ ...base, ...change, password: SECRET_MASK });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        expect.objectContaining({
          loc: ['body', 'configuration', 'password'],
          type: 'value_error.secret_required',
          msg: expect.stringContaining(Object.keys(change)[0]),
        }),
      ]);
    }
    expect(await storedConfiguration(email.id)).toMatchObject({ ...base, starttls: true, reject_unauthorized: true, password: 'smtp-password-never-shown' });
    // Other fields change with the mask sent back; the weakening ones with the password sent again.
    expect((await put({ ...base, username: 'muster2', password: SECRET_MASK })).status).toBe(200);
    expect((await put({ ...base, username: 'muster2', starttls: false, password: 'typed-again' })).status).toBe(200);
    expect(await storedConfiguration(email.id)).toMatchObject({ starttls: false, password: 'typed-again' });
  });

  it('show URLs whole to Admins and their origin to Members, in the list and in the workflows that nest them', async () => {
    const workflowInstance = bySlug(await instances(w.admin), 'muster-workflow')[0];
    const secretUrl = 'https://runs.example.com/hooks/capability-token';
    const put = await call(w.t.app, 'PUT', `/default/plugins/instances/${workflowInstance.id}`, {
      token: w.admin,
      body: { configuration: { url: secretUrl, auth_header: 'Bearer t' } },
    });
    expect(put.body.configuration.url).toBe(secretUrl);
    const flow = await call(w.t.app, 'POST', '/default/workflows', {
      token: w.admin,
      body: { name: 'Capability flow', resource_id: 'r', plugin_instance: { id: workflowInstance.id }, project: { id: projectId } },
    });
    expect(flow.status).toBe(200);
    expect(flow.body.plugin_instance.configuration.url).toBe(secretUrl);

    const memberList = await instances(w.member);
    expect(JSON.stringify(memberList.body)).not.toContain('capability-token');
    expect(bySlug(memberList, 'muster-workflow')[0].configuration.url).toBe('https://runs.example.com');
    expect(bySlug(await instances(w.admin), 'muster-workflow')[0].configuration.url).toBe(secretUrl);

    for (const read of [
      await call(w.t.app, 'GET', `/default/workflows/${flow.body.id}`, { token: w.member }),
      await call(w.t.app, 'GET', '/default/workflows', { token: w.member, query: { itemsPerPage: -1 } }),
    ]) {
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toContain('capability-token');
      expect(JSON.stringify(read.body)).toContain('"url":"https://runs.example.com"');
    }
    const adminRead = await call(w.t.app, 'GET', `/default/workflows/${flow.body.id}`, { token: w.admin });
    expect(adminRead.body.plugin_instance.configuration.url).toBe(secretUrl);
  });

  it('are created, read, updated and deleted by an Admin; a secret never leaves in clear', async () => {
    const created = await createSigned({ enabled: true, configuration: { signing_secret: SECRET, signature_header: 'x-hook-signature' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      enabled: true,
      configuration: { signing_secret: SECRET_MASK, signature_header: 'x-hook-signature' },
      plugin: { slug: 'example-webhook' },
      project: { id: projectId },
    });
    const id = created.body.id;
    expect(JSON.stringify(created.body)).not.toContain(SECRET);
    expect(await storedConfiguration(id)).toEqual({ signing_secret: SECRET, signature_header: 'x-hook-signature' });
    // At rest too: the column holds ciphertext.
    const [row] = await w.t.database.db.select({ c: pluginInstance.configuration }).from(pluginInstance).where(eq(pluginInstance.id, id));
    expect(row.c).not.toContain(SECRET);

    for (const [method, path] of [
      ['GET', `/default/plugins/instances/${id}`],
      ['GET', '/default/plugins/instances?itemsPerPage=-1'],
    ]) {
      const text = await rawText(method, path, w.admin);
      expect(text).toContain(`"id":${id}`);
      expect(text).toContain(SECRET_MASK);
      expect(text).not.toContain(SECRET);
    }

    // The mask sent back keeps the stored secret; the other field changes.
    const masked = await rawText('PUT', `/default/plugins/instances/${id}`, w.admin, {
      configuration: { signing_secret: SECRET_MASK, signature_header: 'x-other' },
    });
    expect(masked).not.toContain(SECRET);
    expect(JSON.parse(masked).configuration).toEqual({ signing_secret: SECRET_MASK, signature_header: 'x-other' });
    expect(await storedConfiguration(id)).toEqual({ signing_secret: SECRET, signature_header: 'x-other' });

    // No configuration, or null, leaves the stored one.
    for (const body of [{ enabled: true }, { configuration: null }, { configuration: {} }]) {
      const res = await call(w.t.app, 'PUT', `/default/plugins/instances/${id}`, { token: w.admin, body });
      expect(res.status).toBe(200);
    }
    expect(await storedConfiguration(id)).toEqual({ signing_secret: SECRET, signature_header: 'x-other' });

    // A new secret replaces the old one.
    await call(w.t.app, 'PUT', `/default/plugins/instances/${id}`, { token: w.admin, body: { configuration: { signing_secret: 'another-long-secret' } } });
    expect(await storedConfiguration(id)).toEqual({ signing_secret: 'another-long-secret', signature_header: 'x-signature' });

    // Deleting takes the workflows that run through it along.
    const [flow] = await w.t.database.db
      .insert(workflow)
      .values({ organization_id: await orgId(), project_id: projectId, name: 'Hook flow', resource_id: 'r', plugin_instance_id: id })
      .returning({ id: workflow.id });
    const deleted = await call(w.t.app, 'DELETE', `/default/plugins/instances/${id}`, { token: w.admin });
    expect(deleted).toMatchObject({ status: 200, body: null });
    expect((await call(w.t.app, 'GET', `/default/plugins/instances/${id}`, { token: w.admin })).status).toBe(404);
    expect(await w.t.database.db.select().from(workflow).where(eq(workflow.id, flow.id))).toEqual([]);
  });

  it('refuses a configuration its plugin does not take, naming the field', async () => {
    const bad = await createSigned({ configuration: { signing_secret: SECRET, signature_header: 'not a header!' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', 'signature_header'], type: 'value_error.str.regex' })]);

    const short = await createSigned({ configuration: { signing_secret: 'short' } });
    expect(short.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', 'signing_secret'], type: 'value_error.any_str.min_length' })]);

    const extra = await createSigned({ configuration: { signing_secret: SECRET, colour: 'blue' } });
    expect(extra.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', 'colour'], type: 'value_error.extra' })]);

    // A plugin without a schema takes nothing.
    const plain = await call(w.t.app, 'POST', '/default/plugins/instances', {
      token: w.admin,
      body: { plugin: { slug: 'test-plain-webhook' }, project: { id: projectId }, configuration: { url: 'x' } },
    });
    expect(plain.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', 'url'], type: 'value_error.extra' })]);

    // Enabling an instance whose required configuration is missing is refused, on create and on update.
    const unconfigured = await createSigned({ enabled: true });
    expect(unconfigured.status).toBe(422);
    expect(unconfigured.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', 'signing_secret'], type: 'value_error.missing' })]);
    const seeded = bySlug(await instances(w.admin), 'example-webhook').find((i: { configuration: object }) => Object.keys(i.configuration).length === 0);
    const enable = await call(w.t.app, 'PUT', `/default/plugins/instances/${seeded.id}`, { token: w.admin, body: { enabled: true } });
    expect(enable.status).toBe(422);
    expect(enable.body.detail[0].loc).toEqual(['body', 'configuration', 'signing_secret']);
    expect((await call(w.t.app, 'GET', `/default/plugins/instances/${seeded.id}`, { token: w.admin })).body.enabled).toBe(false);

    const unknown = await call(w.t.app, 'POST', '/default/plugins/instances', {
      token: w.admin,
      body: { plugin: { slug: 'no-such-plugin' }, project: { id: projectId } },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toEqual([expect.objectContaining({ loc: ['plugin'], type: 'value_error.not_found' })]);
  });

  it('refuses an e-mail plugin whose sender is not an e-mail address; one with a display name is taken', async () => {
    const emailInstance = (from: string) =>
      call(w.t.app, 'POST', '/default/plugins/instances', {
        token: w.admin,
        body: { plugin: { slug: 'muster-email' }, project: { id: projectId }, configuration: { host: 'smtp.example.com', from } },
      });
    for (const from of ['muster', 'muster@localhost', 'Muster <muster>', 'two words@example.com']) {
      const res = await emailInstance(from);
      expect(res.status, from).toBe(422);
      expect(res.body.detail, from).toEqual([{ loc: ['body', 'configuration', 'from'], msg: 'value is not a valid email address', type: 'value_error.email' }]);
    }
    for (const from of ['muster@example.com', 'Muster <muster@example.com>']) expect((await emailInstance(from)).status, from).toBe(200);
    // The schema the catalogue shows says so too.
    const catalogue = await call(w.t.app, 'GET', '/default/plugins', { token: w.admin, query: { itemsPerPage: -1 } });
    const email = catalogue.body.items.find((p: { slug: string }) => p.slug === 'muster-email');
    expect(email.configuration_schema.properties.from.format).toBe('email');
  });

  it('keeps one enabled instance per type per project: enabling one disables the other', async () => {
    const signed = await createSigned({ enabled: true, configuration: { signing_secret: SECRET } });
    const plain = bySlug(await instances(w.admin), 'test-plain-webhook')[0];
    const enabled = () =>
      instances(w.admin, [
        { model: 'Project', field: 'id', op: '==', value: projectId },
        { field: 'enabled', op: '==', value: true },
      ]);
    const enabledWebhooks = async () =>
      (await enabled()).body.items.filter((i: { plugin: { type: string } }) => i.plugin.type === 'webhook').map((i: { id: number }) => i.id);
    expect(await enabledWebhooks()).toEqual([signed.body.id]);

    const res = await call(w.t.app, 'PUT', `/default/plugins/instances/${plain.id}`, { token: w.admin, body: { enabled: true } });
    expect(res.status).toBe(200);
    expect(await enabledWebhooks()).toEqual([plain.id]);
    // Another type is not touched.
    expect((await enabled()).body.items.map((i: { plugin: { slug: string } }) => i.plugin.slug)).toContain('muster-ticket');

    const again = await call(w.t.app, 'PUT', `/default/plugins/instances/${signed.body.id}`, { token: w.admin, body: { enabled: true } });
    expect(again.body.enabled).toBe(true);
    expect(await enabledWebhooks()).toEqual([signed.body.id]);

    // The other project's enabled webhook stays enabled.
    const other = await call(w.t.app, 'POST', '/default/plugins/instances', {
      token: w.admin,
      body: { plugin: { id: plain.plugin.id }, project: { name: 'default' }, enabled: true },
    });
    expect(other.status).toBe(200);
    expect(await enabledWebhooks()).toEqual([signed.body.id]);
  });

  it('are read for records that nest them: masked, and null without a key to open them', async () => {
    const created = await createSigned({ configuration: { signing_secret: SECRET } });
    const ticket = bySlug(await instances(w.admin), 'muster-ticket')[0];
    const ctx = {
      db: w.t.database.db,
      settings: w.t.settings,
      user: { id: 1, email: 'admin@example.com' },
      organization: { id: await orgId(), slug: 'default' },
      role: 'Admin' as const,
    };
    const reads = await pluginInstanceReader(ctx.db, [created.body.id, ticket.id], ctx);
    expect(reads.get(created.body.id)?.configuration).toEqual({ signing_secret: SECRET_MASK, signature_header: 'x-signature' });
    expect(reads.get(ticket.id)?.plugin.slug).toBe('muster-ticket');
    const { settings: _s, ...keyless } = ctx;
    expect((await pluginInstanceReader(ctx.db, [created.body.id], keyless)).get(created.body.id)?.configuration).toBeNull();
  });

  it('Members may list instances but not read, create, change or delete one', async () => {
    const any = (await instances(w.member)).body.items[0];
    expect(any.id).toBeGreaterThan(0);
    expect((await createSigned({ configuration: { signing_secret: SECRET } }, w.member)).status).toBe(403);
    expect((await call(w.t.app, 'GET', `/default/plugins/instances/${any.id}`, { token: w.member })).status).toBe(403);
    expect((await call(w.t.app, 'PUT', `/default/plugins/instances/${any.id}`, { token: w.member, body: { enabled: false } })).status).toBe(403);
    expect((await call(w.t.app, 'DELETE', `/default/plugins/instances/${any.id}`, { token: w.member })).status).toBe(403);
  });

  it("never reaches another organization's instances", async () => {
    const theirs = (await call(w.t.app, 'GET', '/elsewhere/plugins/instances', { token: w.owner, query: { itemsPerPage: -1 } })).body.items;
    expect(theirs.length).toBeGreaterThan(0);
    const id = theirs[0].id;
    for (const [method, body] of [['GET'], ['PUT', { enabled: true }], ['DELETE']] as const) {
      const res = await call(w.t.app, method, `/default/plugins/instances/${id}`, { token: w.owner, body });
      expect(res.status).toBe(404);
    }
    const ours = (await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.owner, query: { itemsPerPage: -1 } })).body.items;
    expect(ours.map((i: { id: number }) => i.id)).not.toContain(id);
    const foreignProject = await call(w.t.app, 'POST', '/default/plugins/instances', {
      token: w.owner,
      body: { plugin: { slug: 'example-webhook' }, project: { id: w.elsewhere.projectId } },
    });
    expect(foreignProject.status).toBe(422);
    expect(foreignProject.body.detail[0].loc).toEqual(['project']);
  });
});

async function orgId(): Promise<number> {
  const me = await call(w.t.app, 'GET', '/organizations', { token: w.owner, query: { itemsPerPage: -1 } });
  return me.body.items.find((o: { slug: string }) => o.slug === 'default').id;
}

describe('the vendor\u2019s check of a configuration', () => {
  let instanceId: number;
  const put = (body: Record<string, unknown>) => call(w.t.app, 'PUT', `/default/plugins/instances/${instanceId}`, { token: w.admin, body });
  /** Holds the next check until `release`; `reached` resolves once the check has begun. */
  function hold() {
    let reached!: () => void;
    let release!: () => void;
    const begun = new Promise<void>((r) => (reached = r));
    held = { reached, answer: new Promise<void>((r) => (release = r)) };
    return { begun, release };
  }

  beforeAll(async () => {
    const created = await call(w.t.app, 'POST', '/default/projects', { token: w.owner, body: { name: 'Checked', organization: { name: 'default' } } });
    const filter = [{ model: 'Project', field: 'id', op: '==', value: created.body.id }];
    instanceId = bySlug(await instances(w.admin, filter), 'test-checked-webhook')[0].id;
    expect((await put({ configuration: { channel: '#ops', token: 'first-token' } })).status).toBe(200);
  });

  it('refuses what the vendor refuses, naming the field, and stores nothing', async () => {
    const refused = await put({ enabled: true, configuration: { channel: '#ops', token: 'revoked' } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      { loc: ['body', 'configuration', 'token'], msg: 'The vendor refused the token.', type: 'value_error.plugin_refused' },
    ]);
    expect(await storedConfiguration(instanceId)).toEqual({ channel: '#ops', token: 'first-token' });
    expect((await call(w.t.app, 'GET', `/default/plugins/instances/${instanceId}`, { token: w.admin })).body.enabled).toBe(false);
  });

  it('asks with the configuration as it will be stored, a masked secret as stored, and holds no lock while the vendor answers', async () => {
    const { begun, release } = hold();
    const saving = put({ enabled: true, configuration: { channel: '#incidents', token: SECRET_MASK } });
    await begun;
    expect(checked.at(-1)).toEqual({ channel: '#incidents', token: 'first-token' });
    // The instance's row is free while the vendor is asked: another transaction takes its lock at once.
    const locked = await w.t.database.db.transaction((tx) =>
      tx.select({ id: pluginInstance.id }).from(pluginInstance).where(eq(pluginInstance.id, instanceId)).for('update', { noWait: true }),
    );
    expect(locked).toEqual([{ id: instanceId }]);
    held = undefined;
    release();
    const saved = await saving;
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.enabled).toBe(true);
    expect(await storedConfiguration(instanceId)).toEqual({ channel: '#incidents', token: 'first-token' });
  });

  it('answers 409 when another save changed the instance while the vendor was asked, keeping the other save', async () => {
    expect((await put({ enabled: false })).status).toBe(200);
    const { begun, release } = hold();
    const saving = put({ enabled: true, configuration: { channel: '#slow', token: 'slow-token' } });
    await begun;
    expect((await put({ configuration: { channel: '#fast', token: 'fast-token' } })).status).toBe(200);
    held = undefined;
    release();
    const late = await saving;
    expect(late.status).toBe(409);
    expect(await storedConfiguration(instanceId)).toEqual({ channel: '#fast', token: 'fast-token' });
  });
});
