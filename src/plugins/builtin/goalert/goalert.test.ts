// GoAlert end to end against a local peer speaking its GraphQL API and its generic incoming API:
// the save is checked against the API key, an incident and a case page their service (one alert
// per record, by dedup) and close the alert when they close; the on-call person is the service's
// first step's. A GoAlert that refuses, limits, fails or does not answer fails jobs, never writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PEERS } from '../../../../test/helpers.ts';
import { type GoalertPeer, startGoalert } from '../../../../test/peers/goalert.ts';
import { cases } from '../../../../test/worlds/cases.ts';
import { api, roles, useWorld } from '../../../../test/worlds/incidents.ts';
import { QUERY_DOCUMENT } from './graphql.ts';
import { drain, pagingService, saveOncallPlugin, timeline, unfinishedOncallJobs, vendorFailures } from '../../../../test/worlds/oncall.ts';

const API_KEY = 'goalert-api-key';
const GENERIC_KEY = 'a8f3c0de-5b1c-4b7e-9d2a-0c1e2f3a4b5c';
const SERVICE = '4b3f6a2e-8c1d-4e5f-9a0b-1c2d3e4f5a6b';
const w = useWorld({ outboundAllow: LOCAL_PEERS });
const incidents = api(w);
const c = cases(w);
let goalert: GoalertPeer;

const dedup = (kind: string, id: number) => `${w.t.settings.namePrefix}-default-${kind}-${id}`;

beforeAll(async () => {
  goalert = await startGoalert({
    apiKey: API_KEY,
    query: QUERY_DOCUMENT,
    services: [
      {
        id: SERVICE,
        name: 'Payments',
        generic_key: GENERIC_KEY,
        oncall: [
          { step: 1, user: { id: 'u-2', name: 'Backup', email: 'backup@example.com' } },
          { step: 0, user: { id: 'u-1', name: 'Primary', email: 'primary@example.com' } },
        ],
      },
    ],
  });
  await pagingService(w, SERVICE);
});
afterAll(() => goalert?.close());

describe('the GoAlert plugin', () => {
  it('refuses an API key GoAlert refuses, and takes a good one', async () => {
    const bad = await saveOncallPlugin(w, 'goalert-oncall', { url: goalert.url, api_key: 'wrong' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'configuration', 'api_key'], type: 'value_error.plugin_refused' });
    expect(bad.body.detail[0].msg).toContain('GoAlert refused the API key (401)');
    const good = await saveOncallPlugin(w, 'goalert-oncall', { url: goalert.url, api_key: API_KEY });
    expect(good.status).toBe(200);
    expect(JSON.stringify(good.body)).not.toContain(API_KEY);
  });

  it('pages an incident through the service, makes the first step commander, and closes the alert on close', async () => {
    goalert.requests.length = 0;
    const created = await incidents.create({ title: 'Payments are failing', incident_priority: { name: 'Paging' } });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    await drain(w);

    const after = await incidents.get(id);
    expect(after.body.commander.individual.email).toBe('primary@example.com');
    expect(roles(after)['primary@example.com']).toEqual(['Incident Commander']);
    const queries = goalert.requests.filter((r) => r.path === '/api/graphql');
    for (const q of queries) expect(q.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(queries.map((q) => [q.body.operationName, q.body.variables.id])).toContainEqual(['MusterUser', 'u-1']);

    const [page] = goalert.incoming();
    expect(page.query.get('token')).toBe(GENERIC_KEY);
    expect(page.body).toMatchObject({ summary: expect.stringContaining('Payments are failing'), dedup: dedup('incident', id) });
    expect(page.body.details).toContain('/default/incidents/');
    expect(await timeline(w, 'incidents', id)).toContain('The on-call of Payments on call was paged through GoAlert Plugin - On-call');

    await incidents.edit(id, { title: 'Payments are failing in EU' });
    await drain(w);
    await incidents.edit(id, { status: 'Stable' });
    await drain(w);
    expect(goalert.incoming()).toHaveLength(1);

    await incidents.edit(id, { status: 'Closed' });
    await drain(w);
    expect(goalert.incoming().map((r) => r.body.action ?? 'trigger')).toEqual(['trigger', 'close']);
    expect(goalert.alerts.get(dedup('incident', id))).toMatchObject({ sent: 1, closed: true });
    expect(await unfinishedOncallJobs(w)).toEqual([]);
  });

  it("pages a case through its type's service and closes the alert when the case closes", async () => {
    const created = await c.create({ title: 'Card testing attack', case_type: { name: 'On call' }, case_priority: { name: 'Urgent' } });
    const id = created.body.id as number;
    await drain(w);
    expect((await c.get(id)).body.assignee.individual.email).toBe('primary@example.com');
    expect(goalert.alerts.get(dedup('case', id))).toMatchObject({ sent: 1, closed: false });
    await c.edit(id, { status: 'Closed' });
    await drain(w);
    expect(goalert.alerts.get(dedup('case', id))?.closed).toBe(true);
  });
});

vendorFailures({
  w,
  vendor: 'GoAlert',
  peer: () => goalert,
  secrets: [API_KEY, GENERIC_KEY],
  pageRoute: /^POST \/api\/v2\/generic\/incoming$/,
  paged: (id) => goalert.alerts.get(dedup('incident', id))?.sent ?? 0,
});
