// `muster import dispatch` end to end: Dispatch's sample database restored into a real PostgreSQL,
// imported into Muster's database (embedded or server, as the project runs), then read back through
// the API and compared with what the sample holds; and a fixture of two organizations at Dispatch's
// last release, with the tables and columns the sample predates.
import { createCipheriv, createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { type DispatchServer, dispatchServer, lastReleaseSchema, onSource, sampleSql } from '../../../test/dispatch-source.ts';
import { decryptConfiguration } from '../../plugins/secrets.ts';
import { exec } from './copy.ts';
import { formatReport, type OrganizationReport } from './report.ts';
import { importDispatch } from './run.ts';

const PASSWORD = 'sample password of kglisson';
const DISPATCH_KEY = 'the installation DISPATCH_ENCRYPTION_KEY';
const ORG = 'dispatch_organization_default';

let server: DispatchServer;
beforeAll(async () => {
  server = await dispatchServer();
});
afterAll(() => server?.close());

const login = async (t: TestApp, email: string, password: string, org = 'default') => call(t.app, 'POST', `/${org}/auth/login`, { body: { email, password } });

/** What sqlalchemy-utils' StringEncryptedType (AES engine, pkcs5) stores for `value` under `key`, as Dispatch writes it. */
function dispatchEncrypted(value: string, key: string): string {
  const k = createHash('sha256').update(key).digest();
  const cipher = createCipheriv('aes-256-cbc', k, k.subarray(0, 16));
  return Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]).toString('base64');
}

