// The periodic tasks, each run for one period against seeded data, their e-mails received by a
// local SMTP server through the project's e-mail plugin (configured over the plugin API).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { drainJobs } from '../../test/jobs.ts';
import { type SmtpPeer, startSmtp } from '../../test/peers/messages.ts';
import { call, LOCAL_PEERS } from '../../test/helpers.ts';
import { cases as caseApi } from '../../test/worlds/cases.ts';
import { api, useWorld } from '../../test/worlds/incidents.ts';
import { runsOf } from '../jobs/scheduler.ts';
import { createScheduler } from './tasks.ts';

const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
const cases = caseApi(w);
const log = pino({ level: 'silent' });
const account = { username: 'muster', password: 'smtp-password' };
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let smtp: SmtpPeer;

/** Runs one task for the period starting at `slot`; answers its outcome. */
async function runTask(name: string, slot: Date) {
  const s = createScheduler(w.t.database, w.t.settings, log, [name]);
  await s.runTask(s.tasks[0], slot);
  const runs = await runsOf(w.t.database.db, name);
  return runs.find((r) => r.slot.getTime() === slot.getTime())?.outcome;
}

/** The e-mails received once every job enqueued so far has run. */
async function mails() {
  await drainJobs(w.t.database, w.t.settings);
  return smtp.received.map((m) => ({ to: m.envelope.to, subject: m.mail.subject ?? '', text: m.mail.text ?? '' }));
}

const iso = (d: Date) => d.toISOString();

beforeAll(async () => {
  smtp = await startSmtp(account);
  const instances = (await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } })).body.items;
  const email = instances.find(
    (i: { plugin: { slug: string }; project: { name: string } }) => i.plugin.slug === 'muster-email' && i.project.name === 'default',
  );
  const res = await call(w.t.app, 'PUT', `/default/plugins/instances/${email.id}`, {
    token: w.admin,
    body: {
      enabled: true,
      configuration: {
        host: '127.0.0.1',
        port: smtp.port,
        username: account.username,
        password: account.password,
        from: 'Muster <muster@example.org>',
        reject_unauthorized: false,
      },
    },
  });
  expect(res.status).toBe(200);
});
afterAll(() => smtp.close());
beforeEach(async () => {
  await drainJobs(w.t.database, w.t.settings);
  smtp.received.length = 0;
});

