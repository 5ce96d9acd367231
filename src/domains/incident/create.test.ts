import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, useWorld, person, problems, roles } from '../../../test/worlds/incidents.ts';

const w = useWorld();
const a = api(w);

describe('incident create', () => {
  it('takes the project defaults, names the incident and answers the full read', async () => {
    const res = await a.create({});
    expect(res.status).toBe(200);
    const i = res.body;
    expect(i).toMatchObject({
      title: 'Something broke',
      description: 'It broke.',
      status: 'Active',
      visibility: 'Open',
      resolution: 'Description of the actions taken to resolve the incident.',
      name: `muster-default-default-${i.id}`,
      project: { name: 'default' },
      incident_type: { name: 'Default' },
      incident_priority: { name: 'Low' },
      incident_severity: { name: 'Undetermined' },
      stable_at: null,
      closed_at: null,
      tags: [],
      terms: [],
      duplicates: [],
      tasks: [],
      documents: [expect.objectContaining({ resource_type: 'dispatch-incident-document', description: expect.stringMatching(/incident/) })],
      cases: [],
      workflow_instances: [],
      last_executive_report: null,
      last_tactical_report: null,
      participants_team: 'example.com',
      participants_location: 'Unknown',
      commanders_location: 'Unknown',
      reporters_location: 'Unknown',
    });
    expect(i.reported_at).toBe(i.created_at);
    expect(Date.now() - Date.parse(i.reported_at)).toBeLessThan(60_000);
    // The response cost is computed in the same request.
    expect(i.incident_costs).toHaveLength(1);
    expect(i.incident_costs[0].incident_cost_type.name).toBe('Response Cost');
    expect(i.total_cost).toBe(i.incident_costs[0].amount);
    expect(i.total_cost).toBeGreaterThan(0);
    expect(i.events.map((e: any) => e.description)).toContain('Incident created');
    expect(i.events[0]).toMatchObject({ description: 'Incident created', source: 'Muster Core App', type: 'Other' });
    // The same answer as a get.
    const got = await a.get(i.id);
    expect(got.body).toEqual(i);
  });

  it('makes the caller reporter and commander: one participant with both roles, named after their email', async () => {
    const i = (await a.create({})).body;
    expect(roles({ body: i } as never)).toEqual({ 'member@example.com': ['Reporter', 'Incident Commander'] });
    expect(i.participants[0]).toMatchObject({ team: 'example.com', location: 'Unknown', individual: { email: 'member@example.com', name: 'Member' } });
    expect(i.commander.id).toBe(i.reporter.id);
    for (const r of i.participants[0].participant_roles) {
      expect(r.renounced_at).toBeNull();
      expect(typeof r.assumed_at).toBe('string');
    }
  });

  it('takes reporter and commander from the body, creating their contacts', async () => {
    const res = await a.create({ reporter: person('jane.doe@corp.example'), commander: person('Ops.Lead@other.example') });
    expect(roles(res)).toEqual({ 'jane.doe@corp.example': ['Reporter'], 'Ops.Lead@other.example': ['Incident Commander'] });
    expect(res.body.commander.individual).toMatchObject({ email: 'Ops.Lead@other.example', name: 'Ops.lead' });
    expect(res.body.reporter.individual).toMatchObject({ email: 'jane.doe@corp.example', name: 'Jane.doe' });
    // The same contact is found again whatever the case of the email.
    const again = await a.create({ commander: person('ops.lead@OTHER.example') });
    expect(again.body.commander.individual.id).toBe(res.body.commander.individual.id);
    const contacts = await call(w.t.app, 'GET', '/default/individuals', { token: w.member, query: { itemsPerPage: -1 } });
    expect(contacts.body.items.filter((c: any) => c.email.toLowerCase() === 'ops.lead@other.example')).toHaveLength(1);
  });

  it('summarises teams and locations by the most common value', async () => {
    const res = await a.create({ reporter: person('a@corp.example'), commander: person('b@corp.example') });
    expect(res.body.participants_team).toBe('corp.example');
    expect(res.body.participants_location).toBe('Unknown');
  });

  it('names type, priority and severity by name or id, honouring the severity', async () => {
    const types = await call(w.t.app, 'POST', '/default/incident_types', {
      token: w.owner,
      body: { name: 'Security', visibility: 'Restricted', project: { name: 'default' } },
    });
    const priorities = (await call(w.t.app, 'GET', '/default/incident_priorities', { token: w.member, query: { itemsPerPage: -1 } })).body.items;
    const high = priorities.find((p: any) => p.name === 'High');
    const res = await a.create({
      incident_type: { name: 'Security' },
      incident_priority: { id: high.id },
      incident_severity: { name: 'Critical' },
      project: { name: 'default' },
    });
    expect(res.body).toMatchObject({ incident_type: { id: types.body.id }, incident_priority: { name: 'High' }, incident_severity: { name: 'Critical' } });
    // Visibility from the type, unless the body says.
    expect(res.body.visibility).toBe('Restricted');
    const open = await a.create({ incident_type: { name: 'Security' }, visibility: 'Open' });
    expect(open.body.visibility).toBe('Open');
    // Whole read objects sent back work too.
    const whole = await a.create({ incident_priority: high, incident_type: res.body.incident_type, project: res.body.project });
    expect(whole.body.incident_priority.id).toBe(high.id);
  });

  it('refuses unknown or foreign records naming the field', async () => {
    const bad = await a.create({ incident_priority: { name: 'Apocalyptic' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['incident_priority'], msg: 'Incident priority not found.', type: 'value_error.not_found' });
    const foreign = await a.create({ project: { id: w.elsewhere.projectId } });
    expect(foreign.body.detail[0]).toMatchObject({ loc: ['project'], type: 'value_error.not_found' });
    const typeById = await a.create({ incident_type: { id: 999999 } });
    expect(typeById.body.detail[0]).toMatchObject({ loc: ['incident_type'], msg: 'Incident type not found.' });
    expect((await a.list()).body.items.every((i: any) => i.title !== 'never')).toBe(true);
  });

  it('validates the body before writing anything', async () => {
    const before = (await a.list({}, w.owner)).body.total;
    const empty = await a.create({ title: '  ', description: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail.map((d: any) => `${d.loc.join('.')}:${d.msg}`)).toEqual([
      'body.title:must not be empty string',
      'body.description:must not be empty string',
    ]);
    const missing = await call(w.t.app, 'POST', '/default/incidents', { token: w.member, body: {} });
    expect(problems(missing)).toEqual(['body.description:value_error.missing', 'body.title:value_error.missing']);
    const enums = await a.create({ status: 'Exploding', visibility: 'Secret' });
    expect(problems(enums)).toEqual(['body.status:type_error.enum', 'body.visibility:type_error.enum']);
    const email = await a.create({ commander: person('not-an-email') });
    expect(email.status).toBe(422);
    // A tag that cannot be made (no type) fails the request after the tags before it were planned: nothing is written.
    const tag = await a.create({ title: 'never', tags: [{ name: 'fresh', tag_type: { name: 'Fresh type' } }, { name: 'orphan' }] });
    expect(tag.body.detail[0]).toMatchObject({ loc: ['tags', 1, 'tag_type'], type: 'value_error.not_found' });
    expect((await a.list({}, w.owner)).body.total).toBe(before);
    const tagTypes = await call(w.t.app, 'GET', '/default/tag_types', { token: w.member, query: { itemsPerPage: -1 } });
    expect(tagTypes.body.items.map((t: any) => t.name)).not.toContain('Fresh type');
  });

  it('links tags by id, by name, and creates the ones it does not know', async () => {
    const type = await call(w.t.app, 'POST', '/default/tag_types', { token: w.owner, body: { name: 'Service', project: { name: 'default' } } });
    const api1 = await call(w.t.app, 'POST', '/default/tags', {
      token: w.owner,
      body: { name: 'api', tag_type: { id: type.body.id }, project: { name: 'default' } },
    });
    const web = await call(w.t.app, 'POST', '/default/tags', {
      token: w.owner,
      body: { name: 'web', tag_type: { id: type.body.id }, project: { name: 'default' } },
    });
    const res = await a.create({ tags: [{ id: api1.body.id }, { name: 'web' }, { name: 'billing', tag_type: { name: 'Team' } }] });
    expect(res.status).toBe(200);
    expect(res.body.tags.map((t: any) => `${t.tag_type.name}/${t.name}`).sort()).toEqual(['Service/api', 'Service/web', 'Team/billing']);
    expect(res.body.tags.find((t: any) => t.name === 'web').id).toBe(web.body.id);
    // Tags of another organization are not found by id.
    const theirs = await call(w.t.app, 'POST', '/elsewhere/tag_types', { token: w.owner, body: { name: 'Theirs', project: { id: w.elsewhere.projectId } } });
    const theirTag = await call(w.t.app, 'POST', '/elsewhere/tags', {
      token: w.owner,
      body: { name: 'secret', tag_type: { id: theirs.body.id }, project: { id: w.elsewhere.projectId } },
    });
    const foreign = await a.create({ tags: [{ id: theirTag.body.id }] });
    expect(foreign.body.detail[0]).toMatchObject({ loc: ['tags', 0], msg: 'Tag not found.' });
  });

  it('refuses two tags of one exclusive type', async () => {
    const type = await call(w.t.app, 'POST', '/default/tag_types', { token: w.owner, body: { name: 'Region', exclusive: true, project: { name: 'default' } } });
    for (const name of ['eu', 'us'])
      await call(w.t.app, 'POST', '/default/tags', { token: w.owner, body: { name, tag_type: { id: type.body.id }, project: { name: 'default' } } });
    const res = await a.create({
      tags: [
        { name: 'eu', tag_type: { name: 'Region' } },
        { name: 'us', tag_type: { name: 'Region' } },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({
      loc: ['body', 'tags'],
      type: 'value_error',
      msg: 'Found multiple exclusive tags. Please ensure that only one tag of a given type is applied. Tags: eu,us',
    });
  });

  it('created Stable or Closed is stamped when reported; Closed removes the participants', async () => {
    const stable = (await a.create({ status: 'Stable' })).body;
    expect(stable.status).toBe('Stable');
    expect(stable.stable_at).toBe(stable.reported_at);
    expect(stable.closed_at).toBeNull();
    const closed = await a.create({ status: 'Closed' });
    expect(closed.body).toMatchObject({ status: 'Closed', stable_at: closed.body.reported_at, closed_at: closed.body.reported_at });
    expect(roles(closed)).toEqual({ 'member@example.com': ['Reporter (renounced)', 'Incident Commander (renounced)'] });
  });

  it('answers 5xx for no input', async () => {
    const odd = [
      { title: 'x'.repeat(20000), description: 'd' },
      { title: 't', description: 'd', tags: [{}] },
      { title: 't', description: 'd', tags: [{ id: 2147483646 }] },
      { title: 't', description: 'd', commander: { individual: { id: 2147483646 } } },
      { title: 't', description: 'd', incident_type: null, incident_priority: null, project: null, reporter: null },
      { title: 't', description: 'd', project: { name: 'nope' } },
    ];
    for (const body of odd) {
      const res = await call(w.t.app, 'POST', '/default/incidents', { token: w.member, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBeLessThan(500);
    }
  });
});
