import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let owner: string;
let member: string;
let extra: { id: number; name: string };
let responseCost: { id: number };

const url = '/default/incident_costs';
const inDefault = { model: 'Project', field: 'name', op: '==', value: 'default' };

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  const types = await call(t.app, 'GET', '/default/incident_cost_types', { token: owner, query: { filter: JSON.stringify([inDefault]) } });
  responseCost = types.body.items.find((i: { default: boolean }) => i.default);
  extra = (await call(t.app, 'POST', '/default/incident_cost_types', { token: owner, body: { name: 'Lost Revenue', project: { name: 'default' } } })).body;
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, token = owner) =>
  call(t.app, 'POST', url, { token, body: { project: { name: 'default' }, incident_cost_type: { id: extra.id }, ...body } });

describe('incident costs', () => {
  it('creates with amount 0 by default and reads without a project', async () => {
    const res = await create({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      amount: 0,
      incident_cost_type: expect.objectContaining({ id: extra.id, name: 'Lost Revenue', editable: true, default: false }),
    });
    expect((await call(t.app, 'GET', `${url}/${res.body.id}`, { token: member })).body).toEqual(res.body);
  });

  it('names the cost type by id or by name, in the body project', async () => {
    const res = await create({ amount: 1250.5, incident_cost_type: { name: 'Lost Revenue' } });
    expect(res.body).toMatchObject({ amount: 1250.5, incident_cost_type: { id: extra.id } });
    const unknown = await create({ incident_cost_type: { id: 999999 } });
    expect(unknown).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['incident_cost_type'], msg: 'Incident cost type not found.', type: 'value_error.not_found' }] },
    });
  });

  it('requires the cost type and the project, and a number for the amount', async () => {
    const res = await call(t.app, 'POST', url, { token: owner, body: { amount: 3 } });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['body.incident_cost_type', 'body.project']);
    expect((await create({ amount: 'lots' })).body.detail[0]).toMatchObject({ loc: ['body', 'amount'], type: 'type_error.float' });
  });

  it('refuses to create, change or delete costs of a non-editable type by hand (Muster computes them)', async () => {
    const res = await create({ amount: 10, incident_cost_type: { id: responseCost.id } });
    expect(res).toMatchObject({
      status: 403,
      body: { detail: [{ msg: 'You are not allowed to create this incident cost: Muster computes costs of this type.' }] },
    });
    const mine = await create({ amount: 10 });
    const moved = await call(t.app, 'PUT', `${url}/${mine.body.id}`, { token: owner, body: { incident_cost_type: { id: responseCost.id } } });
    expect(moved.status).toBe(403);
  });

  it('updates the fields sent and keeps the amount when omitted', async () => {
    const res = await create({ amount: 40 });
    const other = (await call(t.app, 'POST', '/default/incident_cost_types', { token: owner, body: { name: 'Legal Fees', project: { name: 'default' } } }))
      .body;
    const upd = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: owner, body: { incident_cost_type: { id: other.id } } });
    expect(upd.body).toMatchObject({ id: res.body.id, amount: 40, incident_cost_type: { id: other.id, name: 'Legal Fees' } });
    const again = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: owner, body: { amount: 41.5, incident_cost_type: { id: other.id } } });
    expect(again.body.amount).toBe(41.5);
    const missing = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: owner, body: { amount: 1 } });
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body', 'incident_cost_type'], type: 'value_error.missing' });
  });

  it('lets Admins and above write (SensitiveProjectAction), members read', async () => {
    expect((await create({}, member)).status).toBe(403);
    const res = await create({ amount: 5 });
    expect((await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: member, body: { amount: 6, incident_cost_type: { id: extra.id } } })).status).toBe(403);
    expect((await call(t.app, 'DELETE', `${url}/${res.body.id}`, { token: member })).status).toBe(403);
    expect(await call(t.app, 'DELETE', `${url}/${res.body.id}`, { token: owner })).toMatchObject({ status: 200, body: null });
    expect(await call(t.app, 'GET', `${url}/${res.body.id}`, { token: owner })).toMatchObject({
      status: 404,
      body: { detail: [{ msg: 'An incident cost with this id does not exist.' }] },
    });
  });

  it('lists with filters over its fields, its cost type and its project, and sorts', async () => {
    const list = await call(t.app, 'GET', url, {
      token: member,
      query: {
        itemsPerPage: -1,
        filter: JSON.stringify([
          { model: 'IncidentCostType', field: 'name', op: '==', value: 'Lost Revenue' },
          { field: 'amount', op: '>', value: 1000 },
        ]),
      },
    });
    expect(list.body.items.map((i: { amount: number }) => i.amount)).toEqual([1250.5]);
    const sorted = await call(t.app, 'GET', url, {
      token: member,
      query: { itemsPerPage: -1, filter: JSON.stringify([inDefault]), 'sortBy[]': 'amount', 'descending[]': true },
    });
    const amounts = sorted.body.items.map((i: { amount: number }) => i.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(sorted.body.total).toBe(amounts.length);
  });

  it('keeps other organizations out', async () => {
    await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Elsewhere' } });
    const theirType = (
      await call(t.app, 'POST', '/elsewhere/incident_cost_types', { token: member, body: { name: 'Their Cost', project: { name: 'default' } } })
    ).body;
    const theirs = await call(t.app, 'POST', '/elsewhere/incident_costs', {
      token: member,
      body: { project: { name: 'default' }, incident_cost_type: { id: theirType.id }, amount: 7 },
    });
    expect(theirs.status).toBe(200);
    expect((await call(t.app, 'GET', `${url}/${theirs.body.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `${url}/${theirs.body.id}`, { token: owner })).status).toBe(404);
    expect((await create({ incident_cost_type: { id: theirType.id } })).status).toBe(422);
  });
});

describe('costs of incidents', () => {
  let secret: { id: number; incident_costs: { id: number; amount: number; incident_cost_type: { id: number } }[] };
  let attached: { id: number; incident_cost_type: { id: number } };

  beforeAll(async () => {
    const inc = await call(t.app, 'POST', '/default/incidents', {
      token: owner,
      body: { title: 'Breach', description: 'Data left.', visibility: 'Restricted', project: { name: 'default' } },
    });
    expect(inc.status).toBe(200);
    // The incident update lists its costs: its own kept by id, new ones created.
    const added = [
      { amount: 1000, incident_cost_type: { id: extra.id } },
      { amount: 250, incident_cost_type: { name: 'Lost Revenue' } },
    ];
    const upd = await call(t.app, 'PUT', `/default/incidents/${inc.body.id}`, {
      token: owner,
      body: { ...inc.body, incident_costs: [...inc.body.incident_costs, ...added] },
    });
    if (upd.status !== 200) throw new Error(JSON.stringify(upd.body));
    secret = upd.body;
    attached = secret.incident_costs.find((c) => c.amount === 1000)!;
  });

  it('adds up to the incident total_cost, the computed response cost included', async () => {
    const response = secret.incident_costs.find((c) => c.incident_cost_type.id === responseCost.id)!;
    expect(response.amount).toBeGreaterThan(0);
    expect(secret.incident_costs.map((c) => c.amount).sort((a, b) => a - b)).toEqual([250, 1000, response.amount].sort((a, b) => a - b));
    const read = (await call(t.app, 'GET', `/default/incidents/${secret.id}`, { token: owner })).body;
    expect(read.total_cost).toBe(read.incident_costs.reduce((sum: number, c: { amount: number }) => sum + c.amount, 0));
  });

  it('keeps the response cost to Muster: it cannot be changed or deleted by hand', async () => {
    const response = secret.incident_costs.find((c) => c.incident_cost_type.id === responseCost.id)!;
    const upd = await call(t.app, 'PUT', `${url}/${response.id}`, { token: owner, body: { amount: 1, incident_cost_type: { id: responseCost.id } } });
    expect(upd).toMatchObject({
      status: 403,
      body: { detail: [{ msg: 'You are not allowed to update this incident cost: Muster computes costs of this type.' }] },
    });
    expect((await call(t.app, 'DELETE', `${url}/${response.id}`, { token: owner })).status).toBe(403);
  });

  it('hides the costs of a restricted incident from members who take no part in it', async () => {
    const ids = secret.incident_costs.map((c) => c.id).sort();
    const mine = await call(t.app, 'GET', url, { token: member, query: { itemsPerPage: -1 } });
    expect(mine.body.items.map((i: { id: number }) => i.id)).not.toContain(attached.id);
    expect((await call(t.app, 'GET', `${url}/${attached.id}`, { token: member })).status).toBe(404);
    const all = await call(t.app, 'GET', url, {
      token: owner,
      query: { itemsPerPage: -1, filter: JSON.stringify([{ model: 'Incident', field: 'id', op: '==', value: secret.id }]) },
    });
    expect(all.body.items.map((i: { id: number }) => i.id).sort()).toEqual(ids);
    const byColumn = await call(t.app, 'GET', url, {
      token: owner,
      query: { itemsPerPage: -1, filter: JSON.stringify([{ field: 'incident_id', op: '==', value: secret.id }]) },
    });
    expect(byColumn.body.total).toBe(ids.length);
  });
});