describe('the periodic tasks', () => {
  it('incident-status-report-reminder: reminds the commander when the whole hours since the last report are a multiple of the priority’s', async () => {
    const slot = new Date(Date.now() + HOUR);
    // High: tactical every 2 hours, executive every 6. Reported 4 hours (and some minutes) before the period.
    const inc = (await incidents.create({ title: 'Report me', incident_priority: { name: 'High' }, commander: { individual: { email: 'cmd@example.com' } } }))
      .body;
    expect((await incidents.update(inc.id, { ...inc, reported_at: iso(new Date(slot.getTime() - 4 * HOUR - 10 * 60_000)) }, w.owner)).status).toBe(200);
    expect(await runTask('incident-status-report-reminder', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.subject.includes(inc.name));
    expect(got.map((m) => [m.to, m.subject])).toEqual([[['cmd@example.com'], `[${inc.name}] Tactical report reminder`]]);
    // The same period again: claimed, nothing more.
    expect(await runTask('incident-status-report-reminder', slot)).toBe('ok');
    expect((await mails()).filter((m) => m.subject.includes(inc.name))).toHaveLength(1);
  });

  it('incident-task-reminders: reminds the assignees of an Open task a day past due', async () => {
    const slot = new Date(Date.now() + HOUR);
    const inc = (await incidents.create({ title: 'Has a task' })).body;
    const task = await call(w.t.app, 'POST', '/default/tasks', {
      token: w.owner,
      body: {
        incident: { id: inc.id },
        description: 'Rotate the keys',
        assignees: [{ individual: { email: 'doer@example.com' } }],
        resolve_by: iso(new Date(slot.getTime() - DAY - 5 * 60_000)),
      },
    });
    expect(task.status).toBe(200);
    expect(await runTask('incident-task-reminders', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.subject.includes('Rotate the keys'));
    expect(got).toHaveLength(1);
    expect(got[0].to).toContain('doer@example.com');
  });

  it('case-triage-reminder: reminds the assignee of a case waiting a day for triage', async () => {
    const slot = new Date(Date.now() + HOUR);
    const c = (await cases.create({ title: 'Triage me', assignee: { individual: { email: 'triager@example.com' } } })).body;
    expect((await cases.update(c.id, { ...c, reported_at: iso(new Date(slot.getTime() - 2 * DAY)) })).status).toBe(200);
    expect(await runTask('case-triage-reminder', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.subject.includes(c.name));
    expect(got.map((m) => [m.to, m.subject])).toEqual([[['triager@example.com'], `[${c.name}] Case triage reminder`]]);
  });

  it('incident-close-reminder: reminds the commander of an incident Stable for a week', async () => {
    const slot = new Date(Date.now() + HOUR);
    const inc = (await incidents.create({ title: 'Stable for long', status: 'Stable', commander: { individual: { email: 'closer@example.com' } } })).body;
    expect((await incidents.update(inc.id, { ...inc, stable_at: iso(new Date(slot.getTime() - 8 * DAY)) }, w.owner)).status).toBe(200);
    expect(await runTask('incident-close-reminder', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.subject.includes(inc.name));
    expect(got.map((m) => m.to)).toEqual([['closer@example.com']]);
  });

  it('incident-daily-summary: sends the enabled notifications a summary of open and newly settled Open incidents', async () => {
    const slot = new Date(Date.now() + HOUR);
    const open = (await incidents.create({ title: 'Open and active' })).body;
    const hidden = (await incidents.create({ title: 'Restricted one', visibility: 'Restricted' }, w.owner)).body;
    const n = await call(w.t.app, 'POST', '/default/notifications', {
      token: w.admin,
      body: { name: 'Daily digest', type: 'email', target: 'digest@example.com', project: { name: 'default' } },
    });
    expect(n.status).toBe(200);
    await drainJobs(w.t.database, w.t.settings);
    smtp.received.length = 0;
    expect(await runTask('incident-daily-summary', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.to.includes('digest@example.com'));
    expect(got).toHaveLength(1);
    expect(got[0].subject).toBe('Daily incident summary for default');
    expect(got[0].text).toContain(open.name);
    expect(got[0].text).not.toContain(hidden.name);
    await call(w.t.app, 'DELETE', `/default/notifications/${n.body.id}`, { token: w.admin });
  });

  it('evergreen-reminder: groups overdue records by owner in one e-mail and sets their last reminder', async () => {
    const slot = new Date(Date.now() + HOUR);
    const doc = await call(w.t.app, 'POST', '/default/documents', {
      token: w.admin,
      body: {
        name: 'Runbook',
        evergreen: true,
        evergreen_owner: 'keeper@example.com',
        evergreen_reminder_interval: 7,
        evergreen_last_reminder_at: iso(new Date(slot.getTime() - 10 * DAY)),
        project: { name: 'default' },
      },
    });
    expect(doc.status).toBe(200);
    const fresh = await call(w.t.app, 'POST', '/default/documents', {
      token: w.admin,
      body: { name: 'Fresh doc', evergreen: true, evergreen_owner: 'keeper@example.com', evergreen_reminder_interval: 90, project: { name: 'default' } },
    });
    expect(fresh.status).toBe(200);
    expect(await runTask('evergreen-reminder', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.to.includes('keeper@example.com'));
    expect(got).toHaveLength(1);
    expect(got[0].text).toContain('Runbook');
    expect(got[0].text).not.toContain('Fresh doc');
    const after = await call(w.t.app, 'GET', `/default/documents/${doc.body.id}`, { token: w.admin });
    expect(new Date(after.body.evergreen_last_reminder_at).getTime()).toBe(slot.getTime());
  });

  it('incident-feedback-daily-report: e-mails the project owner the day’s feedback', async () => {
    const slot = new Date(Date.now() + HOUR);
    const projects = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items;
    const proj = projects.find((p: { name: string }) => p.name === 'default');
    expect((await call(w.t.app, 'PUT', `/default/projects/${proj.id}`, { token: w.owner, body: { ...proj, owner_email: 'owner@example.com' } })).status).toBe(
      200,
    );
    const inc = (await incidents.create({ title: 'Rated' })).body;
    const fb = await call(w.t.app, 'POST', '/default/feedback', {
      token: w.member,
      body: { incident: { id: inc.id }, rating: 'Very satisfied', feedback: 'Smooth handling', project: { name: 'default' } },
    });
    expect(fb.status).toBe(200);
    expect(await runTask('incident-feedback-daily-report', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.to.includes('owner@example.com'));
    expect(got).toHaveLength(1);
    expect(got[0].text).toContain('Smooth handling');
  });

  it('calculate-incident-cost: recomputes a response cost that went stale', async () => {
    const slot = new Date(Date.now() + HOUR);
    const inc = (await incidents.create({ title: 'Costly' })).body;
    expect((await incidents.update(inc.id, { ...inc, reported_at: iso(new Date(Date.now() - 10 * HOUR)) }, w.owner)).status).toBe(200);
    const cost = async () => Number((await incidents.get(inc.id, w.owner)).body.total_cost);
    const before = await cost();
    expect(before).toBeGreaterThan(0);
    await w.t.database.query('UPDATE incident_cost SET amount = 0 WHERE incident_id = $1', [inc.id]);
    expect(await cost()).toBe(0);
    expect(await runTask('calculate-incident-cost', slot)).toBe('ok');
    expect(await cost()).toBeGreaterThanOrEqual(before);
  });

  it('case-stable-reminder: reminds the assignee of a case Stable for a day', async () => {
    const slot = new Date(Date.now() + HOUR);
    const c = (await cases.create({ title: 'Settled case', status: 'Stable', assignee: { individual: { email: 'settler@example.com' } } })).body;
    await w.t.database.query('UPDATE "case" SET stable_at = $1 WHERE id = $2', [new Date(slot.getTime() - 2 * DAY), c.id]);
    expect(await runTask('case-stable-reminder', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.subject.includes(c.name));
    expect(got.map((m) => [m.to, m.subject])).toEqual([[['settler@example.com'], `[${c.name}] Case stable reminder`]]);
  });

  it('incident-report-weekly: sends the enabled notifications the incidents settled this week', async () => {
    const slot = new Date(Date.now() + HOUR);
    const closed = (await incidents.create({ title: 'Closed this week', status: 'Closed' })).body;
    const n = await call(w.t.app, 'POST', '/default/notifications', {
      token: w.admin,
      body: { name: 'Weekly digest', type: 'email', target: 'weekly@example.com', project: { name: 'default' } },
    });
    await drainJobs(w.t.database, w.t.settings);
    smtp.received.length = 0;
    expect(await runTask('incident-report-weekly', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.to.includes('weekly@example.com'));
    expect(got.map((m) => m.subject)).toEqual(['Weekly incident summary for default']);
    expect(got[0].text).toContain(closed.name);
    await call(w.t.app, 'DELETE', `/default/notifications/${n.body.id}`, { token: w.admin });
  });

  it('case-close-reminder: reminds the assignee of an Escalated case whose incidents are all Closed', async () => {
    const slot = new Date(Date.now() + HOUR);
    const c = (await cases.create({ title: 'Escalate me', assignee: { individual: { email: 'escalator@example.com' } } })).body;
    const esc = await call(w.t.app, 'PUT', `/default/cases/${c.id}/escalate`, { token: w.owner, body: { title: 'Escalated', description: 'From the case.' } });
    expect(esc.status).toBe(200);
    expect((await incidents.update(esc.body.id, { ...esc.body, status: 'Closed' }, w.owner)).status).toBe(200);
    expect(await runTask('case-close-reminder', slot)).toBe('ok');
    const got = (await mails()).filter((m) => m.subject.includes(c.name));
    expect(got.map((m) => [m.to, m.subject])).toEqual([[['escalator@example.com'], `[${c.name}] Case close reminder`]]);
  });

  it('workflow-sync: gives a run that stopped being checked a check of its own', async () => {
    const slot = new Date(Date.now() + HOUR);
    const instances = (await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } })).body.items;
    const generic = instances.find(
      (i: { plugin: { slug: string }; project: { name: string } }) => i.plugin.slug === 'muster-workflow' && i.project.name === 'default',
    );
    expect(
      (
        await call(w.t.app, 'PUT', `/default/plugins/instances/${generic.id}`, {
          token: w.admin,
          body: { enabled: true, configuration: { url: 'http://127.0.0.1:9/runs' } },
        })
      ).status,
    ).toBe(200);
    const wf = await call(w.t.app, 'POST', '/default/workflows', {
      token: w.admin,
      body: { name: 'Isolate host', resource_id: 'isolate', plugin_instance: { id: generic.id }, project: { name: 'default' } },
    });
    expect(wf.status).toBe(200);
    const inc = (await incidents.create({ title: 'Needs a workflow' }, w.owner)).body;
    const run = await call(w.t.app, 'POST', `/default/workflows/${wf.body.id}/run`, { token: w.owner, body: { incident: { id: inc.id } } });
    expect(run.status).toBe(200);
    // The run was started long ago and has not been checked since.
    await w.t.database.query(`UPDATE workflow_instance SET status = 'Running', updated_at = now() - interval '1 hour' WHERE id = $1`, [run.body.id]);
    const polls = async () =>
      (
        await w.t.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'workflow-poll' AND (data->>'instance_id')::int = $1`, [
          run.body.id,
        ])
      )[0].n;
    const before = await polls();
    expect(await runTask('workflow-sync', slot)).toBe('ok');
    expect(await polls()).toBe(before + 1);
    await w.t.database.query(`UPDATE workflow_instance SET status = 'Completed' WHERE id = $1`, [run.body.id]);
    await w.t.database.query(`DELETE FROM pgboss.job WHERE name IN ('workflow-run', 'workflow-poll')`);
  });

  it('tasks whose plugin is absent, or which have nothing to work on, run and record that they did', async () => {
    const slot = new Date(Date.now() + 2 * HOUR);
    for (const name of [
      'incident-task-sync',
      'term-sync',
      'document-term-sync',
      'application-sync',
      'calculate-cases-response-cost',
      'workflow-sync',
      'calculate-incident-cost',
      'case-close-reminder',
      'case-stable-reminder',
      'incident-report-weekly',
    ]) {
      expect([name, await runTask(name, slot)]).toEqual([name, 'ok']);
    }
  });
});
