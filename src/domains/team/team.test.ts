import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld, listQuery, names, problems } from '../../../test/worlds/world.ts';

const w = useWorld();
let filterId: number;
beforeAll(async () => {
  const f = await call(w.t.app, 'POST', '/default/search/filters', {
    token: w.owner,
    body: { name: 'Payments', expression: [{ model: 'Tag', field: 'name', value: 'payments' }], subject: 'case', project: { name: 'default' } },
  });
  filterId = f.body.id;
});

const path = '/default/teams';
const create = (body: Record<string, unknown>, token = w.member) => call(w.t.app, 'POST', path, { token, body: { project: { name: 'default' }, ...body } });

describe('teams', () => {
  it('round trip: contact and evergreen defaults, filters', async () => {
    const res = await create({ name: 'Payments team', email: 'payments@example.com', notes: 'Owns checkout', filters: [{ id: filterId }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Payments team',
      email: 'payments@example.com',
      is_active: true,
      is_external: false,
      evergreen: false,
      evergreen_owner: null,
      evergreen_reminder_interval: 90,
      filters: [{ id: filterId, subject: 'case' }],
    });
    const got = await call(w.t.app, 'GET', `${path}/${res.body.id}`, { token: w.member });
    expect(got.body).toEqual(res.body);
    const upd = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, {
      token: w.member,
      body: { ...res.body, company: 'Acme', evergreen: true, evergreen_owner: 'owner@example.com' },
    });
    expect(upd.body).toMatchObject({ company: 'Acme', evergreen: true, evergreen_owner: 'owner@example.com', filters: [{ id: filterId }] });
    expect(upd.body.evergreen_last_reminder_at).not.toBeNull();
    const omitted = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, { token: w.member, body: { name: 'Payments team', email: 'payments@example.com' } });
    expect(omitted.body).toMatchObject({ company: 'Acme', evergreen: true, filters: [] });
  });

  it('keeps emails unique per project, reported on email', async () => {
    await create({ name: 'Team one', email: 'team@example.com' });
    const dup = await create({ name: 'Team two', email: 'team@example.com' });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0]).toMatchObject({ loc: ['email'], msg: 'A team with this email already exists.', type: 'value_error.exists' });
  });

  it('validates name, email and evergreen fields', async () => {
    const res = await call(w.t.app, 'POST', path, {
      token: w.member,
      body: { name: 'ab', email: 'nope', evergreen_owner: 'nope', project: { name: 'default' } },
    });
    expect(problems(res)).toEqual(['body.email:value_error.email', 'body.evergreen_owner:value_error.email', 'body.name:value_error.any_str.min_length']);
    const missing = await call(w.t.app, 'PUT', `${path}/1`, { token: w.member, body: { notes: 'x' } });
    expect(problems(missing)).toEqual(['body.email:value_error.missing', 'body.name:value_error.missing']);
  });

  it('refuses search filters and projects of another organization', async () => {
    const f = await create({ name: 'Sneaky', email: 'sneaky@example.com', filters: [{ id: w.elsewhere.filterId }] });
    expect(f.body.detail[0]).toMatchObject({ loc: ['filters', 0], msg: 'Search filter not found.', type: 'value_error.not_found' });
    const p = await create({ name: 'Sneaky', email: 'sneaky@example.com', project: { id: w.elsewhere.projectId } });
    expect(p.body.detail[0]).toMatchObject({ loc: ['project'], type: 'value_error.not_found' });
  });

  it('lists with filter, sort, q (name and notes) and paging', async () => {
    for (const [name, notes] of [
      ['Crew alpha', 'storage'],
      ['Crew beta', 'network'],
      ['Crew gamma', 'storage and backups'],
    ])
      await create({ name, email: `${name.split(' ')[1]}@example.com`, notes });
    const storage = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'storage', sort: 'name', descending: true }) });
    expect(names(storage)).toEqual(['Crew gamma', 'Crew alpha']);
    const byName = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'beta' }) });
    expect(names(byName)).toEqual(['Crew beta']);
    const byEmail = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ filter: [{ field: 'email', op: 'ilike', value: 'GAMMA@%' }] }) });
    expect(names(byEmail)).toEqual(['Crew gamma']);
    const page = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: { field: 'name', op: 'like', value: 'Crew%' }, sort: 'name', itemsPerPage: 2, page: 2 }),
    });
    expect(page.body).toMatchObject({ total: 3, page: 2, itemsPerPage: 2 });
    expect(names(page)).toEqual(['Crew gamma']);
  });

  it('deletes with a null body; its filters stay', async () => {
    const team = await create({ name: 'Short lived', email: 'short@example.com', filters: [{ id: filterId }] });
    expect((await call(w.t.app, 'DELETE', `${path}/${team.body.id}`, { token: w.member })).body).toBeNull();
    expect((await call(w.t.app, 'GET', `${path}/${team.body.id}`, { token: w.member })).status).toBe(404);
    const filters = await call(w.t.app, 'GET', '/default/search/filters', {
      token: w.member,
      query: listQuery({ filter: [{ field: 'id', value: filterId }] }),
    });
    expect(filters.body.total).toBe(1);
  });
});
