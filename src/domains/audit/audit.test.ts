// The audit log over the API: an entry for each audited change (who, from where, before and after),
// never a plugin secret; reading it (Owners only, one organization's entries only) with the list
// engine's paging and filters; exporting it as JSON lines and CSV; retention; and the database
// refusing to change or delete an entry any other way.
import { and, eq, lt } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS, register } from '../../../test/helpers.ts';
import { cases as caseApi } from '../../../test/worlds/cases.ts';
import { api, useWorld } from '../../../test/worlds/incidents.ts';
import { organization } from '../organization/table.ts';
import { csvField, purgeExpiredEntries } from './service.ts';
import { auditLog } from './table.ts';

// The e-mail instance names a local SMTP host: the outbound policy allows loopback here.
const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
const cases = caseApi(w);
const PASSWORD = 'smtp-password-never-logged';
const NEW_PASSWORD = 'another-smtp-password-never-logged';

interface Entry {
  id: number;
  occurred_at: string;
  action: string;
  actor_email: string | null;
  actor_user_id: number | null;
  address: string | null;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  before: any;
  after: any;
  details: any;
}

const log = (query: Record<string, any> = {}, token = w.owner, org = 'default') =>
  call<{ items: Entry[]; total: number; page: number; itemsPerPage: number }>(w.t.app, 'GET', `/${org}/audit-log`, {
    token,
    query: { itemsPerPage: -1, ...query },
  });

/** The newest entry of `action` (on `target_id`, when given). */
async function latest(action: string, target_id?: string | number): Promise<Entry> {
  const res = await log({ action, ...(target_id === undefined ? {} : { target_id: String(target_id) }) });
  expect(res.status).toBe(200);
  expect(res.body.items.length).toBeGreaterThan(0);
  return res.body.items[0];
}

let projectId: number;

beforeAll(async () => {
  projectId = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items[0].id;
});