describe("Dispatch's sample database", { timeout: 300_000 }, () => {
  let t: TestApp;
  let url: string;
  let token: string;
  const keys = () => ({ muster: t.settings.encryptionKey as string });

  beforeAll(async () => {
    url = server.restore('sample', sampleSql());
    // The sample's hashes are bcrypt ($2b$12$) of passwords it does not publish: one is set to a
    // known password the same way Dispatch hashes (bcrypt, cost 12, stored as bytes).
    const hash = bcrypt.hashSync(PASSWORD, 12);
    await onSource(url, `UPDATE dispatch_core.dispatch_user SET password = convert_to('${hash}', 'UTF8') WHERE email = 'kglisson@example.com'`);
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('writes nothing on a dry run, and reports what it would have', async () => {
    const [report] = await importDispatch(t.database.db, { from: url, keys: keys(), dryRun: true });
    expect(report.written.get('incident')).toBe(4);
    expect(await exec(t.database.db, 'SELECT count(*)::int AS n FROM incident')).toEqual([{ n: 0 }]);
    expect(await exec(t.database.db, 'SELECT slug FROM organization')).toEqual([{ slug: 'default' }]);
  });

  it('imports everything with ids kept, and the report names what had no home', async () => {
    const [report] = await importDispatch(t.database.db, { from: url, keys: keys() });
    expect(report.idMap).toBe('kept');
    expect(report.written.get('incident')).toBe(4);
    expect(report.written.get('event')).toBe(57);
    expect(report.written.get('participant_group')).toBe(8);
    const text = formatReport([report], false);
    if (process.env.SHOW_IMPORT_REPORT) console.log(text);
    expect(text).not.toMatch(/^ {4}group:/m);
    expect(text).toContain('recommendation: 4 row(s)');
    expect(text).toContain(
      "plugin_instance: 3 row(s): instances of plugins Muster's catalogue does not have (dispatch-auth-provider-basic, google-gmail-email, slack-contact)",
    );
    // The sample's document without a project and its workflows without one are refused by name.
    expect(report.refused.map((r) => `${r.table} ${r.id}`).sort()).toEqual(['document 5', 'workflow 1', 'workflow 2']);
  });

  it("signs a user in with the sample's password, kept as its bcrypt hash", async () => {
    const res = await login(t, 'kglisson@example.com', PASSWORD);
    expect(res.status).toBe(200);
    token = res.body.token;
    expect((await login(t, 'kglisson@example.com', 'not it')).status).toBe(422);
  });

  it("answers with the sample's incidents: names, titles, statuses, participants, timeline counts, costs and links", async () => {
    const expected = await onSource<{
      id: number;
      name: string;
      title: string;
      status: string;
      participants: number;
      events: number;
      cost: number;
      ticket: string;
      channel: string;
      storage: string | null;
      conference: string | null;
      groups: { name: string; email: string; weblink: string; resource_id: string }[];
    }>(
      url,
      `SELECT i.id, i.name, i.title, i.status,
        (SELECT count(*)::int FROM ${ORG}.participant p WHERE p.incident_id = i.id) AS participants,
        (SELECT count(*)::int FROM ${ORG}.event e WHERE e.incident_id = i.id) AS events,
        (SELECT coalesce(sum(amount), 0)::float FROM ${ORG}.incident_cost c WHERE c.incident_id = i.id) AS cost,
        (SELECT weblink FROM ${ORG}.ticket k WHERE k.incident_id = i.id) AS ticket,
        (SELECT channel_id FROM ${ORG}.conversation c WHERE c.incident_id = i.id) AS channel,
        (SELECT weblink FROM ${ORG}.storage s WHERE s.incident_id = i.id ORDER BY id LIMIT 1) AS storage,
        (SELECT weblink FROM ${ORG}.conference c WHERE c.incident_id = i.id ORDER BY id LIMIT 1) AS conference,
        (SELECT coalesce(json_agg(json_build_object('name', g.name, 'email', g.email, 'weblink', g.weblink, 'resource_id', g.resource_id) ORDER BY g.id), '[]')
           FROM ${ORG}."group" g WHERE g.incident_id = i.id) AS groups
       FROM ${ORG}.incident i ORDER BY i.id`,
    );
    const list = await call(t.app, 'GET', '/default/incidents', { token, query: { itemsPerPage: -1, 'sortBy[]': 'id' } });
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { id: number; name: string; title: string; status: string }) => [i.id, i.name, i.title, i.status])).toEqual(
      expected.map((e) => [e.id, e.name, e.title, e.status]),
    );
    for (const e of expected) {
      const one = await call(t.app, 'GET', `/default/incidents/${e.id}`, { token });
      expect(one.status).toBe(200);
      expect(one.body.participants).toHaveLength(e.participants);
      expect(one.body.events).toHaveLength(e.events);
      expect(one.body.incident_costs.reduce((s: number, c: { amount: number }) => s + c.amount, 0)).toBe(e.cost);
      expect(one.body.ticket?.weblink).toBe(e.ticket);
      expect(one.body.conversation?.channel_id).toBe(e.channel);
      expect(one.body.storage?.weblink ?? null).toBe(e.storage);
      // Each resource reads with the description Dispatch's later reads give it (its web UI finds the links by them).
      for (const [resource, starts] of [
        ['ticket', 'Ticket for tracking purposes.'],
        ['storage', 'Common storage for all artifacts'],
        ['conference', 'Video conference and phone bridge'],
        ['conversation', 'Private conversation for real-time discussion.'],
      ])
        if (one.body[resource]) expect(one.body[resource].description).toMatch(new RegExp(`^${starts}`));
      expect(one.body.conference?.weblink ?? null).toBe(e.conference);
      const groups = await call(t.app, 'GET', `/default/incidents/${e.id}/groups`, { token });
      for (const g of groups.body) expect(g.description).toBe('Group for managing member access to storage. All participants get added to it.');
      expect(groups.body.map((g: Record<string, unknown>) => ({ name: g.name, email: g.email, weblink: g.weblink, resource_id: g.resource_id }))).toEqual(
        e.groups,
      );
    }
  });

  it('answers with the reference records and members of the sample', async () => {
    const types = await onSource<{ name: string }>(url, `SELECT name FROM ${ORG}.incident_type ORDER BY name`);
    const res = await call(t.app, 'GET', '/default/incident_types', { token, query: { itemsPerPage: -1 } });
    expect(res.body.items.map((x: { name: string }) => x.name).sort()).toEqual(types.map((x) => x.name));
    const members = await onSource<{ email: string }>(url, 'SELECT u.email FROM dispatch_core.dispatch_user u ORDER BY email');
    const users = await call(t.app, 'GET', '/default/users', { token, query: { itemsPerPage: -1 } });
    expect(users.body.items.map((u: { email: string }) => u.email).sort()).toEqual(members.map((m) => m.email));
  });

  it('changes nothing when run again, and brings what changed since', async () => {
    const before = await exec<{ xmin: string }>(t.database.db, "SELECT string_agg(xmin::text, ',' ORDER BY id) AS xmin FROM incident");
    const [again] = await importDispatch(t.database.db, { from: url, keys: keys() });
    expect([...again.written]).toEqual([]);
    expect(await exec(t.database.db, "SELECT string_agg(xmin::text, ',' ORDER BY id) AS xmin FROM incident")).toEqual(before);

    await onSource(url, `UPDATE ${ORG}.incident SET title = 'Heartbleed, again' WHERE id = 4`);
    const [changed] = await importDispatch(t.database.db, { from: url, keys: keys() });
    expect([...changed.written]).toEqual([['incident', 1]]);
    expect((await call(t.app, 'GET', '/default/incidents/4', { token })).body.title).toBe('Heartbleed, again');
  });

  it('on a later run removes what Dispatch deleted since from the records it brought, and keeps what was made in Muster', async () => {
    // One more person on incident 2 in Dispatch, brought by a run.
    await onSource(
      url,
      `INSERT INTO ${ORG}.individual_contact SELECT (jsonb_populate_record(NULL::${ORG}.individual_contact, to_jsonb(x) || '{"id": 900, "email": "late.joiner@example.com", "name": "Late Joiner"}')).*
         FROM ${ORG}.individual_contact x WHERE x.id = (SELECT min(id) FROM ${ORG}.individual_contact)`,
      `INSERT INTO ${ORG}.participant (id, incident_id, individual_contact_id) VALUES (900, 2, 900)`,
      `INSERT INTO ${ORG}.participant_role (id, participant_id, role, assumed_at) VALUES (900, 900, 'Observer', now())`,
    );
    expect((await importDispatch(t.database.db, { from: url, keys: keys() }))[0].written.get('participant')).toBe(1);
    // Made in Muster after the import: a tag on incident 2 and a task of it.
    const incident = (await call(t.app, 'GET', '/default/incidents/2', { token })).body;
    const tagType = (await call(t.app, 'GET', '/default/tag_types', { token, query: { itemsPerPage: 1 } })).body.items[0];
    const ours = await call(t.app, 'POST', '/default/tags', {
      token,
      body: { name: 'made-in-muster', tag_type: { id: tagType.id }, project: { name: 'default' } },
    });
    expect(ours.status).toBe(200);
    const tagged = await call(t.app, 'PUT', '/default/incidents/2', { token, body: { ...incident, tags: [...incident.tags, { id: ours.body.id }] } });
    expect(tagged.status).toBe(200);
    const task = await call(t.app, 'POST', '/default/tasks', { token, body: { incident: { id: 2 }, description: 'Made in Muster' } });
    expect(task.status).toBe(200);
    const people = (await call(t.app, 'GET', '/default/incidents/2', { token })).body.participants.length;

    // Deleted in Dispatch since: incident 2's tag link, its task (and the task's assignee), and that person with their role.
    await onSource(
      url,
      `DELETE FROM ${ORG}.assoc_incident_tags WHERE incident_id = 2`,
      `DELETE FROM ${ORG}.task_assignees`,
      `DELETE FROM ${ORG}.task`,
      `DELETE FROM ${ORG}.participant_role WHERE participant_id = 900`,
      `DELETE FROM ${ORG}.participant WHERE id = 900`,
    );
    const [report] = await importDispatch(t.database.db, { from: url, keys: keys() });
    expect(report.removed.get('incident_tag')).toBe(1);
    expect(report.removed.get('task')).toBe(1);
    expect(report.removed.get('participant')).toBe(1);
    expect(report.removed.get('participant_role')).toBe(1);
    expect(formatReport([report], false)).toContain(
      'Removed, deleted in Dispatch since the last run: incident_tag 1, participant 1, participant_role 1, task 1, task_assignee 1',
    );

    const after = (await call(t.app, 'GET', '/default/incidents/2', { token })).body;
    expect(after.tags.map((x: { name: string }) => x.name)).toEqual(['made-in-muster']);
    expect(after.participants).toHaveLength(people - 1);
    const tasks = await call(t.app, 'GET', '/default/tasks', { token, query: { itemsPerPage: -1 } });
    expect(tasks.body.items.map((x: { description: string }) => x.description)).toEqual(['Made in Muster']);
    // Nothing left to remove on the next run.
    const [again] = await importDispatch(t.database.db, { from: url, keys: keys() });
    expect([...again.removed, ...again.written]).toEqual([]);
  });

  it('refuses a Muster that holds data of its own, and a database that is not Dispatch', async () => {
    await exec(t.database.db, "INSERT INTO app_user (email, password) VALUES ('someone.new@example.com', 'x')");
    await expect(importDispatch(t.database.db, { from: url, keys: keys() })).rejects.toThrow(
      /already holds data that did not come from this import \(1 app_user row/,
    );
    const notDispatch = server.restore('other', 'CREATE TABLE things (id int);');
    await expect(importDispatch(t.database.db, { from: notDispatch, keys: keys(), allowNonempty: true })).rejects.toThrow(/not a Dispatch database/);
  });
});

