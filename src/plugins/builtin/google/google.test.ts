// The Google Workspace plugins against a local Google (test/peers/google.ts) that checks the
// service account's signed assertions and the scopes of its tokens: an incident through create,
// a file added, Stable and Closed over HTTP and its jobs, and what Drive, Docs, the Directory and
// Calendar received. A Google that refuses or asks to wait never fails the write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS } from '../../../../test/helpers.ts';
import { drainJobs } from '../../../../test/jobs.ts';
import { type GooglePeer, startGooglePeer } from '../../../../test/peers/google.ts';
import { cases as casesApi } from '../../../../test/worlds/cases.ts';
import { api, useWorld } from '../../../../test/worlds/incidents.ts';
import { listJobs } from '../../../jobs/admin.ts';
import { pluginEnv } from '../../../domains/plugin/active.ts';
import { googleCalendarPlugin } from './calendar.ts';
import { googleGroupsPlugin } from './groups.ts';

const WORKSPACE_USER = 'incident-bot@example.com';

const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
const cases = casesApi(w);
let google: GooglePeer;
const drain = () => drainJobs(w.t.database, w.t.settings, 60_000, { retryNow: true });

const instances = async () =>
  (await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } })).body.items.filter(
    (i: { project: { name: string } }) => i.project.name === 'default',
  ) as { id: number; enabled: boolean; plugin: { slug: string } }[];

async function setEnabled(slug: string, enabled: boolean, configuration?: Record<string, unknown>) {
  const instance = (await instances()).find((i) => i.plugin.slug === slug)!;
  return call(w.t.app, 'PUT', `/default/plugins/instances/${instance.id}`, { token: w.admin, body: { enabled, ...(configuration ? { configuration } : {}) } });
}