describe('entries of audited changes', () => {
  it('plugin instances: created, updated, enabled, disabled, deleted, with the configuration masked as the read masks it', async () => {
    const config = { host: '127.0.0.1', port: 2525, username: 'muster', password: PASSWORD, from: 'Muster <m@example.org>', reject_unauthorized: false };
    const created = await call(w.t.app, 'POST', '/default/plugins/instances', {
      token: w.admin,
      body: { plugin: { slug: 'muster-email' }, project: { id: projectId }, enabled: false, configuration: config },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;

    const c = await latest('plugin_instance.created', id);
    expect(c).toMatchObject({ actor_email: 'admin@example.com', address: '127.0.0.1', target_type: 'plugin_instance', target_label: 'muster-email' });
    expect(c.after).toMatchObject({ plugin: 'muster-email', enabled: false, configuration: { host: '127.0.0.1', password: '**********' } });
    expect(c.after.configuration).toEqual(created.body.configuration);

    const updated = await call(w.t.app, 'PUT', `/default/plugins/instances/${id}`, {
      token: w.admin,
      body: { configuration: { ...config, password: NEW_PASSWORD, username: 'muster2' } },
    });
    expect(updated.status).toBe(200);
    const u = await latest('plugin_instance.updated', id);
    expect(u.before.configuration).toMatchObject({ username: 'muster', password: '**********' });
    expect(u.after.configuration).toMatchObject({ username: 'muster2', password: '**********' });
    expect(u.details).toEqual({ secrets_changed: ['password'] });

    expect((await call(w.t.app, 'PUT', `/default/plugins/instances/${id}`, { token: w.admin, body: { enabled: true } })).status).toBe(200);
    const e = await latest('plugin_instance.enabled', id);
    expect([e.before.enabled, e.after.enabled]).toEqual([false, true]);

    expect((await call(w.t.app, 'PUT', `/default/plugins/instances/${id}`, { token: w.admin, body: { enabled: false } })).status).toBe(200);
    expect((await latest('plugin_instance.disabled', id)).after.enabled).toBe(false);

    expect((await call(w.t.app, 'DELETE', `/default/plugins/instances/${id}`, { token: w.admin })).status).toBe(200);
    const d = await latest('plugin_instance.deleted', id);
    expect(d.before).toMatchObject({ plugin: 'muster-email', configuration: { username: 'muster2', password: '**********' } });
    expect(d.after).toBeNull();
  });

  it('never holds a plugin secret, in any column of any entry', async () => {
    const rows = await w.t.database.query<{ text: string }>('SELECT row_to_json(a)::text AS text FROM audit_log a');
    expect(rows.length).toBeGreaterThan(0);
    for (const { text } of rows) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(NEW_PASSWORD);
    }
  });

  it('a record of any CRUD group deleted: one entry with the row as it stood', async () => {
    const type = await call(w.t.app, 'POST', '/default/tag_types', {
      token: w.admin,
      body: { name: 'Audited kind', exclusive: true, project: { id: projectId } },
    });
    expect(type.status).toBe(200);
    expect((await call(w.t.app, 'DELETE', `/default/tag_types/${type.body.id}`, { token: w.admin })).status).toBe(200);
    const d = await latest('tag_type.deleted', type.body.id);
    expect(d).toMatchObject({ actor_email: 'admin@example.com', target_type: 'tag_type', target_label: 'Audited kind' });
    expect(d.before).toMatchObject({ id: type.body.id, name: 'Audited kind', exclusive: true, project_id: projectId });
    expect(d.before).not.toHaveProperty('search_vector');

    const service = await call(w.t.app, 'POST', '/default/services', {
      token: w.admin,
      body: { name: 'On call', external_id: 'x-1', project: { id: projectId } },
    });
    expect(service.status).toBe(200);
    expect((await call(w.t.app, 'DELETE', `/default/services/${service.body.id}`, { token: w.admin })).status).toBe(200);
    expect((await latest('service.deleted', service.body.id)).before.name).toBe('On call');
  });

  it('a refused deletion leaves no entry', async () => {
    const before = (await log()).body.total;
    expect((await call(w.t.app, 'DELETE', '/default/tag_types/999999', { token: w.admin })).status).toBe(404);
    expect((await call(w.t.app, 'DELETE', `/default/projects/${projectId}`, { token: w.member })).status).toBe(403);
    expect((await log()).body.total).toBe(before);
  });

  it('incidents and cases: visibility Open to Restricted and back, and deletion', async () => {
    const inc = await incidents.create({}, w.owner);
    expect(inc.status).toBe(200);
    expect((await incidents.edit(inc.body.id, { visibility: 'Restricted' })).status).toBe(200);
    const r = await latest('incident.visibility_changed', inc.body.id);
    expect(r).toMatchObject({
      actor_email: 'owner@example.com',
      target_label: inc.body.name,
      before: { visibility: 'Open' },
      after: { visibility: 'Restricted' },
    });
    expect((await incidents.edit(inc.body.id, { visibility: 'Open' })).status).toBe(200);
    expect((await latest('incident.visibility_changed', inc.body.id)).after).toEqual({ visibility: 'Open' });
    // An update that leaves the visibility as it is writes no such entry.
    const count = (await log({ action: 'incident.visibility_changed' })).body.total;
    expect((await incidents.edit(inc.body.id, { title: 'Renamed' })).status).toBe(200);
    expect((await log({ action: 'incident.visibility_changed' })).body.total).toBe(count);
    expect((await incidents.remove(inc.body.id)).status).toBe(200);
    expect((await latest('incident.deleted', inc.body.id)).before).toMatchObject({ id: inc.body.id, title: 'Renamed', visibility: 'Open' });

    const cs = await cases.create({}, w.owner);
    expect(cs.status).toBe(200);
    expect((await cases.edit(cs.body.id, { visibility: 'Restricted' })).status).toBe(200);
    expect(await latest('case.visibility_changed', cs.body.id)).toMatchObject({ before: { visibility: 'Open' }, after: { visibility: 'Restricted' } });
    expect((await cases.remove(cs.body.id)).status).toBe(200);
    expect((await latest('case.deleted', cs.body.id)).before).toMatchObject({ id: cs.body.id, visibility: 'Restricted' });
  });

  it("an incident's tasks and custom timeline events deleted", async () => {
    const inc = (await incidents.create({}, w.owner)).body;
    const t = await call(w.t.app, 'POST', '/default/tasks', { token: w.owner, body: { incident: { id: inc.id }, description: 'Rotate the keys' } });
    expect(t.status).toBe(200);
    expect((await call(w.t.app, 'DELETE', `/default/tasks/${t.body.id}`, { token: w.owner })).status).toBe(200);
    expect(await latest('task.deleted', t.body.id)).toMatchObject({ target_label: 'Rotate the keys', before: { id: t.body.id, incident_id: inc.id } });

    expect((await incidents.post(inc.id, 'event', w.owner, { description: 'Paged the database team' })).status).toBe(200);
    const entry = (await incidents.get(inc.id, w.owner)).body.events.find((e: { type: string }) => e.type === 'Custom event');
    expect((await call(w.t.app, 'DELETE', `/default/incidents/${inc.id}/event/${entry.uuid}`, { token: w.owner })).status).toBe(200);
    expect(await latest('event.deleted', entry.uuid)).toMatchObject({
      target_label: 'Paged the database team',
      before: { uuid: entry.uuid, incident_id: inc.id, description: 'Paged the database team' },
    });
  });

  it('projects created and deleted; organizations created and updated', async () => {
    const p = await call(w.t.app, 'POST', '/default/projects', { token: w.owner, body: { name: 'Audited project', organization: { name: 'default' } } });
    expect(p.status).toBe(200);
    expect((await latest('project.created', p.body.id)).after).toMatchObject({ id: p.body.id, name: 'Audited project' });
    expect((await call(w.t.app, 'DELETE', `/default/projects/${p.body.id}`, { token: w.owner })).status).toBe(200);
    expect((await latest('project.deleted', p.body.id)).before).toMatchObject({ name: 'Audited project' });

    const org = (await call(w.t.app, 'GET', '/organizations', { token: w.owner })).body.items.find((o: { slug: string }) => o.slug === 'default');
    const res = await call(w.t.app, 'PUT', `/organizations/${org.id}`, { token: w.owner, body: { banner_enabled: true, banner_text: 'Audit week' } });
    expect(res.status).toBe(200);
    const u = await latest('organization.updated', org.id);
    expect(u.before).toEqual({ banner_enabled: false, banner_text: null });
    expect(u.after).toEqual({ banner_enabled: true, banner_text: 'Audit week' });

    // An organization's log opens with its creation: `default` by Muster itself, others by their creator.
    expect(await latest('organization.created')).toMatchObject({ actor_email: null, actor_user_id: null, target_label: 'default' });
    const first = (await log({}, w.owner, 'elsewhere')).body.items.at(-1)!;
    expect(first).toMatchObject({ action: 'organization.created', actor_email: 'owner@example.com', address: '127.0.0.1', target_label: 'Elsewhere' });
  });

  it('names the client address the request came from', async () => {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/api/v1/default/tag_types',
      headers: { authorization: `Bearer ${w.admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'From afar', project: { id: projectId } }),
    });
    const id = JSON.parse(res.body).id;
    await w.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/default/tag_types/${id}`,
      headers: { authorization: `Bearer ${w.admin}` },
      remoteAddress: '203.0.113.9',
    });
    expect((await latest('tag_type.deleted', id)).address).toBe('203.0.113.9');
  });
});

