// A new incident's groups and meeting, made by the participant-group and conference plugins in a
// job after the write; a case's tactical group in its read; reports mailed to the groups through
// the e-mail plugin, reaching a real SMTP server, to the members the record has when they are sent.
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import { type SmtpPeer, startSmtp } from '../../../test/peers/messages.ts';
import { cases } from '../../../test/worlds/cases.ts';
import { api, person, useWorld } from '../../../test/worlds/incidents.ts';

// The mail server is a local peer: the outbound policy allows loopback here only.
const w = useWorld({ outboundAllow: LOCAL_PEERS });
const a = api(w);
const account = { username: 'muster-smtp', password: 'smtp-password-never-shown' };
const JITSI_SECRET = 'jitsi-secret-never-shown';
let smtp: SmtpPeer;

/** Enables the project's instance of a plugin with a configuration, through the API as an Owner does. */
async function configure(slug: string, configuration: Record<string, unknown>) {
  const instances = await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.owner, query: { itemsPerPage: -1 } });
  const instance = instances.body.items.find((i: any) => i.plugin.slug === slug && i.project.name === 'default');
  const res = await call(w.t.app, 'PUT', `/default/plugins/instances/${instance.id}`, { token: w.owner, body: { enabled: true, configuration } });
  expect(res.status).toBe(200);
}

const drain = () => drainJobs(w.t.database, w.t.settings);

beforeAll(async () => {
  smtp = await startSmtp(account);
  await configure('muster-email', {
    host: '127.0.0.1',
    port: smtp.port,
    username: account.username,
    password: account.password,
    from: 'Muster <muster@example.org>',
    reject_unauthorized: false,
  });
  await configure('muster-jitsi-conference', { base_url: 'https://meet.example.org/', app_id: 'muster-test', app_secret: JITSI_SECRET });
  await configure('muster-participant-group', { domain: 'groups.example.org' });
});
afterAll(() => smtp?.close());

describe("an incident's groups and meeting", () => {
  let incident: any;
  beforeAll(async () => {
    incident = (await a.create({ title: 'Checkout down', commander: person('owner@example.com') })).body;
    // Made after the write, not in it.
    expect(incident.conference).toBeNull();
    await drain();
  });

  it('has a meeting link on the Jitsi server with a signed room token, on its read and its timeline', async () => {
    const read = (await a.get(incident.id)).body;
    expect(read.conference).toMatchObject({ resource_type: 'muster-jitsi-room' });
    const room: string = read.conference.conference_id;
    expect(room).toMatch(new RegExp(`^${incident.name.toLowerCase()}-[0-9a-f]{12}$`));
    const link = new URL(read.conference.weblink);
    expect(`${link.origin}${link.pathname}`).toBe(`https://meet.example.org/${room}`);
    const token = link.searchParams.get('jwt')!;
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(JITSI_SECRET), { audience: 'muster-test', issuer: 'muster-test' });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: 'meet.example.org', room, context: { user: { email: 'owner@example.com' } } });
    expect(payload.exp! - payload.iat!).toBe(7 * 24 * 3600);
    const events = read.events.map((e: any) => e.description);
    expect(events).toContain(`Meeting created: https://meet.example.org/${room}`);
    // The timeline does not carry the token.
    expect(JSON.stringify(read.events)).not.toContain(token);
  });

  it('has a tactical and a notifications group named after it', async () => {
    const groups = await call(w.t.app, 'GET', `/default/incidents/${incident.id}/groups`, { token: w.member });
    expect(groups.status).toBe(200);
    const base = incident.name.toLowerCase();
    expect(groups.body).toEqual([
      expect.objectContaining({ kind: 'tactical', name: base, email: `${base}@groups.example.org`, resource_type: 'muster-tactical-group' }),
      expect.objectContaining({ kind: 'notifications', email: `${base}-notifications@groups.example.org`, resource_type: 'muster-notifications-group' }),
    ]);
    const events = (await a.get(incident.id)).body.events.map((e: any) => e.description);
    expect(events).toEqual(expect.arrayContaining([`Tactical group created: ${base}@groups.example.org`]));
  });

  it('mails a tactical report to its people and subscribers as they are when it is sent', async () => {
    await a.post(incident.id, 'subscribe', w.admin);
    smtp.received.length = 0;
    const res = await a.post(incident.id, 'report/tactical', w.owner, { conditions: 'Checkout fails', actions: 'Rolling back', needs: 'Nothing' });
    expect(res.status).toBe(200);
    await drain();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.envelope.to.sort()).toEqual(['admin@example.com', 'member@example.com', 'owner@example.com']);
    expect(mail.mail.subject).toBe(`[${incident.name}] Tactical Report by owner@example.com`);
    expect(mail.mail.text).toContain('Conditions:\nCheckout fails');
    expect(mail.mail.text).toContain(`/default/incidents/${incident.name}`);
  });

  it('mails an executive report to its notifications group: subscribers, not every participant', async () => {
    smtp.received.length = 0;
    await a.post(incident.id, 'report/executive', w.owner, { current_status: 'Mitigated', overview: 'Rolled back', next_steps: 'Review' });
    await drain();
    expect(smtp.received.map((m) => m.envelope.to)).toEqual([['admin@example.com']]);
  });

  it('are hidden with a Restricted incident', async () => {
    const restricted = (await a.create({ title: 'Quiet', visibility: 'Restricted', commander: person('owner@example.com') }, w.owner)).body;
    await drain();
    expect((await call(w.t.app, 'GET', `/default/incidents/${restricted.id}/groups`, { token: w.member })).status).toBe(404);
    expect((await call(w.t.app, 'GET', `/default/incidents/${restricted.id}/groups`, { token: w.owner })).body).toHaveLength(2);
  });
});

describe("a case's group", () => {
  it('is in the case read as `groups`', async () => {
    const created = (await cases(w).create({ title: 'Odd login' }, w.owner)).body;
    await drain();
    const read = (await cases(w).get(created.id, w.owner)).body;
    expect(read.groups).toEqual([
      expect.objectContaining({ email: `${created.name.toLowerCase()}@groups.example.org`, resource_type: 'muster-tactical-group' }),
    ]);
    expect(read.conference).toBeUndefined();
  });
});

describe('without a secret', () => {
  it('links a room without a token', async () => {
    await configure('muster-jitsi-conference', { base_url: 'https://meet.example.org' });
    const incident = (await a.create({ title: 'Plain room' })).body;
    await drain();
    const link: string = (await a.get(incident.id)).body.conference.weblink;
    expect(link).toMatch(/^https:\/\/meet\.example\.org\/[a-z0-9-]+$/);
  });
});
