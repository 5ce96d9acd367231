import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, useWorld, person, roles } from '../../../test/worlds/incidents.ts';

const w = useWorld();
const a = api(w);
let high: any;
let low: any;
let security: any;
let pager: any;
beforeAll(async () => {
  const priorities = (await call(w.t.app, 'GET', '/default/incident_priorities', { token: w.member, query: { itemsPerPage: -1 } })).body.items;
  high = priorities.find((p: any) => p.name === 'High');
  low = priorities.find((p: any) => p.name === 'Low');
  security = (await call(w.t.app, 'POST', '/default/incident_types', { token: w.owner, body: { name: 'Security', project: { name: 'default' } } })).body;
  pager = (await call(w.t.app, 'POST', '/default/services', { token: w.owner, body: { name: 'Pager', external_id: 'PD-1', project: { name: 'default' } } }))
    .body;
  for (const email of ['alice@corp.example', 'bob@corp.example', 'carol@corp.example', 'dave@corp.example']) {
    await call(w.t.app, 'POST', '/default/individuals', { token: w.owner, body: { email, project: { name: 'default' } } });
  }
});

const path = (role: string) => `/default/incident_roles/${encodeURIComponent(role)}`;
const getRole = (role: string, token = w.member, projectName = 'default') => call(w.t.app, 'GET', path(role), { token, query: { projectName } });
const putRole = (role: string, policies: unknown[], token = w.owner, projectName = 'default') =>
  call(w.t.app, 'PUT', path(role), { token, query: { projectName }, body: { policies } });

describe('incident role policies', () => {
  it('start empty and are replaced as a set', async () => {
    expect((await getRole('Incident Commander')).body).toEqual({ policies: [] });
    const put = await putRole('Incident Commander', [
      { order: 2, individual: { email: 'alice@corp.example' }, incident_priorities: [{ name: 'High' }], incident_types: [{ name: 'Security' }], tags: [] },
      { order: 1, service: { external_id: 'PD-1' }, incident_priorities: [{ id: low.id }] },
    ]);
    expect(put.status).toBe(200);
    expect(put.body.policies.map((p: any) => [p.role, p.order, p.enabled, p.individual?.email ?? null, p.service?.name ?? null])).toEqual([
      ['Incident Commander', 1, true, null, 'Pager'],
      ['Incident Commander', 2, true, 'alice@corp.example', null],
    ]);
    const alice = put.body.policies[1];
    expect(alice).toMatchObject({ incident_priorities: [{ id: high.id, name: 'High' }], incident_types: [{ id: security.id }], tags: [] });
    expect(typeof alice.created_at).toBe('string');
    expect((await getRole('Incident Commander')).body).toEqual(put.body);
    // Other roles have their own sets.
    expect((await getRole('Liaison')).body.policies).toEqual([]);

    // Items with an id are updated, without one created, and the rest deleted.
    const next = await putRole('Incident Commander', [
      { ...alice, enabled: false },
      { order: 3, individual: { email: 'bob@corp.example' } },
    ]);
    expect(next.body.policies.map((p: any) => [p.id === alice.id, p.enabled, p.individual.email])).toEqual([
      [true, false, 'alice@corp.example'],
      [false, true, 'bob@corp.example'],
    ]);
    expect((await putRole('Incident Commander', [])).body.policies).toEqual([]);
  });

  it('refuse what they cannot resolve, changing nothing', async () => {
    await putRole('Scribe', [{ individual: { email: 'carol@corp.example' } }]);
    const before = (await getRole('Scribe')).body;
    const unknownId = await putRole('Scribe', [{ id: 999999 }]);
    expect(unknownId.body.detail[0]).toMatchObject({ loc: ['policies', 0, 'id'], msg: 'Role policy not found.', type: 'value_error.not_found' });
    const unknownPerson = await putRole('Scribe', [{ individual: { email: 'nobody@corp.example' } }]);
    expect(unknownPerson.body.detail[0]).toMatchObject({ loc: ['policies', 0, 'individual'], msg: 'Individual not found.' });
    const unknownTag = await putRole('Scribe', [{ individual: { email: 'carol@corp.example' } }, { tags: [{ name: 'nope' }] }]);
    expect(unknownTag.body.detail[0]).toMatchObject({ loc: ['policies', 1, 'tags', 0], msg: 'Tag not found.' });
    const order = await putRole('Scribe', [{ order: 0 }]);
    expect(order.body.detail[0]).toMatchObject({ loc: ['body', 'policies', 0, 'order'], type: 'value_error.number.not_gt' });
    const project = await getRole('Scribe', w.member, 'Nope');
    expect(project.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'Project not found.', type: 'value_error.not_found' });
    const role = await call(w.t.app, 'GET', path('Captain'), { token: w.member, query: { projectName: 'default' } });
    expect(role.body.detail[0]).toMatchObject({ loc: ['path', 'role'], type: 'type_error.enum' });
    const noProject = await call(w.t.app, 'GET', path('Scribe'), { token: w.member });
    expect(noProject.body.detail[0]).toMatchObject({ loc: ['query', 'projectName'], type: 'value_error.missing' });
    expect((await getRole('Scribe')).body).toEqual(before);
    await putRole('Scribe', []);
  });

  it('are changed by Admins and above only', async () => {
    expect((await putRole('Liaison', [], w.member)).status).toBe(403);
    expect((await putRole('Liaison', [], w.admin)).status).toBe(200);
    expect((await getRole('Liaison', w.member)).status).toBe(200);
  });
});

