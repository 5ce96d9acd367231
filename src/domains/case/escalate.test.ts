import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { cases, useWorld, person, problems } from '../../../test/worlds/cases.ts';

const w = useWorld();
const c = cases(w);
let incidentTypeId: number;
beforeAll(async () => {
  // A case type that maps to an incident type.
  incidentTypeId = (await call(w.t.app, 'POST', '/default/incident_types', { token: w.owner, body: { name: 'Security', project: { name: 'default' } } })).body
    .id;
  await call(w.t.app, 'POST', '/default/case_types', {
    token: w.owner,
    body: { name: 'Intrusion', incident_type: { id: incidentTypeId }, project: { name: 'default' } },
  });
});

const incidentOf = (id: number) => call(w.t.app, 'GET', `/default/incidents/${id}`, { token: w.owner });

describe('case escalation', () => {
  it('PUT escalate makes the incident, links both ways and moves the case to Escalated', async () => {
    const kase = (await c.create({ case_type: { name: 'Intrusion' }, assignee: person('analyst@corp.example'), reporter: person('witness@corp.example') }))
      .body;
    // The member created it for others, so takes no part in it: an Admin escalates.
    const res = await c.escalate(kase.id, { title: 'Intrusion on db-1', description: 'Escalated from triage.' }, w.admin);
    expect(res.status).toBe(200);
    const incident = res.body;
    expect(incident).toMatchObject({
      title: 'Intrusion on db-1',
      status: 'Active',
      incident_type: { id: incidentTypeId },
      commander: { individual: { email: 'analyst@corp.example' } },
      reporter: { individual: { email: 'witness@corp.example' } },
    });
    expect(incident.participants.map((p: any) => p.individual.email).sort()).toEqual(['analyst@corp.example', 'witness@corp.example']);
    expect(incident.events.map((e: any) => e.description)).toContain(`Incident created from case ${kase.name}`);
    const after = (await c.get(kase.id)).body;
    expect(after).toMatchObject({ status: 'Escalated', incidents: [{ id: incident.id, name: incident.name }] });
    expect(after.escalated_at).not.toBeNull();
    expect(after.triage_at).toBe(after.escalated_at);
    expect(after.events.map((e: any) => e.description)).toContain(`The case has been linked to incident ${incident.name} in the default project`);
    expect((await incidentOf(incident.id)).body.cases).toEqual([{ id: kase.id, name: kase.name }]);
  });

  it('names from the body win: commander, reporter, type', async () => {
    const kase = (await c.create({ case_type: { name: 'Intrusion' } })).body;
    const res = await c.escalate(kase.id, { commander: person('ic@corp.example'), reporter: person('me@corp.example'), incident_type: { name: 'Default' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      commander: { individual: { email: 'ic@corp.example' } },
      reporter: { individual: { email: 'me@corp.example' } },
      incident_type: { name: 'Default' },
    });
  });

  it('a bad incident body changes nothing', async () => {
    const kase = (await c.create({ case_type: { name: 'Intrusion' } })).body;
    const incidentsBefore = (await call(w.t.app, 'GET', '/default/incidents', { token: w.owner, query: { itemsPerPage: 0 } })).body.total;
    expect(problems(await c.escalate(kase.id, { incident_priority: { name: 'Nope' } }))).toEqual(['incident_priority:value_error.not_found']);
    expect(problems(await c.escalate(kase.id, { title: undefined }))).toEqual(['body.title:value_error.missing']);
    const after = (await c.get(kase.id)).body;
    expect(after).toMatchObject({ status: 'New', incidents: [], escalated_at: null });
    expect((await call(w.t.app, 'GET', '/default/incidents', { token: w.owner, query: { itemsPerPage: 0 } })).body.total).toBe(incidentsBefore);
  });

  it('status set to Escalated makes one incident from the case, once', async () => {
    const kase = (await c.create({ case_type: { name: 'Intrusion' }, case_priority: { name: 'High' }, assignee: person('analyst@corp.example') })).body;
    const res = await c.edit(kase.id, { status: 'Escalated' });
    expect(res.status).toBe(200);
    expect(res.body.incidents).toHaveLength(1);
    const incident = (await incidentOf(res.body.incidents[0].id)).body;
    expect(incident).toMatchObject({
      title: kase.title,
      incident_type: { id: incidentTypeId },
      incident_priority: { name: 'High' },
      reporter: { individual: { email: 'analyst@corp.example' } },
      commander: { individual: { email: 'analyst@corp.example' } },
    });
    expect(incident.description).toContain(`created from case ${kase.name}`);
    // Leaving Escalated and coming back does not make another.
    await c.edit(kase.id, { status: 'Triage' });
    expect((await c.edit(kase.id, { status: 'Escalated' })).body.incidents).toHaveLength(1);
  });

  it('needs CaseEdit: a member who does not take part gets 403, an unknown case 404', async () => {
    const kase = (await c.create({}, w.owner)).body;
    expect((await c.escalate(kase.id, {}, w.member)).status).toBe(403);
    expect((await c.escalate(999999, {}, w.owner)).status).toBe(404);
  });
});

describe('links between cases and incidents', () => {
  it('an incident update replaces its cases, and the case sees it', async () => {
    const kase = (await c.create({}, w.owner)).body;
    const incident = (await call(w.t.app, 'POST', '/default/incidents', { token: w.owner, body: { title: 'Outage', description: 'Down.' } })).body;
    const res = await call(w.t.app, 'PUT', `/default/incidents/${incident.id}`, { token: w.owner, body: { ...incident, cases: [{ id: kase.id }] } });
    expect(res.status).toBe(200);
    expect(res.body.cases).toEqual([{ id: kase.id, name: kase.name }]);
    expect((await c.get(kase.id, w.owner)).body.incidents.map((i: any) => i.id)).toEqual([incident.id]);
    const bad = await call(w.t.app, 'PUT', `/default/incidents/${incident.id}`, { token: w.owner, body: { ...incident, cases: [{ id: 999999 }] } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['cases', 0], type: 'value_error.not_found' });
    const cleared = await call(w.t.app, 'PUT', `/default/incidents/${incident.id}`, { token: w.owner, body: { ...incident, cases: [] } });
    expect(cleared.body.cases).toEqual([]);
  });
});
