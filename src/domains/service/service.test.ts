import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld, listQuery, names, problems } from '../../../test/worlds/world.ts';

const w = useWorld();
let filterId: number;
beforeAll(async () => {
  const f = await call(w.t.app, 'POST', '/default/search/filters', {
    token: w.owner,
    body: { name: 'Database incidents', expression: [{ model: 'Tag', field: 'name', value: 'db' }], project: { name: 'default' } },
  });
  filterId = f.body.id;
});

const path = '/default/services';
const create = (body: Record<string, unknown>, token = w.member) => call(w.t.app, 'POST', path, { token, body: { project: { name: 'default' }, ...body } });

describe('services', () => {
  it('round trip: defaults, filters, and filters emptied by an update that omits them', async () => {
    const res = await create({ name: 'myService', type: 'pagerduty', external_id: '234234', filters: [{ id: filterId }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'myService',
      type: 'pagerduty',
      external_id: '234234',
      is_active: true,
      description: null,
      evergreen: false,
      evergreen_reminder_interval: 90,
      filters: [{ id: filterId, name: 'Database incidents' }],
    });
    expect(res.body).not.toHaveProperty('project');
    const got = await call(w.t.app, 'GET', `${path}/${res.body.id}`, { token: w.member });
    expect(got.body).toEqual(res.body);
    const upd = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, { token: w.member, body: { is_active: false, description: 'Paged at night' } });
    // Dispatch assigns the list from the update model, whose default is [].
    expect(upd.body).toMatchObject({ name: 'myService', is_active: false, description: 'Paged at night', external_id: '234234', filters: [] });
    const back = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, {
      token: w.member,
      body: { ...upd.body, filters: [{ name: 'Database incidents' }], evergreen: true },
    });
    expect(back.body.filters.map((f: { id: number }) => f.id)).toEqual([filterId]);
    expect(back.body.evergreen_last_reminder_at).not.toBeNull();
  });

  it('keeps external ids unique per project, reported on external_id', async () => {
    await create({ name: 'First', external_id: 'P123' });
    const dup = await create({ name: 'Second', external_id: 'P123' });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0]).toMatchObject({ loc: ['external_id'], msg: 'A service with this external id already exists.', type: 'value_error.exists' });
    const other = await create({ name: 'Third' });
    const clash = await call(w.t.app, 'PUT', `${path}/${other.body.id}`, { token: w.member, body: { external_id: 'P123' } });
    expect(clash.body.detail[0].loc).toEqual(['external_id']);
    // Services without an external id never clash; another project may reuse one.
    expect((await create({ name: 'No id' })).status).toBe(200);
    await call(w.t.app, 'POST', '/default/projects', { token: w.owner, body: { name: 'Payments', organization: { name: 'default' } } });
    expect((await create({ name: 'Elsewhere P123', external_id: 'P123', project: { name: 'Payments' } })).status).toBe(200);
  });

  it('validates types and evergreen fields', async () => {
    const res = await call(w.t.app, 'POST', path, {
      token: w.member,
      body: { name: 5, is_active: 'maybe', evergreen_owner: 'x', evergreen_reminder_interval: 1.5, filters: [{ id: 'one' }] },
    });
    expect(problems(res)).toEqual([
      'body.evergreen_owner:value_error.email',
      'body.evergreen_reminder_interval:type_error.integer',
      'body.filters.0.id:type_error.integer',
      'body.is_active:type_error.bool',
      'body.project:value_error.missing',
    ]);
  });

  it('refuses search filters and projects of another organization', async () => {
    const f = await create({ name: 'Sneaky', filters: [{ id: w.elsewhere.filterId }] });
    expect(f.body.detail[0]).toMatchObject({ loc: ['filters', 0], msg: 'Search filter not found.', type: 'value_error.not_found' });
    const p = await create({ name: 'Sneaky', project: { id: w.elsewhere.projectId } });
    expect(p.body.detail[0]).toMatchObject({ loc: ['project'], type: 'value_error.not_found' });
  });

  it('lists with filter, sort, q and paging', async () => {
    for (const [name, type] of [
      ['Oncall alpha', 'pagerduty'],
      ['Oncall beta', 'opsgenie'],
      ['Oncall gamma', 'pagerduty'],
    ])
      await create({ name, type });
    const pd = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({
        filter: [
          { field: 'type', value: 'pagerduty' },
          { field: 'name', op: 'ilike', value: 'oncall%' },
        ],
        sort: 'name',
        descending: true,
      }),
    });
    expect(names(pd)).toEqual(['Oncall gamma', 'Oncall alpha']);
    const q = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'beta' }) });
    expect(names(q)).toEqual(['Oncall beta']);
    const page = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: { field: 'name', op: 'like', value: 'Oncall%' }, sort: 'name', itemsPerPage: 2, page: 2 }),
    });
    expect(page.body).toMatchObject({ total: 3, page: 2, itemsPerPage: 2 });
    expect(names(page)).toEqual(['Oncall gamma']);
    const inactive = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ filter: [{ field: 'is_active', value: false }] }) });
    expect(names(inactive)).toEqual(['myService']);
  });

  it('deleting a service detaches it from the case types paging it', async () => {
    const s = await create({ name: 'Paged by cases' });
    const [type] = await w.t.database.query<{ id: number }>(
      `INSERT INTO case_type (organization_id, project_id, name, oncall_service_id)
       SELECT organization_id, project_id, 'Pages a service', id FROM service WHERE id = $1 RETURNING id`,
      [s.body.id],
    );
    expect((await call(w.t.app, 'DELETE', `${path}/${s.body.id}`, { token: w.member })).body).toBeNull();
    const [after] = await w.t.database.query<{ oncall_service_id: number | null }>('SELECT oncall_service_id FROM case_type WHERE id = $1', [type.id]);
    expect(after.oncall_service_id).toBeNull();
    expect((await call(w.t.app, 'DELETE', `${path}/${s.body.id}`, { token: w.member })).status).toBe(404);
  });
});
