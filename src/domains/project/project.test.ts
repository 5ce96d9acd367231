import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let owner: string;
let member: string;
const org = { name: 'default' };
beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, token = owner) => call(t.app, 'POST', '/default/projects', { token, body: { organization: org, ...body } });

describe('projects', () => {
  it('round trips with defaults', async () => {
    const res = await create({ name: 'Security', description: 'Security incidents', owner_email: 'sec@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Security',
      default: false,
      annual_employee_cost: 50000,
      business_year_hours: 2080,
      owner_email: 'sec@example.com',
      color: null,
    });
    const got = await call(t.app, 'GET', `/default/projects/${res.body.id}`, { token: member });
    expect(got.body).toEqual(res.body);
    const upd = await call(t.app, 'PUT', `/default/projects/${res.body.id}`, { token: owner, body: { name: 'Security Ops', annual_employee_cost: 120000 } });
    expect(upd.body).toMatchObject({ name: 'Security Ops', annual_employee_cost: 120000, description: 'Security incidents' });
  });

  it('keeps one default project per organization, on create and on update', async () => {
    const a = await create({ name: 'Alpha', default: true });
    let all = (
      await call(t.app, 'GET', '/default/projects', {
        token: owner,
        query: { itemsPerPage: -1, filter: JSON.stringify([{ field: 'default', op: '==', value: true }]) },
      })
    ).body;
    expect(all.items.map((p: { name: string }) => p.name)).toEqual(['Alpha']);
    const def = (await call(t.app, 'GET', '/default/projects', { token: owner, query: { q: 'default' } })).body.items[0];
    await call(t.app, 'PUT', `/default/projects/${def.id}`, { token: owner, body: { name: 'default', default: true } });
    all = (
      await call(t.app, 'GET', '/default/projects', {
        token: owner,
        query: { itemsPerPage: -1, filter: JSON.stringify([{ field: 'default', op: '==', value: true }]) },
      })
    ).body;
    expect(all.items.map((p: { name: string }) => p.name)).toEqual(['default']);
    expect((await call(t.app, 'GET', `/default/projects/${a.body.id}`, { token: owner })).body.default).toBe(false);
  });

  it('answers 422 value_error.exists to a duplicate name, on create and update', async () => {
    await create({ name: 'Dup One' });
    const dup = await create({ name: 'Dup One' });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A project with this name already exists.', type: 'value_error.exists' });
    const other = await create({ name: 'Dup Two' });
    const upd = await call(t.app, 'PUT', `/default/projects/${other.body.id}`, { token: owner, body: { name: 'Dup One' } });
    expect(upd.status).toBe(422);
  });

  it('checks permissions before validating: Members cannot create, update or delete', async () => {
    expect((await create({ name: 'Nope' }, member)).status).toBe(403);
    expect((await create({ name: 'x' }, member)).status).toBe(403);
    expect((await call(t.app, 'PUT', '/default/projects/1', { token: member, body: { name: 'Nope' } })).status).toBe(403);
    expect((await call(t.app, 'DELETE', '/default/projects/1', { token: member })).status).toBe(403);
  });

  it('requires the contract fields and names fields in errors', async () => {
    const res = await call(t.app, 'POST', '/default/projects', { token: owner, body: { name: 'Valid Name' } });
    expect(res.body.detail).toEqual([{ loc: ['body', 'organization'], msg: 'field required', type: 'value_error.missing' }]);
    const typed = await create({ name: 'Typed', annual_employee_cost: 'lots', owner_email: 'nope' });
    expect(typed.body.detail.map((d: { loc: string[]; type: string }) => `${d.loc.join('.')}:${d.type}`).sort()).toEqual([
      'body.annual_employee_cost:type_error.integer',
      'body.owner_email:value_error.email',
    ]);
  });

  it('ignores unknown and server-owned fields', async () => {
    const res = await create({ name: 'Extra', organization_id: 99, slug: 'hack', unknown: 1 });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('unknown');
  });

  it('deletes with a null body and 404s afterwards', async () => {
    const p = await create({ name: 'Doomed' });
    const del = await call(t.app, 'DELETE', `/default/projects/${p.body.id}`, { token: owner });
    expect(del).toMatchObject({ status: 200, body: null });
    const gone = await call(t.app, 'GET', `/default/projects/${p.body.id}`, { token: owner });
    expect(gone).toMatchObject({ status: 404, body: { detail: [{ msg: 'A project with this id does not exist.' }] } });
    expect((await call(t.app, 'DELETE', `/default/projects/${p.body.id}`, { token: owner })).status).toBe(404);
  });

  it("never shows another organization's project", async () => {
    await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Elsewhere' } });
    const theirs = await call(t.app, 'POST', '/elsewhere/projects', { token: member, body: { name: 'Private', organization: { name: 'Elsewhere' } } });
    expect(theirs.status).toBe(200);
    // the owner of `default` is not a member of `elsewhere`; the id through their own org is a 404
    expect((await call(t.app, 'GET', `/default/projects/${theirs.body.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'PUT', `/default/projects/${theirs.body.id}`, { token: owner, body: { name: 'Stolen' } })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/default/projects/${theirs.body.id}`, { token: owner })).status).toBe(404);
    const list = await call(t.app, 'GET', '/default/projects', { token: owner, query: { itemsPerPage: -1 } });
    expect(list.body.items.map((p: { name: string }) => p.name)).not.toContain('Private');
  });
});

