// Grafana OnCall end to end against a local peer speaking its HTTP API v1 and a Formatted Webhook
// integration: the save is checked against the API token, an incident and a case page through the
// webhook (one alert group per record) and resolve it (`state: ok`) when they close; who is on call
// comes from the schedule the service names. Refusals, limits, failures and silence fail jobs only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PEERS } from '../../../../test/helpers.ts';
import { type GrafanaOncallPeer, startGrafanaOncall } from '../../../../test/peers/grafana-oncall.ts';
import { cases } from '../../../../test/worlds/cases.ts';
import { api, roles, useWorld } from '../../../../test/worlds/incidents.ts';
import { drain, pagingService, saveOncallPlugin, timeline, unfinishedOncallJobs, vendorFailures } from '../../../../test/worlds/oncall.ts';

const TOKEN = 'grafana-oncall-api-token';
const WEBHOOK_TOKEN = 'wHk3y0fTh3Integration';
const SCHEDULE = 'SBM7DV7BKFUYU';
const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
const c = cases(w);
let grafana: GrafanaOncallPeer;

const uid = (kind: string, id: number) => `${w.t.settings.namePrefix}-default-${kind}-${id}`;

beforeAll(async () => {
  grafana = await startGrafanaOncall({
    token: TOKEN,
    webhookToken: WEBHOOK_TOKEN,
    schedules: [{ id: SCHEDULE, name: 'Payments primary', on_call_now: [{ id: 'U4DNY931HHJS5', username: 'alex', email: 'alex@example.com' }] }],
  });
  await pagingService(w, SCHEDULE);
});
afterAll(() => grafana?.close());

describe('the Grafana OnCall plugin', () => {
  it('refuses an API token Grafana OnCall refuses, and takes a good one; the webhook URL is never shown', async () => {
    const bad = await saveOncallPlugin(w, 'grafana-oncall', { api_url: grafana.url, api_token: 'wrong', webhook_url: grafana.webhookUrl });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'configuration', 'api_token'], type: 'value_error.plugin_refused' });
    expect(bad.body.detail[0].msg).toContain('Grafana OnCall refused the API token (401)');
    const good = await saveOncallPlugin(w, 'grafana-oncall', { api_url: grafana.url, api_token: TOKEN, webhook_url: grafana.webhookUrl });
    expect(good.status).toBe(200);
    for (const secret of [TOKEN, WEBHOOK_TOKEN]) expect(JSON.stringify(good.body)).not.toContain(secret);
  });

  it("pages an incident through the webhook, makes the schedule's on-call person commander, and resolves on close", async () => {
    grafana.requests.length = 0;
    const created = await incidents.create({ title: 'Payments are failing', incident_priority: { name: 'Paging' } });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    await drain(w);

    const after = await incidents.get(id);
    expect(after.body.commander.individual.email).toBe('alex@example.com');
    expect(roles(after)['alex@example.com']).toEqual(['Incident Commander']);
    expect(grafana.requests.filter((r) => r.path.startsWith('/api/v1/')).map((r) => r.path)).toEqual([
      `/api/v1/schedules/${SCHEDULE}/`,
      '/api/v1/users/U4DNY931HHJS5/',
    ]);

    const [alert] = grafana.webhooks();
    expect(alert.body).toMatchObject({
      alert_uid: uid('incident', id),
      title: expect.stringContaining('Payments are failing'),
      state: 'alerting',
      link_to_upstream_details: expect.stringContaining('/default/incidents/'),
    });
    expect(await timeline(w, 'incidents', id)).toContain('The on-call of Payments on call was paged through Grafana OnCall Plugin - On-call');

    await incidents.edit(id, { title: 'Payments are failing in EU' });
    await drain(w);
    await incidents.edit(id, { status: 'Stable' });
    await drain(w);
    expect(grafana.webhooks()).toHaveLength(1);

    await incidents.edit(id, { status: 'Closed' });
    await drain(w);
    expect(grafana.webhooks().map((r) => r.body.state)).toEqual(['alerting', 'ok']);
    expect(grafana.groups.get(uid('incident', id))).toMatchObject({ alerts: 1, resolved: true });
    expect(await unfinishedOncallJobs(w)).toEqual([]);
  });

  it('pages a case and resolves its alert group when the case closes', async () => {
    const created = await c.create({ title: 'Card testing attack', case_type: { name: 'On call' }, case_priority: { name: 'Urgent' } });
    const id = created.body.id as number;
    await drain(w);
    expect((await c.get(id)).body.assignee.individual.email).toBe('alex@example.com');
    expect(grafana.groups.get(uid('case', id))).toMatchObject({ alerts: 1, resolved: false });
    await c.edit(id, { status: 'Closed' });
    await drain(w);
    expect(grafana.groups.get(uid('case', id))?.resolved).toBe(true);
  });
});

vendorFailures({
  w,
  vendor: 'Grafana OnCall',
  peer: () => grafana,
  secrets: [TOKEN, WEBHOOK_TOKEN],
  pageRoute: /^POST \/integrations\//,
  paged: (id) => grafana.groups.get(uid('incident', id))?.alerts ?? 0,
});
