// PagerDuty end to end against a local peer speaking its REST API and Events API v2: the plugin's
// save is checked against the key, an incident and a case are paged through their service's
// integration key and resolved when they close, the on-call person comes from the escalation
// policy; a PagerDuty that refuses, limits, fails or does not answer fails jobs, never writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PEERS } from '../../../../test/helpers.ts';
import { type PagerDutyPeer, startPagerDuty } from '../../../../test/peers/pagerduty.ts';
import { cases, roles as caseRoles } from '../../../../test/worlds/cases.ts';
import { api, roles, useWorld } from '../../../../test/worlds/incidents.ts';
import { drain, pagingService, saveOncallPlugin, timeline, unfinishedOncallJobs, vendorFailures } from '../../../../test/worlds/oncall.ts';

const API_KEY = 'u+pagerduty-rest-key';
const INTEGRATION_KEY = 'R0123456789abcdef0123456789abcd';
const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
const c = cases(w);
let pd: PagerDutyPeer;

const dedupKey = (kind: string, id: number) => `${w.t.settings.namePrefix}-default-${kind}-${id}`;

beforeAll(async () => {
  pd = await startPagerDuty({
    apiKey: API_KEY,
    services: [{ id: 'PSVC001', name: 'Payments', escalation_policy: 'PEP001', integration_key: INTEGRATION_KEY }],
    oncalls: {
      PEP001: [
        { level: 2, user: { id: 'PU2', name: 'Second Line', email: 'second@example.com' } },
        { level: 1, user: { id: 'PU1', name: 'First Line', email: 'first@example.com' }, schedule: 'PSCH1' },
      ],
    },
  });
  await pagingService(w, 'PSVC001');
});
afterAll(() => pd?.close());

describe('the PagerDuty plugin', () => {
  it('refuses a configuration whose API key PagerDuty refuses, and takes a good one', async () => {
    const bad = await saveOncallPlugin(w, 'pagerduty-oncall', { api_url: pd.url, events_url: pd.url, api_key: 'wrong' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'configuration', 'api_key'], type: 'value_error.plugin_refused' });
    expect(bad.body.detail[0].msg).toContain('PagerDuty refused the API key (401)');
    const good = await saveOncallPlugin(w, 'pagerduty-oncall', { api_url: pd.url, events_url: pd.url, api_key: API_KEY });
    expect(good.status).toBe(200);
    expect(good.body.enabled).toBe(true);
    expect(JSON.stringify(good.body)).not.toContain(API_KEY);
  });

  it('pages an incident through the service, makes the on-call person commander, and resolves the page on close', async () => {
    pd.requests.length = 0;
    const created = await incidents.create({ title: 'Payments are failing', incident_priority: { name: 'Paging' } });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    await drain(w);

    const after = await incidents.get(id);
    expect(after.body.commander.individual.email).toBe('first@example.com');
    expect(roles(after)['first@example.com']).toEqual(['Incident Commander']);
    const oncalls = pd.requests.find((r) => r.path === '/oncalls');
    expect(oncalls?.query.getAll('escalation_policy_ids[]')).toEqual(['PEP001']);
    expect(oncalls?.query.get('earliest')).toBe('true');
    expect(oncalls?.headers.authorization).toBe(`Token token=${API_KEY}`);

    const [trigger] = pd.events();
    expect(trigger).toMatchObject({
      routing_key: INTEGRATION_KEY,
      event_action: 'trigger',
      dedup_key: dedupKey('incident', id),
      payload: { summary: expect.stringContaining('Payments are failing'), source: 'muster', severity: 'critical', component: 'Payments on call' },
      links: [{ href: expect.stringContaining(`/default/incidents/`) }],
    });
    expect(await timeline(w, 'incidents', id)).toContain('The on-call of Payments on call was paged through PagerDuty Plugin - On-call');

    // Updates and Stable page nobody again.
    expect((await incidents.edit(id, { title: 'Payments are failing in EU' })).status).toBe(200);
    await drain(w);
    expect((await incidents.edit(id, { status: 'Stable' })).status).toBe(200);
    await drain(w);
    expect(pd.events()).toHaveLength(1);

    expect((await incidents.edit(id, { status: 'Closed' })).status).toBe(200);
    await drain(w);
    expect(pd.events().slice(1)).toEqual([{ routing_key: INTEGRATION_KEY, event_action: 'resolve', dedup_key: dedupKey('incident', id) }]);
    expect(pd.alerts.get(dedupKey('incident', id))).toMatchObject({ triggers: 1, resolved: true });
    expect(await unfinishedOncallJobs(w)).toEqual([]);
  });

  it("pages a case through its type's service, makes the on-call person assignee, and resolves on close", async () => {
    pd.requests.length = 0;
    const created = await c.create({ title: 'Card testing attack', case_type: { name: 'On call' }, case_priority: { name: 'Urgent' } });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    await drain(w);
    const after = (await c.get(id)).body;
    expect(after.assignee.individual.email).toBe('first@example.com');
    expect(caseRoles(after)['first@example.com']).toEqual(['Assignee']);
    expect(pd.events()).toMatchObject([{ event_action: 'trigger', dedup_key: dedupKey('case', id) }]);

    expect((await c.edit(id, { status: 'Closed' })).status).toBe(200);
    await drain(w);
    expect(pd.events().map((e) => e.event_action)).toEqual(['trigger', 'resolve']);
    expect(pd.alerts.get(dedupKey('case', id))?.resolved).toBe(true);
  });
});

vendorFailures({
  w,
  vendor: 'PagerDuty',
  peer: () => pd,
  secrets: [API_KEY, INTEGRATION_KEY],
  pageRoute: /^POST \/v2\/enqueue$/,
  paged: (id) => pd.alerts.get(dedupKey('incident', id))?.triggers ?? 0,
});