describe('reading the log', () => {
  it('is for Owners: Admins and Members get 403, as does the export', async () => {
    for (const token of [w.admin, w.member]) {
      expect((await log({}, token)).status).toBe(403);
      expect((await call(w.t.app, 'GET', '/default/audit-log/export', { token })).status).toBe(403);
    }
    expect((await call(w.t.app, 'GET', '/default/audit-log')).status).toBe(401);
  });

  it("never reaches another organization's entries", async () => {
    const mine = (await log()).body.items;
    const theirs = (await log({}, w.owner, 'elsewhere')).body.items;
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    const ids = new Set(mine.map((e) => e.id));
    expect(theirs.some((e) => ids.has(e.id))).toBe(false);
    // Filters name no way out of the organization either.
    const filtered = await log({ filter: JSON.stringify([{ field: 'id', op: 'in', value: theirs.map((e) => e.id) }]) });
    expect(filtered.body.total).toBe(0);
    // The Owner of another organization, a Member here, is refused.
    const stranger = await register(w.t.app, 'stranger@example.com');
    expect((await call(w.t.app, 'POST', '/organizations', { token: stranger, body: { name: 'Strangers' } })).status).toBe(200);
    expect((await log({}, stranger)).status).toBe(403);
    const own = (await log({}, stranger, 'strangers')).body.items;
    expect(own.map((e) => e.action)).toEqual(['organization.created']);
  });

  it('pages newest first by default, with the list engine paging and sorting', async () => {
    const all = (await log()).body;
    expect(all.total).toBeGreaterThan(5);
    const times = all.items.map((e) => Date.parse(e.occurred_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const page2 = (await log({ itemsPerPage: 2, page: 2 })).body;
    expect(page2).toMatchObject({ page: 2, itemsPerPage: 2, total: all.total });
    expect(page2.items.map((e) => e.id)).toEqual(all.items.slice(2, 4).map((e) => e.id));
    const oldest = (await log({ 'sortBy[]': 'id', 'descending[]': false, itemsPerPage: 1 })).body.items[0];
    expect(oldest.id).toBe(Math.min(...all.items.map((e) => e.id)));
  });

  it('filters by action (or a subject), actor, target and time, and through the filter grammar and q', async () => {
    const all = (await log()).body.items;
    const plugin = (await log({ action: 'plugin_instance.*' })).body.items;
    expect(plugin.length).toBeGreaterThanOrEqual(5);
    expect(plugin.every((e) => e.action.startsWith('plugin_instance.'))).toBe(true);
    const byAdmin = (await log({ actor: 'ADMIN@example.com' })).body.items;
    expect(byAdmin.length).toBeGreaterThan(0);
    expect(byAdmin.every((e) => e.actor_email === 'admin@example.com')).toBe(true);
    const tagTypes = (await log({ target_type: 'tag_type' })).body.items;
    expect(tagTypes.every((e) => e.target_type === 'tag_type')).toBe(true);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await log({ since: future })).body.total).toBe(0);
    expect((await log({ until: future })).body.total).toBe(all.length);
    const grammar = await log({ filter: JSON.stringify({ and: [{ model: 'AuditLog', field: 'action', op: 'like', value: '%.deleted' }] }) });
    expect(grammar.status).toBe(200);
    expect(grammar.body.items.every((e) => e.action.endsWith('.deleted'))).toBe(true);
    expect((await log({ filter: JSON.stringify([{ field: 'before', op: '==', value: 1 }]) })).status).toBe(422);
    const q = (await log({ q: 'admin' })).body.items;
    expect(q.length).toBeGreaterThan(0);
    expect((await log({ since: 'yesterday' })).status).toBe(422);
  });
});

