// Notifications end to end: notifications and incidents made through the API, the real job workers,
// and real peers receiving what they send (a local SMTP server, an HTTP webhook receiver).
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs } from '../../../test/jobs.ts';
import { type SmtpPeer, startReceiver, startSmtp, type WebhookPeer } from '../../../test/peers/messages.ts';
import { startSlack } from '../../../test/peers/slack.ts';
import { call, LOCAL_PEERS } from '../../../test/helpers.ts';
import { cases as caseApi } from '../../../test/worlds/cases.ts';
import { api, useWorld } from '../../../test/worlds/incidents.ts';
import { startJobWorkers } from '../../app/jobs.ts';
import { enqueue } from '../../jobs/queue.ts';
import { rowsOf } from '../../db/statements.ts';
import { encryptConfiguration } from '../../plugins/secrets.ts';
import type { Configuration } from '../../plugins/types.ts';
import { installPlugins } from '../plugin/catalogue.ts';
import { eventWords, isNews } from './notify.ts';
import { plugin, pluginInstance } from '../plugin/table.ts';
import { notification } from '../notification/table.ts';
import { project } from '../project/table.ts';

const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
const casesOf = caseApi(w);
const account = { username: 'muster-smtp', password: 'smtp-password-never-shown' };
const secret = 'webhook-secret-never-shown';

let smtp: SmtpPeer;
let hooks: WebhookPeer;
let projectId: number;

/** Enables the project's instance of a plugin with this configuration, as the plugin API would store it. */
async function enablePlugin(slug: string, config: Configuration) {
  const db = w.t.database.db;
  const [p] = await db.select({ id: plugin.id, type: plugin.type }).from(plugin).where(eq(plugin.slug, slug));
  const configuration = encryptConfiguration(config, w.t.settings.encryptionKey!);
  const updated = await db
    .update(pluginInstance)
    .set({ enabled: true, configuration })
    .where(and(eq(pluginInstance.project_id, projectId), eq(pluginInstance.plugin_id, p.id)))
    .returning({ id: pluginInstance.id });
  if (updated.length === 0) {
    const [proj] = await db.select({ organization_id: project.organization_id }).from(project).where(eq(project.id, projectId));
    await db
      .insert(pluginInstance)
      .values({ organization_id: proj.organization_id, project_id: projectId, plugin_id: p.id, plugin_type: p.type, enabled: true, configuration });
  }
}

const smtpConfig = (password = account.password) => ({
  host: '127.0.0.1',
  port: smtp.port,
  username: account.username,
  password,
  from: 'Muster <muster@example.org>',
  reject_unauthorized: false,
});

const notify = (body: Record<string, unknown>) =>
  call(w.t.app, 'POST', '/default/notifications', { token: w.admin, body: { project: { name: 'default' }, ...body } });
const searchFilter = async (name: string, expression: unknown, subject = 'incident') =>
  (await call(w.t.app, 'POST', '/default/search/filters', { token: w.admin, body: { name, expression, subject, project: { name: 'default' } } })).body;
const drain = (timeoutMs?: number) => drainJobs(w.t.database, w.t.settings, timeoutMs);
/** Every API answer of the test, to check that no secret is in any. */
const answers: unknown[] = [];
const keep = <T>(res: T) => {
  answers.push(res);
  return res;
};

beforeAll(async () => {
  smtp = await startSmtp(account);
  hooks = await startReceiver(secret);
  await installPlugins(w.t.database.db);
  projectId = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items.find((p: { name: string }) => p.name === 'default').id;
  await enablePlugin('muster-email', smtpConfig());
  await enablePlugin('muster-webhook', { secret });
});
afterEach(async () => {
  await w.t.database.db.delete(notification);
  smtp.received.length = 0;
  hooks.requests.length = 0;
  hooks.delivered.length = 0;
});
afterAll(async () => {
  await smtp?.close();
  await hooks?.close();
});