describe('deleting a project that holds records', () => {
  it('deletes it with everything it holds, in one request, and leaves other projects alone', async () => {
    const p = (await create({ name: 'Crowded' })).body;
    const project = { id: p.id };
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await call(t.app, 'POST', `/default/${path}`, { token: owner, body });
      expect({ path, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ path, status: 200, body: undefined });
      return res.body;
    };
    const person = (email: string) => ({ individual: { email } });

    // Reference records that point at each other within the project.
    const tagType = await post('tag_types', { name: 'Kind', project });
    await post('tags', { name: 'Urgent', tag_type: { id: tagType.id }, project });
    const source = await post('data/sources', { name: 'Logs', project });
    await post('data/queries', { name: 'Query', source: { id: source.id }, project });
    const entityType = await post('entity_type', { name: 'Host', regular_expression: 'web-\\d+', project });

    // An incident with participants, a task, a cost, a report, feedback and its events.
    const incident = await post('incidents', { title: 'Outage', description: 'Down.', project, commander: person('commander@example.com') });
    expect(incident.participants.length).toBeGreaterThan(1);
    await post('tasks', {
      incident: { id: incident.id },
      description: 'Fix it',
      owner: person('commander@example.com'),
      assignees: [person('helper@example.com')],
    });
    const costType = await post('incident_cost_types', { name: 'Overtime', project, category: 'Primary', default: false });
    await post('incident_costs', { amount: 250, incident_cost_type: { id: costType.id }, project, incident: { id: incident.id } });
    await post(`incidents/${incident.id}/report/tactical`, { conditions: 'c', actions: 'a', needs: 'n' });
    await post('feedback', { rating: 'Very satisfied', incident: { id: incident.id }, project });

    // A case with participants, and signal instances that opened it, with their entities.
    const kase = await post('cases', { title: 'Suspicious', description: 'Look.', project, assignee: person('analyst@example.com') });
    const signal = await post('signals', {
      name: 'Detector',
      owner: 'secops',
      external_id: 'detector-1',
      variant: 'crowded-detector',
      enabled: true,
      create_case: true,
      project,
      entity_types: [{ id: entityType.id }],
    });
    const instance = await post('signals/instances', { project, raw: { variant: signal.variant, host: 'web-1' } });
    expect(instance.case).not.toBeNull();
    expect(instance.entities).toHaveLength(1);

    const other = (await call(t.app, 'GET', '/default/incidents', { token: owner, query: { itemsPerPage: -1 } })).body.total;
    const del = await call(t.app, 'DELETE', `/default/projects/${p.id}`, { token: owner });
    expect(del).toMatchObject({ status: 200, body: null });

    expect((await call(t.app, 'GET', `/default/projects/${p.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'GET', `/default/incidents/${incident.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'GET', `/default/cases/${kase.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'GET', `/default/cases/${instance.case.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'GET', `/default/signals/${signal.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'GET', `/default/entity_type/${entityType.id}`, { token: owner })).status).toBe(404);
    const instances = await call(t.app, 'GET', '/default/signals/instances', { token: owner, query: { itemsPerPage: -1 } });
    expect(instances.body.items.map((i: { id: string }) => i.id)).not.toContain(instance.id);
    expect((await call(t.app, 'GET', '/default/incidents', { token: owner, query: { itemsPerPage: -1 } })).body.total).toBe(other - 1);
    // The default project and its people are untouched.
    expect(
      (await call(t.app, 'GET', '/default/projects', { token: owner, query: { itemsPerPage: -1 } })).body.items.map((x: { name: string }) => x.name),
    ).toContain('default');
  });
});