describe('export', () => {
  const exportOf = (format: string, query: Record<string, string> = {}, token = w.owner) =>
    call(w.t.app, 'GET', '/default/audit-log/export', { token, query: { format, ...query } });

  it('as JSON lines: every entry the filters select, newest first, and the export is itself an entry', async () => {
    const listed = (await log({ action: 'plugin_instance.*' })).body.items;
    const res = await exportOf('jsonl', { action: 'plugin_instance.*' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-default-\d{4}-\d{2}-\d{2}\.jsonl"$/);
    const lines = (res.body as string)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(listed.map((e) => e.id));
    expect(lines[0]).toEqual(listed[0]);
    const entry = await latest('audit_log.exported');
    expect(entry).toMatchObject({
      actor_email: 'owner@example.com',
      address: '127.0.0.1',
      details: { format: 'jsonl', filters: { action: 'plugin_instance.*' } },
    });
  });

  it('as CSV: RFC 4180, a header, quotes doubled, and cells a spreadsheet would run as formulas defused', async () => {
    const type = await call(w.t.app, 'POST', '/default/tag_types', {
      token: w.admin,
      body: { name: '=HYPERLINK("http://x","a, b")', project: { id: projectId } },
    });
    expect(type.status).toBe(200);
    await call(w.t.app, 'DELETE', `/default/tag_types/${type.body.id}`, { token: w.admin });
    const res = await exportOf('csv', { target_type: 'tag_type', target_id: String(type.body.id) });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const text = res.body as string;
    const rows = text.split('\r\n');
    expect(rows[0]).toBe('id,occurred_at,action,actor_email,actor_user_id,actor_token_id,address,target_type,target_id,target_label,before,after,details');
    expect(rows).toHaveLength(3);
    expect(rows[2]).toBe('');
    expect(rows[1]).toContain(`,tag_type.deleted,admin@example.com,`);
    expect(rows[1]).toContain(`,"'=HYPERLINK(""http://x"",""a, b"")",`);
    expect((await latest('audit_log.exported')).details).toMatchObject({ format: 'csv' });
  });

  it('refuses an unknown format, a bad filter and a HEAD before anything is exported', async () => {
    const count = (await log({ action: 'audit_log.exported' })).body.total;
    expect((await exportOf('xml')).status).toBe(422);
    expect((await exportOf('csv', { filter: '{"field":"nope"}' })).status).toBe(422);
    const head = await w.t.app.inject({ method: 'HEAD', url: '/api/v1/default/audit-log/export?format=csv', headers: { authorization: `Bearer ${w.owner}` } });
    expect([404, 405]).toContain(head.statusCode);
    expect((await log({ action: 'audit_log.exported' })).body.total).toBe(count);
  });

  it('guards every cell that starts like a formula', () => {
    expect(['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'plain', null, 42].map(csvField)).toEqual([
      "'=1+2",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      `"'\rx"`,
      'plain',
      '',
      '42',
    ]);
    expect(csvField({ a: '"b"' })).toBe('"{""a"":""\\""b\\""""}"');
  });
});

describe('append-only', () => {
  it('the database refuses to change an entry, or to delete one outside retention', async () => {
    const [row] = await w.t.database.query<{ id: number }>('SELECT id FROM audit_log ORDER BY id LIMIT 1');
    await expect(w.t.database.query(`UPDATE audit_log SET action = 'forged' WHERE id = $1`, [row.id])).rejects.toThrow(/never changed/);
    await expect(w.t.database.query('DELETE FROM audit_log WHERE id = $1', [row.id])).rejects.toThrow(/only by retention/);
    await expect(w.t.database.query('TRUNCATE audit_log')).rejects.toThrow(/never truncated/);
    const [still] = await w.t.database.query<{ action: string }>('SELECT action FROM audit_log WHERE id = $1', [row.id]);
    expect(still.action).not.toBe('forged');
  });

  it('no route changes or deletes an entry', async () => {
    const [{ id }] = (await log({ itemsPerPage: 1 })).body.items;
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await call(w.t.app, method, `/default/audit-log/${id}`, { token: w.owner, body: {} });
      expect([404, 405]).toContain(res.status);
    }
  });

  it("an organization's deletion takes its entries with it", async () => {
    const token = await register(w.t.app, 'leaver@example.com');
    expect((await call(w.t.app, 'POST', '/organizations', { token, body: { name: 'Leaving' } })).status).toBe(200);
    const db = w.t.database.db;
    const [org] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, 'leaving'));
    expect((await db.select().from(auditLog).where(eq(auditLog.organization_id, org.id))).length).toBeGreaterThan(0);
    await db.delete(organization).where(eq(organization.id, org.id));
    expect(await db.select().from(auditLog).where(eq(auditLog.organization_id, org.id))).toEqual([]);
  });
});