describe('what is news', () => {
  it('is a creation, a change of status, or of type, severity or priority while not Closed', () => {
    expect(isNews({ status: 'Closed' }, { event: 'created' })).toBe(true);
    expect(isNews({ status: 'Closed' }, { event: 'updated', change: { status: { from: 'Stable', to: 'Closed' } } })).toBe(true);
    expect(isNews({ status: 'Active' }, { event: 'updated', change: { assessment: ['priority'] } })).toBe(true);
    expect(isNews({ status: 'Closed' }, { event: 'updated', change: { assessment: ['priority'] } })).toBe(false);
    expect(isNews({ status: 'Active' }, { event: 'updated', change: {} })).toBe(false);
  });

  it('is told in words', () => {
    expect(eventWords({ event: 'updated', change: { status: { from: 'Active', to: 'Stable' }, assessment: ['type', 'severity'] } })).toBe(
      'status changed from Active to Stable; type and severity changed',
    );
  });
});

describe('notifications', () => {
  it("e-mail and a signed webhook on an incident's creation", async () => {
    keep(await notify({ name: 'Ops mail', type: 'email', target: 'ops@example.com' }));
    const hook = keep(await notify({ name: 'Ops hook', type: 'webhook', target: hooks.url }));
    expect(hook.status).toBe(200);
    const created = keep(await incidents.create({ title: 'Database down', reporter: { individual: { email: 'reporter@example.com' } } }));
    expect(created.status).toBe(200);
    await drain();
    const incident = keep(await incidents.get(created.body.id)).body;
    expect(incident.name).toBeTruthy();

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.envelope).toEqual({ from: 'muster@example.org', to: ['ops@example.com'] });
    expect(mail.mail.subject).toBe(`[${incident.name}] Database down`);
    const text = mail.mail.text ?? '';
    expect(text).toContain(`Incident ${incident.name} created.`);
    expect(text).toContain('Status: Active');
    expect(text).toContain(`Priority: ${incident.incident_priority.name}`);
    expect(text).toContain('Reporter: reporter@example.com');
    expect(text).toContain(`/default/incidents/${incident.name}`);
    expect(text).toContain('Sent for the notification "Ops mail".');

    expect(hooks.delivered).toHaveLength(1);
    const [d] = hooks.delivered;
    expect(d.verified).toBe(true);
    expect(d.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(d.json.event).toBe('incident.created');
    expect(d.json.data).toMatchObject({
      notification: { id: hook.body.id, name: 'Ops hook' },
      filter: null,
      change: null,
      record: { kind: 'incident', id: incident.id, name: incident.name, title: 'Database down', status: 'Active', reporter: 'reporter@example.com' },
    });
    expect(d.json.data.record.description).toBeUndefined();
  });

  it('fires once per matching filter, never for a filter that does not match or is of cases', async () => {
    const none = await searchFilter('Title is nope', [{ field: 'title', value: 'nope' }]);
    const byTitle = await searchFilter('Title filtered', [{ field: 'title', op: 'like', value: 'Filtered%' }]);
    const byProject = await searchFilter('Project default', [{ model: 'Project', field: 'name', value: 'default' }]);
    const cases = await searchFilter('Every case', [], 'case');
    keep(await notify({ name: 'Never', type: 'email', target: 'never@example.com', filters: [{ id: none.id }, { id: cases.id }] }));
    keep(await notify({ name: 'Twice', type: 'email', target: 'twice@example.com', filters: [{ id: byTitle.id }, { id: byProject.id }, { id: none.id }] }));
    await incidents.create({ title: 'Filtered one' });
    await drain();
    expect(smtp.received.map((r) => r.envelope.to)).toEqual([['twice@example.com'], ['twice@example.com']]);
    const texts = smtp.received.map((r) => r.mail.text ?? '');
    expect(texts.filter((t) => t.includes('(search filter "Title filtered")'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('(search filter "Project default")'))).toHaveLength(1);
  });

  it('fires on a change of status, not on a change of title; a disabled notification never', async () => {
    keep(await notify({ name: 'Changes', type: 'email', target: 'changes@example.com' }));
    keep(await notify({ name: 'Switched off', type: 'email', target: 'off@example.com', enabled: false }));
    const created = await incidents.create({ title: 'Changing' });
    await drain();
    expect(smtp.received.map((r) => r.envelope.to)).toEqual([['changes@example.com']]);
    smtp.received.length = 0;

    expect((await incidents.edit(created.body.id, { title: 'Changing still' })).status).toBe(200);
    await drain();
    expect(smtp.received).toHaveLength(0);

    expect((await incidents.edit(created.body.id, { status: 'Stable' })).status).toBe(200);
    await drain();
    expect(smtp.received.map((r) => r.envelope.to)).toEqual([['changes@example.com']]);
    expect(smtp.received[0].mail.text).toContain('status changed from Active to Stable.');
    expect(smtp.received[0].mail.text).toContain('Status: Stable');
  });

  it("e-mails a case's creation, matching case filters only", async () => {
    const everyCase = await searchFilter('Cases titled Phishing', [{ field: 'title', op: 'like', value: 'Phishing%' }], 'case');
    const everyIncident = await searchFilter('Every incident', [], 'incident');
    keep(await notify({ name: 'Case mail', type: 'email', target: 'cases@example.com', filters: [{ id: everyCase.id }, { id: everyIncident.id }] }));
    const created = keep(await casesOf.create({ title: 'Phishing mail reported' }));
    expect(created.status).toBe(200);
    await drain();
    const c = keep(await casesOf.get(created.body.id)).body;
    expect(smtp.received.map((r) => r.envelope.to)).toEqual([['cases@example.com']]);
    const [mail] = smtp.received;
    expect(mail.mail.subject).toBe(`[${c.name}] Phishing mail reported`);
    expect(mail.mail.text).toContain(`Case ${c.name} created.`);
    expect(mail.mail.text).toContain('Assignee: ');
    expect(mail.mail.text).toContain(`/default/cases/${c.name}`);
    expect(mail.mail.text).toContain('(search filter "Cases titled Phishing")');
  });

  it('notifies of each record of a job that carries several (the cases a signal batch opens)', async () => {
    keep(await notify({ name: 'Every case', type: 'email', target: 'batch@example.com' }));
    // Two cases written without effects, then one effects job for both, as a batch of signal instances makes it.
    const [a, b] = [keep(await casesOf.create({ title: 'First of a batch' })).body, keep(await casesOf.create({ title: 'Second of a batch' })).body];
    await drain();
    smtp.received.length = 0;
    const [org] = await w.t.database.query<{ id: number }>(`SELECT id FROM organization WHERE slug = 'default'`);
    await enqueue(w.t.database.db, 'record-effects', {
      organization_id: org.id,
      user: { id: 1, email: 'owner@example.com' },
      kind: 'case',
      ids: [a.id, b.id],
      event: { event: 'created' },
    });
    await drain();
    expect(smtp.received.map((r) => r.mail.subject).sort()).toEqual([`[${a.name}] First of a batch`, `[${b.name}] Second of a batch`]);
  });

  it('tells of a Restricted incident by name and link, never its title', async () => {
    keep(await notify({ name: 'Everything', type: 'email', target: 'all@example.com' }));
    const created = keep(await incidents.create({ title: 'Secret merger leak', visibility: 'Restricted' }, w.owner));
    expect(created.status).toBe(200);
    await drain();
    const mine = smtp.received.filter((r) => r.mail.subject?.includes(created.body.name));
    expect(mine.map((r) => r.mail.subject)).toEqual([`[${created.body.name}] (restricted)`]);
    expect(mine[0].mail.text).not.toContain('Secret merger leak');
    expect(mine[0].mail.text).toContain('Visibility: Restricted');
  });

  it('retries a webhook the receiver refused, with the same Idempotency-Key', async () => {
    const flaky = await startReceiver(secret, (n) => (n === 0 ? 500 : 200));
    try {
      keep(await notify({ name: 'Flaky hook', type: 'webhook', target: flaky.url }));
      await incidents.create({ title: 'Retried' });
      await drain(90_000);
      expect(flaky.requests).toHaveLength(2);
      expect(flaky.delivered).toHaveLength(1);
      const [first, second] = flaky.requests;
      expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
      expect(second.json.data).toEqual(first.json.data);
    } finally {
      await flaky.close();
    }
  }, 120_000);

  it('retries an e-mail the server refused to log in for, and sends it once the password is right', async () => {
    await enablePlugin('muster-email', smtpConfig('a-wrong-password'));
    keep(await notify({ name: 'Mail later', type: 'email', target: 'later@example.com' }));
    const refusedBefore = smtp.refusedLogins;
    await incidents.create({ title: 'Mail server refuses' });
    const queue = await startJobWorkers(w.t.database, w.t.settings, { info() {}, warn() {}, error() {} }, { pollingIntervalSeconds: 0.5 });
    try {
      const until = Date.now() + 60_000;
      while (smtp.refusedLogins < refusedBefore + 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    } finally {
      // A third attempt may be under way: the queue stops once it has been refused too, leaving
      // the job waiting for its next retry (a busy machine can take more than a second or two).
      await queue.stop(30_000);
    }
    expect(smtp.refusedLogins).toBeGreaterThanOrEqual(refusedBefore + 2);
    expect(smtp.received).toHaveLength(0);
    const db = w.t.database.db;
    const jobs = rowsOf<{ state: string; retry_count: number; output: unknown; data: unknown }>(
      await db.execute(
        sql`SELECT state, retry_count, output, data FROM pgboss.job WHERE name = 'notification-email' AND data->'message'->'to' ? 'later@example.com'`,
      ),
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0].state).toBe('retry');
    expect(jobs[0].retry_count).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(jobs[0])).not.toContain('a-wrong-password');

    await enablePlugin('muster-email', smtpConfig());
    // The next attempt now, rather than after its backoff.
    await db.execute(sql`UPDATE pgboss.job SET start_after = now() WHERE name = 'notification-email' AND state = 'retry'`);
    await drain();
    expect(smtp.received.map((r) => r.envelope.to)).toEqual([['later@example.com']]);
  }, 120_000);

  it('skips a message when the project has no active plugin of its type', async () => {
    keep(await notify({ name: 'Chat', type: 'conversation', target: '#incidents' }));
    await incidents.create({ title: 'Nobody to post it' });
    await drain();
    const [job] = rowsOf<{ state: string; output: unknown }>(
      await w.t.database.db.execute(sql`SELECT state, output FROM pgboss.job WHERE name = 'notification-conversation' ORDER BY created_on DESC LIMIT 1`),
    );
    expect(job).toMatchObject({ state: 'completed', output: { skipped: 'no active conversation plugin' } });
  });

  it("posts a conversation notification to its channel through the project's Slack plugin", async () => {
    const slack = await startSlack();
    try {
      const channel = slack.addChannel('incidents');
      await enablePlugin('slack-conversation', { bot_token: slack.token, signing_secret: 'x', api_url: slack.apiUrl });
      keep(await notify({ name: 'Chat', type: 'conversation', target: '#incidents' }));
      await incidents.create({ title: 'Posted to Slack' });
      await drain();
      const texts = slack.channels.get(channel)!.messages.map((m) => m.text);
      expect(texts).toEqual([expect.stringContaining('Posted to Slack')]);
    } finally {
      await w.t.database.db.update(pluginInstance).set({ enabled: false }).where(eq(pluginInstance.plugin_type, 'conversation'));
      await slack.close();
    }
  });

  it('checks that a webhook notification targets an http(s) URL', async () => {
    for (const target of ['ftp://example.com/x', 'example.com/hook', 'https://user:pw@example.com/', 'https:// example.com']) {
      const res = await notify({ name: 'Bad hook', type: 'webhook', target });
      expect(res.status, target).toBe(422);
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([['body', 'target']]);
    }
    expect((await notify({ name: 'Good hook', type: 'webhook', target: 'https://hooks.example.com/muster?team=ops' })).status).toBe(200);
  });

  it('never shows a secret in an answer', () => {
    const all = JSON.stringify(answers);
    expect(answers.length).toBeGreaterThan(5);
    expect(all).not.toContain(account.password);
    expect(all).not.toContain(secret);
  });
});