describe('role resolution at create', () => {
  it('picks the policy matching priority and type, else by tag, lowest order first', async () => {
    const type = await call(w.t.app, 'POST', '/default/tag_types', { token: w.owner, body: { name: 'Customer', project: { name: 'default' } } });
    await call(w.t.app, 'POST', '/default/tags', { token: w.owner, body: { name: 'vip', tag_type: { id: type.body.id }, project: { name: 'default' } } });
    const set = await putRole('Incident Commander', [
      { order: 5, individual: { email: 'alice@corp.example' }, incident_priorities: [{ name: 'High' }], incident_types: [{ name: 'Security' }] },
      { order: 1, individual: { email: 'bob@corp.example' }, incident_priorities: [{ name: 'High' }], incident_types: [{ name: 'Security' }], enabled: false },
      { order: 3, individual: { email: 'carol@corp.example' }, tags: [{ name: 'vip' }] },
      // A priority without types never matches: an empty list matches nothing.
      { order: 1, individual: { email: 'dave@corp.example' }, incident_priorities: [{ name: 'Low' }] },
    ]);
    expect(set.status).toBe(200);
    const commander = async (body: Record<string, unknown>) => (await a.create(body)).body.commander.individual.email;
    expect(await commander({ incident_priority: { name: 'High' }, incident_type: { name: 'Security' } })).toBe('alice@corp.example');
    expect(await commander({ incident_priority: { name: 'High' }, incident_type: { name: 'Security' }, tags: [{ name: 'vip' }] })).toBe('carol@corp.example');
    expect(await commander({ incident_priority: { name: 'High' } })).toBe('member@example.com');
    expect(await commander({})).toBe('member@example.com');
    // The body's commander wins over the policies.
    expect(await commander({ incident_priority: { name: 'High' }, incident_type: { name: 'Security' }, commander: person('zed@corp.example') })).toBe(
      'zed@corp.example',
    );
  });

  it('adds the liaison and scribe the policies name; a service-only policy names nobody', async () => {
    await putRole('Liaison', [{ individual: { email: 'bob@corp.example' }, incident_priorities: [{ name: 'Medium' }], incident_types: [{ name: 'Default' }] }]);
    await putRole('Scribe', [{ service: { id: pager.id }, incident_priorities: [{ name: 'Medium' }], incident_types: [{ name: 'Default' }] }]);
    const res = await a.create({ incident_priority: { name: 'Medium' } });
    expect(roles(res)).toEqual({ 'member@example.com': ['Reporter', 'Incident Commander'], 'bob@corp.example': ['Liaison'] });
    await putRole('Liaison', []);
    await putRole('Scribe', []);
  });
});