describe('retention', () => {
  it('deletes only entries older than the retention, in batches, and says so in the log', async () => {
    const db = w.t.database.db;
    const [org] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, 'default'));
    const old = new Date(Date.now() - 400 * 86_400_000);
    const recent = new Date(Date.now() - 300 * 86_400_000);
    await db
      .insert(auditLog)
      .values([
        ...Array.from({ length: 5 }, (_, i) => ({ organization_id: org.id, action: 'test.old', occurred_at: old, details: { i } })),
        { organization_id: org.id, action: 'test.recent', occurred_at: recent },
      ]);
    const kept = (await log()).body.total;
    expect(await purgeExpiredEntries(db, { days: 0 })).toBe(0);
    expect(await purgeExpiredEntries(db, { days: 365, batchSize: 2 })).toBe(5);
    expect((await log({ action: 'test.old' })).body.total).toBe(0);
    expect((await log({ action: 'test.recent' })).body.total).toBe(1);
    const purged = await latest('audit_log.purged');
    expect(purged).toMatchObject({ actor_email: null, details: { retention_days: 365, deleted: 5 } });
    expect((await log()).body.total).toBe(kept - 5 + 1);
    expect(
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.organization_id, org.id), lt(auditLog.occurred_at, recent))),
    ).toEqual([]);
  });

  it('runs as the audit-log-retention task with MUSTER_AUDIT_RETENTION_DAYS', async () => {
    const { createScheduler } = await import('../../app/tasks.ts');
    const { pino } = await import('pino');
    const db = w.t.database.db;
    const [org] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, 'default'));
    await db.insert(auditLog).values({ organization_id: org.id, action: 'test.ancient', occurred_at: new Date(Date.now() - 40 * 86_400_000) });
    const s = createScheduler(w.t.database, { ...w.t.settings, auditRetentionDays: 30 }, pino({ level: 'silent' }), ['audit-log-retention']);
    await s.runTask(s.tasks[0], new Date(Date.now() + 7200_000));
    expect((await log({ action: 'test.ancient' })).body.total).toBe(0);
    expect((await log({ action: 'organization.updated' })).body.total).toBeGreaterThan(0);
  });
});