/** Dispatch's google-drive-storage configuration: the service account in separate fields (plugins/dispatch_google/config.py). */
const GOOGLE_DRIVE = {
  developer_key: 'AIza-developer-key',
  service_account_client_email: 'dispatch@corp-project.iam.gserviceaccount.com',
  service_account_client_id: '1234567890',
  service_account_private_key: '-----BEGIN PRIVATE KEY-----\\nMIIBVQ\\n-----END PRIVATE KEY-----\\n',
  service_account_private_key_id: 'key-id-1',
  service_account_delegated_account: 'dispatch@corp.example',
  service_account_project_id: 'corp-project',
  google_domain: 'corp.example',
  default_duration_minutes: 1440,
  root_id: 'folder-0A1b',
  open_on_close: false,
  read_only: false,
};

describe("two organizations at Dispatch's last release", { timeout: 300_000 }, () => {
  let t: TestApp;
  let url: string;
  const SECOND = 'dispatch_organization_second';

  beforeAll(async () => {
    // The sample twice: its organization schema again as a second organization's.
    const sql = sampleSql();
    url = server.restore('two', sql);
    const copy = sql.replaceAll('dispatch_organization_default', SECOND).replaceAll('dispatch_core', 'dispatch_core_copy');
    await onSource(url, 'SET client_min_messages = error');
    server.restoreInto(url, copy);
    await onSource(
      url,
      'DROP SCHEMA dispatch_core_copy CASCADE',
      // Event ids are uuids, unique across organizations: the copy's get their own.
      `UPDATE ${SECOND}.event SET uuid = gen_random_uuid()`,
      ...lastReleaseSchema(ORG),
      ...lastReleaseSchema(SECOND),
      `UPDATE dispatch_core.alembic_version SET version_num = '903183fd9aee'`,
      'CREATE TABLE dispatch_core.dispatch_user_settings (id serial PRIMARY KEY, dispatch_user_id integer, auto_add_to_incident_bridges boolean)',
      `INSERT INTO dispatch_core.organization (id, name, slug, "default", description) VALUES (2, 'Second', 'second', false, 'Another team')`,
      `INSERT INTO dispatch_core.dispatch_user_organization (dispatch_user_id, organization_id, role, created_at, updated_at) VALUES (129, 2, 'Owner', now(), now())`,
      `UPDATE dispatch_core.dispatch_user SET password = convert_to('${bcrypt.hashSync(PASSWORD, 4)}', 'UTF8') WHERE id = 129`,
      // A case that stabilised and was resolved, with notes and feedback: what the last release records.
      `INSERT INTO ${SECOND}."case" (id, title, description, resolution, status, visibility, project_id, case_type_id, case_priority_id, case_severity_id, reported_at, stable_at, closed_at, resolved_by_id, created_at, updated_at)
        VALUES (7, 'Phishing report', 'A mail asking for passwords', 'Not a phish', 'Closed', 'Open', 1, (SELECT min(id) FROM ${SECOND}.case_type), (SELECT min(id) FROM ${SECOND}.case_priority), (SELECT min(id) FROM ${SECOND}.case_severity),
                '2025-06-01 10:00', '2025-06-01 12:00', '2025-06-02 09:00', 129, '2025-06-01 10:00', '2025-06-02 09:00')`,
      `INSERT INTO ${SECOND}.participant (id, case_id, individual_contact_id) VALUES (50, 7, (SELECT min(id) FROM ${SECOND}.individual_contact))`,
      `INSERT INTO ${SECOND}.participant_role (id, participant_id, role, assumed_at) VALUES (90, 50, 'Assignee', '2025-06-01 10:00')`,
      `UPDATE ${SECOND}."case" SET assignee_id = 50 WHERE id = 7`,
      `INSERT INTO ${SECOND}.case_notes (content, case_id, created_at, updated_at) VALUES ('Reported by three people', 7, '2025-06-01 11:00', '2025-06-01 11:00')`,
      `INSERT INTO ${SECOND}.feedback (rating, feedback, case_id, participant_id, project_id, created_at, updated_at) VALUES ('Very satisfied', 'Quick', 7, 50, 1, now(), now())`,
      `INSERT INTO ${SECOND}.canvas (canvas_id, case_id, type) VALUES ('F0CANVAS', 7, 'summary')`,
      // The case's document and tactical group, and an incident's document and review, as Dispatch's plugins record them.
      `INSERT INTO ${SECOND}.document (id, name, resource_type, resource_id, weblink, case_id, created_at, updated_at)
        VALUES (20, 'Phishing report - Case Document', 'dispatch-case-document', 'doc-c7', 'https://docs.example.com/d/doc-c7', 7, now(), now())`,
      `UPDATE ${SECOND}."case" SET case_document_id = 20 WHERE id = 7`,
      `INSERT INTO ${SECOND}."group" (id, name, email, resource_type, resource_id, weblink, case_id, created_at, updated_at)
        VALUES (30, 'dispatch-second-default-7', 'dispatch-second-default-7@example.com', 'google-group-participant-tactical-group', 'grp-c7', 'https://groups.example.com/g/7', 7, now(), now())`,
      `UPDATE ${SECOND}."case" SET tactical_group_id = 30 WHERE id = 7`,
      `INSERT INTO ${SECOND}.document (id, name, resource_type, resource_id, weblink, incident_id, created_at, updated_at) VALUES
        (21, 'Incident 2 - Incident Document', 'dispatch-incident-document', 'doc-i2', 'https://docs.example.com/d/doc-i2', 2, now(), now()),
        (22, 'Incident 2 - Review Document', 'dispatch-incident-review-document', 'doc-i2r', 'https://docs.example.com/d/doc-i2r', 2, now(), now())`,
      `UPDATE ${SECOND}.incident SET incident_document_id = 21, incident_review_document_id = 22 WHERE id = 2`,
      `UPDATE ${SECOND}.plugin_instance SET _configuration = '${dispatchEncrypted(JSON.stringify({ url: 'https://tickets.example.com' }), DISPATCH_KEY)}' WHERE plugin_id = (SELECT id FROM dispatch_core.plugin WHERE slug = 'dispatch-ticket')`,
      // Google plugins as Dispatch's GoogleConfiguration keeps them: Drive's whole, Groups' without its private key.
      `UPDATE ${SECOND}.plugin_instance SET enabled = true, _configuration = '${dispatchEncrypted(JSON.stringify(GOOGLE_DRIVE), DISPATCH_KEY)}' WHERE plugin_id = (SELECT id FROM dispatch_core.plugin WHERE slug = 'google-drive-storage')`,
      `UPDATE ${SECOND}.plugin_instance SET enabled = true, _configuration = '${dispatchEncrypted(JSON.stringify({ ...GOOGLE_DRIVE, service_account_private_key: '', google_domain: 'corp.example' }), DISPATCH_KEY)}' WHERE plugin_id = (SELECT id FROM dispatch_core.plugin WHERE slug = 'google-group-participant-group')`,
    );
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  let reports: OrganizationReport[];

  it('imports both, ids remapped, and the map names where each record went', async () => {
    const idMap = join(mkdtempSync(join(tmpdir(), 'muster-import-')), 'ids.json');
    reports = await importDispatch(t.database.db, { from: url, idMap, keys: { muster: t.settings.encryptionKey as string, dispatch: DISPATCH_KEY } });
    const map = JSON.parse(readFileSync(idMap, 'utf8'));
    const [moved] = await exec<{ id: number }>(
      t.database.db,
      'SELECT c.id FROM "case" c JOIN organization o ON o.id = c.organization_id WHERE o.slug = \'second\'',
    );
    expect(map.second.case['7']).toBe(moved.id);
    expect(Object.keys(map.default.incident).sort()).toEqual(['2', '4', '5', '6']);
    expect(reports.map((r) => [r.slug, r.idMap])).toEqual([
      ['default', 'remapped'],
      ['second', 'remapped'],
    ]);
    const incidents = await exec<{ n: number }>(t.database.db, 'SELECT count(*)::int AS n FROM incident');
    expect(incidents[0].n).toBe(8);
    const second = reports[1];
    expect(second.written.get('case_note')).toBe(1);
    expect(formatReport(reports, false)).toContain('canvas: 1 row(s): Muster does not post Slack canvases');
    expect(second.notes).toContain('3 plugin configuration(s) re-encrypted with MUSTER_ENCRYPTION_KEY');
  });

  it('keeps what the last release adds: stable_at, resolved_by, notes, feedback on the case; configurations sealed again', async () => {
    const [c] = await exec<{ id: number; stable_at: Date; resolved_by: string; note: string; feedback: string; assignee: number | null }>(
      t.database.db,
      `SELECT c.id, c.stable_at, u.email AS resolved_by, n.content AS note, f.feedback, c.assignee_id AS assignee
         FROM "case" c JOIN organization o ON o.id = c.organization_id AND o.slug = 'second'
         LEFT JOIN app_user u ON u.id = c.resolved_by_id LEFT JOIN case_note n ON n.case_id = c.id LEFT JOIN feedback f ON f.case_id = c.id`,
    );
    expect(c, JSON.stringify(c)).toMatchObject({ resolved_by: 'dispatch@example.com', note: 'Reported by three people', feedback: 'Quick' });
    expect(new Date(c.stable_at).toISOString()).toBe('2025-06-01T12:00:00.000Z');
    expect(c.assignee).not.toBeNull();
    const [instance] = await exec<{ configuration: string }>(
      t.database.db,
      `SELECT i.configuration FROM plugin_instance i JOIN plugin p ON p.id = i.plugin_id JOIN organization o ON o.id = i.organization_id
        WHERE o.slug = 'second' AND p.slug = 'muster-ticket' AND i.configuration IS NOT NULL`,
    );
    expect(decryptConfiguration(instance.configuration, t.settings.encryptionKey as string)).toEqual({ url: 'https://tickets.example.com' });
  });

  it("builds the JSON key of Google plugins from Dispatch's service-account fields, and names each instance that lacks what Muster needs", async () => {
    const google = await exec<{ slug: string; enabled: boolean; configuration: string }>(
      t.database.db,
      `SELECT p.slug, i.enabled, i.configuration FROM plugin_instance i JOIN plugin p ON p.id = i.plugin_id JOIN organization o ON o.id = i.organization_id
        WHERE o.slug = 'second' AND p.slug LIKE 'google-%' AND i.configuration IS NOT NULL ORDER BY p.slug`,
    );
    const bySlug = Object.fromEntries(
      google.map((g) => [g.slug, { ...g, configuration: decryptConfiguration(g.configuration, t.settings.encryptionKey as string) }]),
    );
    const drive = bySlug['google-drive-storage'];
    expect(drive.enabled).toBe(true);
    expect(Object.keys(drive.configuration).sort()).toEqual(['parent_id', 'service_account_key', 'subject']);
    expect(drive.configuration).toMatchObject({ subject: 'dispatch@corp.example', parent_id: 'folder-0A1b' });
    expect(JSON.parse(String(drive.configuration.service_account_key))).toEqual({
      type: 'service_account',
      project_id: 'corp-project',
      private_key_id: 'key-id-1',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIBVQ\n-----END PRIVATE KEY-----\n',
      client_email: 'dispatch@corp-project.iam.gserviceaccount.com',
      client_id: '1234567890',
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    const groups = bySlug['google-group-participant-group'];
    expect(groups.enabled).toBe(false);
    expect(groups.configuration).toEqual({ subject: 'dispatch@corp.example', domain: 'corp.example' });
    const [, second] = reports;
    const note = second.notes.find((n) => n.includes('Google plugin instance(s) came over disabled'));
    expect(note).toMatch(/1 Google plugin instance\(s\) came over disabled.*instance \d+ \(google-group-participant-group\): give service_account_key/);
    expect(second.notes).toContain('Google plugin fields Muster does not use, left out: developer_key');
  });

  it("brings a case's and an incident's documents and groups, each read with its record as on the source", async () => {
    const token = (await login(t, 'dispatch@example.com', PASSWORD, 'second')).body.token;
    const ids = await exec<{ kind: string; source_id: string; target_id: number }>(
      t.database.db,
      `SELECT kind, source_id, target_id FROM import_source WHERE scope = '${SECOND}' AND kind IN ('case', 'incident')`,
    );
    const target = (kind: string, id: number) => ids.find((r) => r.kind === kind && r.source_id === String(id))?.target_id;
    const resource = (d: Record<string, unknown>) => ({ name: d.name, resource_type: d.resource_type, resource_id: d.resource_id, weblink: d.weblink });
    const onDispatch = (table: string, where: string) =>
      onSource<Record<string, unknown>>(url, `SELECT name, resource_type, resource_id, weblink FROM ${SECOND}."${table}" WHERE ${where} ORDER BY id`);

    const theCase = await call(t.app, 'GET', `/second/cases/${target('case', 7)}`, { token });
    expect(theCase.status).toBe(200);
    expect(theCase.body.documents.map(resource)).toEqual(await onDispatch('document', 'case_id = 7'));
    expect(theCase.body.groups.map(resource)).toEqual(await onDispatch('group', 'case_id = 7'));
    const incident = await call(t.app, 'GET', `/second/incidents/${target('incident', 2)}`, { token });
    expect(incident.body.documents.map(resource)).toEqual(await onDispatch('document', 'incident_id = 2'));
    const groups = await call(t.app, 'GET', `/second/incidents/${target('incident', 2)}/groups`, { token });
    expect(groups.body.map((g: Record<string, unknown>) => [g.kind, g.email])).toEqual(
      (await onSource<{ email: string }>(url, `SELECT email FROM ${SECOND}."group" WHERE incident_id = 2 ORDER BY id`)).map((g) => [
        g.email.endsWith('-notifications@example.com') ? 'notifications' : 'tactical',
        g.email,
      ]),
    );
  });

  it('changes nothing when run again', async () => {
    const idMap = join(mkdtempSync(join(tmpdir(), 'muster-import-')), 'ids.json');
    const reports = await importDispatch(t.database.db, { from: url, idMap, keys: { muster: t.settings.encryptionKey as string, dispatch: DISPATCH_KEY } });
    expect(reports.map((r) => [...r.written])).toEqual([[], []]);
  });

  it('refuses a configuration the key does not open, writing nothing of the organization', async () => {
    await expect(
      importDispatch(t.database.db, { from: url, orgs: ['second'], keys: { muster: t.settings.encryptionKey as string, dispatch: 'another key' } }),
    ).rejects.toThrow(/organization second was not imported \(nothing of it was written\).*do not decrypt with --dispatch-encryption-key/);
  });

  it('refuses a Dispatch newer than its last release', async () => {
    await onSource(url, `UPDATE ${SECOND}.alembic_version SET version_num = '0123456789ab'`);
    await expect(importDispatch(t.database.db, { from: url, keys: { muster: t.settings.encryptionKey as string } })).rejects.toThrow(
      /dispatch_organization_second is at revision 0123456789ab, which is not one the importer knows.*A newer Dispatch is not supported/,
    );
  });
});