const shared = () => ({ service_account_key: google.key, subject: WORKSPACE_USER, api_root_url: google.url });
/** Adds a text file to a record over HTTP, as the web UI does. */
async function upload(path: string, name: string, text: string) {
  const boundary = '----google-test';
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`,
  );
  return w.t.app.inject({
    method: 'POST',
    url: `/api/v1/default/${path}/files`,
    headers: { authorization: `Bearer ${w.admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

const sent = (method: string, path: RegExp) => google.requests.filter((r) => r.method === method && path.test(r.path));

beforeAll(async () => {
  google = await startGooglePeer({ delegatedTo: WORKSPACE_USER });
  for (const [id, name] of [
    ['incidents-folder', 'Incidents'],
    ['shared-drive-1', 'Incident files'],
  ])
    google.files.set(id, { id, name, mimeType: 'application/vnd.google-apps.folder', parents: [], text: '', permissions: [], contentRestrictions: [] });
  google.files.set('tmpl-incident', {
    id: 'tmpl-incident',
    name: 'Incident template',
    mimeType: 'application/vnd.google-apps.document',
    parents: [],
    text: 'Incident {{name}}: {{title}}. {{description}} Commander: {{owner}}',
    permissions: [],
    contentRestrictions: [],
  });
  const plugins = [
    ['muster-document', 'google-docs-document', { incident_template_id: 'tmpl-incident', folder_id: 'incidents-folder' }],
    ['muster-storage', 'google-drive-storage', { parent_id: 'shared-drive-1' }],
    ['muster-participant-group', 'google-group-participant-group', { domain: 'example.com' }],
    ['muster-jitsi-conference', 'google-calendar-conference', {}],
  ] as const;
  for (const [ours, theirs, own] of plugins) {
    expect((await setEnabled(ours, false)).status).toBe(200);
    const res = await setEnabled(theirs, true, { ...shared(), ...own });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});
afterAll(() => google?.close());

describe('Google Workspace plugins', () => {
  it('are installed with the others and disabled until configured, their key never shown again', async () => {
    const google = (await instances()).filter((i) => i.plugin.slug.startsWith('google-'));
    expect(google.map((i) => i.plugin.slug).sort()).toEqual([
      'google-calendar-conference',
      'google-docs-document',
      'google-drive-storage',
      'google-group-participant-group',
    ]);
    const projects = (await call(w.t.app, 'GET', '/elsewhere/plugins/instances', { token: w.owner, query: { itemsPerPage: -1 } })).body.items;
    expect(projects.filter((i: { plugin: { slug: string }; enabled: boolean }) => i.plugin.slug.startsWith('google-') && i.enabled)).toEqual([]);
    const read = await call(w.t.app, 'GET', `/default/plugins/instances/${google[0].id}`, { token: w.admin });
    expect(JSON.stringify(read.body)).not.toContain('PRIVATE KEY');
  });

  it('a configuration without its key, or moving the API root without giving the key again, is refused', async () => {
    const missing = await setEnabled('google-drive-storage', true, { subject: WORKSPACE_USER });
    expect(missing.status).toBe(422);
    const read = (await instances()).find((i) => i.plugin.slug === 'google-drive-storage')!;
    const masked = (await call(w.t.app, 'GET', `/default/plugins/instances/${read.id}`, { token: w.admin })).body.configuration;
    const moved = await setEnabled('google-drive-storage', true, { ...masked, api_root_url: 'http://127.0.0.2:9' });
    expect(moved.status).toBe(422);
    expect(moved.body.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type])).toEqual([
      ['body.configuration.service_account_key', 'value_error.secret_required'],
    ]);
  });

  it('a configuration Google refuses is refused on save: a key not a key, a user not delegated, a template not there', async () => {
    const refused = async (configuration: Record<string, unknown>) => {
      const res = await setEnabled('google-docs-document', true, { ...shared(), incident_template_id: 'tmpl-incident', ...configuration });
      expect(res.status).toBe(422);
      return res.body.detail.map((d: { loc: string[]; type: string; msg: string }) => [d.loc.join('.'), d.type, d.msg]);
    };
    expect(await refused({ service_account_key: '{"type":"service_account"}' })).toEqual([
      ['body.configuration.service_account_key', 'value_error.plugin_refused', expect.stringContaining('give the whole JSON key file')],
    ]);
    expect(await refused({ subject: 'someone-else@example.com' })).toEqual([
      ['body.configuration.subject', 'value_error.plugin_refused', expect.stringContaining('grant it domain-wide delegation')],
    ]);
    expect(await refused({ incident_template_id: 'no-such-template' })).toEqual([
      ['body.configuration.incident_template_id', 'value_error.plugin_refused', expect.stringContaining('Drive has no file no-such-template')],
    ]);
    // Still the configuration saved first, and enabled.
    expect((await instances()).find((i) => i.plugin.slug === 'google-docs-document')!.enabled).toBe(true);
  });

  it('drives an incident through create, a file, Stable and Closed', async () => {
    const created = await incidents.create({ title: 'Checkout down', description: 'Payments fail.' }, w.admin);
    expect(created.status).toBe(200);
    const id = created.body.id;
    await drain();

    // Tokens: asked for as the delegated user, each plugin with its own scopes.
    expect(google.grants.every((g) => g.sub === WORKSPACE_USER)).toBe(true);
    expect(google.grants.map((g) => g.scope)).toContain('https://www.googleapis.com/auth/drive https://www.googleapis.com/auth/documents');
    expect(google.grants.map((g) => g.scope)).toContain('https://www.googleapis.com/auth/admin.directory.group');
    expect(google.grants.map((g) => g.scope)).toContain('https://www.googleapis.com/auth/calendar');

    // The incident document: the template copied into the folder, its placeholders filled.
    const [copy] = sent('POST', /^\/drive\/v3\/files\/tmpl-incident\/copy$/);
    expect(copy.body.parents).toEqual(['incidents-folder']);
    expect(copy.query.supportsAllDrives).toBe('true');
    const read = (await incidents.get(id, w.admin)).body;
    const doc = read.documents.find((d: { resource_type: string }) => d.resource_type === 'dispatch-incident-document');
    expect(doc.weblink).toBe(`https://docs.google.com/document/d/${doc.resource_id}/edit`);
    expect(google.files.get(doc.resource_id)!.text).toBe(`Incident ${read.name}: Checkout down. Payments fail. Commander: admin@example.com`);
    const [fill] = sent('POST', new RegExp(`^/v1/documents/${doc.resource_id}:batchUpdate$`));
    expect(fill.body.requests).toContainEqual({ replaceAllText: { containsText: { text: '{{title}}', matchCase: true }, replaceText: 'Checkout down' } });

    // The groups: made at the configured domain.
    expect(sent('POST', /^\/admin\/directory\/v1\/groups$/).map((r) => r.body.email)).toEqual([
      `${read.name.toLowerCase()}@example.com`,
      `${read.name.toLowerCase()}-notifications@example.com`,
    ]);

    // The meeting: an event with a Meet conference request, the incident's people invited.
    const [insert] = sent('POST', /^\/calendar\/v3\/calendars\/primary\/events$/);
    expect(insert.query.conferenceDataVersion).toBe('1');
    expect(insert.body.conferenceData.createRequest.conferenceSolutionKey).toEqual({ type: 'hangoutsMeet' });
    expect(insert.body.attendees).toEqual([{ email: 'admin@example.com' }]);
    expect(read.conference.weblink).toMatch(/^https:\/\/meet\.google\.com\/abc-/);
    expect(read.conference.resource_id).toBe(insert.body.id);

    // A file: the incident's Drive folder is made in the shared drive, then shared with its people by a job.
    const added = await upload(`incidents/${id}`, 'notes.txt', 'notes');
    expect(added.statusCode, added.body).toBe(200);
    await drain();
    const [folder] = sent('POST', /^\/drive\/v3\/files$/);
    expect(folder.body).toMatchObject({ mimeType: 'application/vnd.google-apps.folder', parents: ['shared-drive-1'] });
    const storage = (await incidents.get(id, w.admin)).body.storage;
    expect(storage.weblink).toBe(`https://drive.google.com/drive/folders/${storage.resource_id}`);
    expect(
      google.files
        .get(storage.resource_id)!
        .permissions.filter((p) => p.type === 'user' && p.role === 'writer')
        .map((p) => p.emailAddress),
    ).toEqual(['admin@example.com']);

    // Stable: the review document, made from Muster's own template (no Docs template configured): Drive converts the upload.
    expect((await incidents.edit(id, { status: 'Stable' }, w.admin)).status).toBe(200);
    await drain();
    const [review] = sent('POST', /^\/upload\/drive\/v3\/files$/);
    expect(review.query.uploadType).toBe('multipart');
    expect(review.body).toMatchObject({ mimeType: 'application/vnd.google-apps.document', parents: ['incidents-folder'] });
    expect(review.media).toContain('Payments fail.');

    // Closed: documents locked (read-only, editors made readers).
    expect((await incidents.edit(id, { status: 'Closed', resolution: 'Rolled back.' }, w.admin)).status).toBe(200);
    await drain();
    const locked = google.files.get(doc.resource_id)!;
    expect(locked.contentRestrictions).toEqual([{ readOnly: true, reason: 'The record is closed' }]);
    expect(locked.permissions.map((p) => p.role).sort()).toEqual(['owner', 'reader']);
  });

  it('drives a case through create, a file Drive first fails to hold, and Closed', async () => {
    const created = await cases.create({ title: 'Phishing report' }, w.admin);
    expect(created.status).toBe(200);
    const id = created.body.id;
    await drain();
    const read = (await cases.get(id, w.admin)).body;
    // No case template configured: Muster's own, filled, uploaded for Drive to convert.
    const doc = read.documents.find((d: { resource_type: string }) => d.resource_type === 'dispatch-case-document');
    expect(google.files.get(doc.resource_id)).toMatchObject({ mimeType: 'application/vnd.google-apps.document', parents: ['incidents-folder'] });
    expect(google.files.get(doc.resource_id)!.text).toContain('Phishing report');
    expect([...google.groups.values()].map((g) => g.email)).toContain(`${read.name.toLowerCase()}@example.com`);

    // Drive refusing the folder: the upload answers 503 and stores nothing; the next one makes it.
    google.failures.push({ status: 500 });
    const refused = await upload(`cases/${id}`, 'headers.txt', 'Received: from x');
    expect(refused.statusCode).toBe(503);
    expect(refused.json().detail[0].msg).not.toContain('Google');
    expect((await call(w.t.app, 'GET', `/default/cases/${id}/files`, { token: w.admin })).body).toEqual([]);
    expect((await upload(`cases/${id}`, 'headers.txt', 'Received: from x')).statusCode).toBe(200);
    expect((await cases.get(id, w.admin)).body.storage.resource_type).toBe('google-drive-folder');

    expect((await cases.edit(id, { status: 'Closed', resolution: 'Blocked the sender.' }, w.admin)).status).toBe(200);
    await drain();
    expect(google.files.get(doc.resource_id)!.contentRestrictions).toEqual([{ readOnly: true, reason: 'The record is closed' }]);
  });

  it('shares an incident\u2019s folder with who joins, takes back only what it gave from who leaves, and keeps its group\u2019s members in step', async () => {
    const created = await incidents.create({ title: 'Queue backlog' }, w.admin);
    expect(created.status).toBe(200);
    const id = created.body.id;
    await drain();
    expect((await upload(`incidents/${id}`, 'graph.txt', 'load')).statusCode).toBe(200);
    await drain();
    const read = (await incidents.get(id, w.admin)).body;
    // What Muster notes of the sharing stays out of reads.
    expect(Object.keys(read.storage).sort()).toEqual(['description', 'resource_id', 'resource_type', 'weblink']);
    const folderId = read.storage.resource_id;
    const access = () =>
      google.files
        .get(folderId)!
        .permissions.filter((p) => p.type === 'user' && p.role !== 'owner')
        .map((p) => `${p.emailAddress}:${p.role}`)
        .sort();
    expect(access()).toEqual(['admin@example.com:writer']);
    const tactical = () => [...google.groups.values()].find((g) => g.email === `${read.name.toLowerCase()}@example.com`)!;
    // Someone a person shared the folder with in Drive before they joined.
    google.files.get(folderId)!.permissions.push({ id: 'user-lead@example.com', type: 'user', role: 'reader', emailAddress: 'lead@example.com' });

    // Two join; Drive fails once, which the additions never hear of: the job tries again.
    const seen = google.requests.length;
    google.failures.push({ status: 500 });
    for (const email of ['Bob@example.com', 'lead@example.com'])
      expect((await call(w.t.app, 'POST', `/default/incidents/${id}/participants`, { token: w.admin, body: { email, role: 'Participant' } })).status).toBe(200);
    await drain();
    const shares = google.requests.slice(seen).filter((r) => r.method === 'POST' && /\/permissions$/.test(r.path) && !r.failedWith);
    expect(shares.map((r) => [r.path, r.query.sendNotificationEmail, r.body])).toEqual([
      [`/drive/v3/files/${folderId}/permissions`, 'false', { type: 'user', role: 'writer', emailAddress: 'bob@example.com' }],
    ]);
    expect(access()).toEqual(['admin@example.com:writer', 'bob@example.com:writer', 'lead@example.com:reader']);
    expect(
      tactical()
        .members.map((m) => m.email)
        .sort(),
    ).toEqual(['admin@example.com', 'bob@example.com', 'lead@example.com']);

    // Both leave: Bob's access, which Muster gave, is taken back; the lead's stays theirs.
    const people = (await incidents.get(id, w.admin)).body.participants as { id: number; individual: { email: string } }[];
    for (const p of people.filter((p) => p.individual.email !== 'admin@example.com'))
      expect((await call(w.t.app, 'DELETE', `/default/incidents/${id}/participants/${p.id}`, { token: w.admin })).status).toBe(200);
    await drain();
    expect(
      google.requests
        .slice(seen)
        .filter((r) => r.method === 'DELETE' && /\/permissions\//.test(r.path))
        .map((r) => r.path),
    ).toEqual([`/drive/v3/files/${folderId}/permissions/user-bob%40example.com`]);
    expect(access()).toEqual(['admin@example.com:writer', 'lead@example.com:reader']);
    expect(tactical().members.map((m) => m.email)).toEqual(['admin@example.com']);

    // Closed: whoever had access keeps it for the review, and the groups keep their members.
    expect((await incidents.edit(id, { status: 'Closed', resolution: 'Drained.' }, w.admin)).status).toBe(200);
    await drain();
    expect(access()).toEqual(['admin@example.com:writer', 'lead@example.com:reader']);
    expect(tactical().members.map((m) => m.email)).toEqual(['admin@example.com']);
  });

  it('shares a case\u2019s folder with its new assignee and brings them into its group', async () => {
    const created = await cases.create({ title: 'Lost laptop' }, w.admin);
    expect(created.status).toBe(200);
    const id = created.body.id;
    await drain();
    expect((await upload(`cases/${id}`, 'receipt.txt', 'serial 42')).statusCode).toBe(200);
    await drain();
    const read = (await cases.get(id, w.admin)).body;
    const folder = () => google.files.get(read.storage.resource_id)!;
    expect(
      folder()
        .permissions.filter((p) => p.role === 'writer')
        .map((p) => p.emailAddress),
    ).toEqual(['admin@example.com']);

    expect((await cases.edit(id, { assignee: { individual: { email: 'carol@example.com' } } }, w.admin)).status).toBe(200);
    await drain();
    expect(
      folder()
        .permissions.filter((p) => p.role === 'writer')
        .map((p) => p.emailAddress)
        .sort(),
    ).toEqual(['admin@example.com', 'carol@example.com']);
    const group = [...google.groups.values()].find((g) => g.email === `${read.name.toLowerCase()}@example.com`)!;
    expect(group.members.map((m) => m.email).sort()).toEqual(['admin@example.com', 'carol@example.com']);
  });

  it('keeps a group\u2019s members the record\u2019s people and ends a meeting, through the plugins', async () => {
    const config = { ...shared(), domain: 'example.com' };
    const env = pluginEnv(w.t.settings, 'group-members', { info() {}, warn() {} });
    const group = [...google.groups.values()][0];
    const asRead = { name: group.name, email: group.email, resource_id: group.id, resource_type: 'google-group-tactical', weblink: null, description: null };
    expect(await googleGroupsPlugin.recipients(asRead, ['a@example.com', 'B@example.com'], config, env)).toEqual([group.email]);
    expect(group.members.map((m) => m.email)).toEqual(['a@example.com', 'b@example.com']);
    expect(await googleGroupsPlugin.recipients(asRead, ['b@example.com', 'c@example.com'], config, env)).toEqual([group.email]);
    expect(group.members.map((m) => m.email)).toEqual(['b@example.com', 'c@example.com']);

    const [event] = google.events.values();
    const conference = { resource_id: event.id, resource_type: 'google-calendar-event', weblink: event.body.hangoutLink, conference_id: 'x' };
    await googleCalendarPlugin.delete(conference, { ...shared() }, env);
    expect(event.body.status).toBe('cancelled');
    // Ended twice changes nothing.
    await googleCalendarPlugin.delete(conference, { ...shared() }, env);
  });

  it('waits as long as Google asks when it limits the rate, and the document comes once it answers', async () => {
    google.failures.push({ status: 429, headers: { 'retry-after': '2' } }, { status: 503 });
    const seen = google.requests.length;
    const created = await incidents.create({ title: 'Slow queue' }, w.admin);
    expect(created.status).toBe(200);
    await drainJobs(w.t.database, w.t.settings, 90_000);
    expect(google.failures).toEqual([]);
    // The call refused with 429 was made again no sooner than Google asked.
    const requests = google.requests.slice(seen);
    const limited = requests.find((r) => r.failedWith === 429)!;
    const again = requests.find((r) => r.at > limited.at && r.method === limited.method && r.path === limited.path && r !== limited)!;
    expect(again.at - limited.at).toBeGreaterThanOrEqual(2000);
    const docs = (await incidents.get(created.body.id, w.admin)).body.documents;
    expect(docs.map((d: { resource_type: string }) => d.resource_type)).toEqual(['dispatch-incident-document']);
  });

  it('a revoked key never fails the write: the job ends failed saying what to fix', async () => {
    google.keyRevoked = true;
    try {
      const created = await incidents.create({ title: 'Disk full' }, w.admin);
      expect(created.status).toBe(200);
      await drain();
      const failed = (await listJobs(w.t.database, { limit: 50 })).filter((j) => j.state === 'failed');
      const reasons = failed.map((j) => JSON.stringify(j.output));
      expect(reasons.some((r) => r.includes('Google refused the service account key (400: invalid_grant)'))).toBe(true);
      expect(reasons.join()).not.toContain('PRIVATE KEY');
    } finally {
      google.keyRevoked = false;
    }
  });
});
