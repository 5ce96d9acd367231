import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let owner: string;
let member: string;
let responseCost: Record<string, unknown> & { id: number };

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  const seeded = await call(t.app, 'GET', url, { token: member, query: { filter: JSON.stringify([inDefault]) } });
  responseCost = seeded.body.items[0];
});
afterAll(() => t.close());

const url = '/default/incident_cost_types';
const inDefault = { model: 'Project', field: 'name', op: '==', value: 'default' };
const create = (body: Record<string, unknown>, token = owner) => call(t.app, 'POST', url, { token, body: { project: { name: 'default' }, ...body } });

describe('incident cost types', () => {
  it('starts with the seeded Response Cost: default, not editable, no project in the read', async () => {
    expect(responseCost).toEqual({
      id: expect.any(Number),
      name: 'Response Cost',
      description: expect.any(String),
      category: 'Primary',
      details: {},
      default: true,
      editable: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
    });
  });

  it('refuses to update or delete a non-editable type with 403', async () => {
    const upd = await call(t.app, 'PUT', `${url}/${responseCost.id}`, { token: owner, body: { name: 'Cheaper Cost' } });
    expect(upd).toMatchObject({ status: 403, body: { detail: [{ msg: 'You are not allowed to update this incident cost type.' }] } });
    const del = await call(t.app, 'DELETE', `${url}/${responseCost.id}`, { token: owner });
    expect(del).toMatchObject({ status: 403, body: { detail: [{ msg: 'You are not allowed to delete this incident cost type.' }] } });
    expect((await call(t.app, 'GET', `${url}/${responseCost.id}`, { token: member })).body).toEqual(responseCost);
  });

  it('round trips: free-form details, server-owned created_at, omitted fields kept on update', async () => {
    const res = await create({
      name: 'Lost Revenue',
      category: 'Secondary',
      details: { per_hour: 1200, regions: ['eu', 'us'] },
      created_at: '2000-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Lost Revenue',
      description: null,
      category: 'Secondary',
      details: { per_hour: 1200, regions: ['eu', 'us'] },
      default: false,
      editable: true,
      created_at: expect.any(String),
    });
    expect(res.body.created_at.startsWith('2000')).toBe(false);
    const upd = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: owner, body: { name: 'Lost Revenue', description: 'Sales lost while down' } });
    expect(upd.body).toEqual({ ...res.body, description: 'Sales lost while down' });
    const bare = await create({ name: 'Bare Cost' });
    expect(bare.body.details).toEqual({});
  });

  it('requires a project on create, and refuses one of another organization', async () => {
    const res = await call(t.app, 'POST', url, { token: owner, body: { name: 'Orphan' } });
    expect(res.body.detail).toEqual([{ loc: ['body', 'project'], msg: 'field required', type: 'value_error.missing' }]);
    await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Elsewhere' } });
    const theirProject = (await call(t.app, 'GET', '/elsewhere/projects', { token: member })).body.items[0];
    const cross = await create({ name: 'Cross', project: { id: theirProject.id } });
    expect(cross.body.detail[0]).toMatchObject({ loc: ['project'], type: 'value_error.not_found' });
    const theirs = (await call(t.app, 'GET', '/elsewhere/incident_cost_types', { token: member })).body.items[0];
    expect((await call(t.app, 'GET', `${url}/${theirs.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `${url}/${theirs.id}`, { token: owner })).status).toBe(404);
  });

  it('validates names and details, answers duplicates with 422', async () => {
    expect((await create({ name: 'ab' })).body.detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'value_error.any_str.min_length' });
    expect((await create({ name: 'List Details', details: [1, 2] })).body.detail[0]).toMatchObject({ loc: ['body', 'details'], type: 'type_error.dict' });
    const dup = await create({ name: 'Response Cost' });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'An incident cost type with this name already exists.', type: 'value_error.exists' });
  });

  it('keeps one default per project', async () => {
    const res = await create({ name: 'New Default Cost', default: true });
    const defaults = await call(t.app, 'GET', url, {
      token: member,
      query: { filter: JSON.stringify([inDefault, { field: 'default', op: '==', value: true }]) },
    });
    expect(defaults.body.items.map((i: { id: number }) => i.id)).toEqual([res.body.id]);
  });

  it('lets Admins and above write, deletes with a null body', async () => {
    expect((await create({ name: 'By Member' }, member)).status).toBe(403);
    const res = await create({ name: 'Doomed Cost' });
    expect((await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: member, body: { name: 'Doomed Cost' } })).status).toBe(403);
    expect((await call(t.app, 'DELETE', `${url}/${res.body.id}`, { token: member })).status).toBe(403);
    expect(await call(t.app, 'DELETE', `${url}/${res.body.id}`, { token: owner })).toMatchObject({ status: 200, body: null });
    expect((await call(t.app, 'GET', `${url}/${res.body.id}`, { token: owner })).status).toBe(404);
  });

  it('lists with filter, q and sort', async () => {
    const q = await call(t.app, 'GET', url, { token: member, query: { q: 'revenue' } });
    expect(q.body.items.map((i: { name: string }) => i.name)).toEqual(['Lost Revenue']);
    const editable = await call(t.app, 'GET', url, {
      token: member,
      query: { itemsPerPage: -1, filter: JSON.stringify([inDefault, { field: 'editable', op: '==', value: false }]) },
    });
    expect(editable.body.items.map((i: { name: string }) => i.name)).toEqual(['Response Cost']);
    const sorted = await call(t.app, 'GET', url, {
      token: member,
      query: { itemsPerPage: -1, filter: JSON.stringify([inDefault]), 'sortBy[]': 'name', 'descending[]': false },
    });
    const got = sorted.body.items.map((i: { name: string }) => i.name);
    expect(got).toEqual([...got].sort());
  });
});
