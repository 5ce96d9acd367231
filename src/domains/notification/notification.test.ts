import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld, listQuery, names, problems } from '../../../test/worlds/world.ts';

const w = useWorld();
let filterId: number;
beforeAll(async () => {
  const f = await call(w.t.app, 'POST', '/default/search/filters', {
    token: w.owner,
    body: { name: 'Sev high', expression: [{ model: 'IncidentSeverity', field: 'name', value: 'High' }], project: { name: 'default' } },
  });
  filterId = f.body.id;
});

const path = '/default/notifications';
const create = (body: Record<string, unknown>, token = w.admin) =>
  call(w.t.app, 'POST', path, { token, body: { type: 'conversation', target: '#incidents', project: { name: 'default' }, ...body } });

describe('notifications', () => {
  it('round trip: enabled and evergreen defaults, filters nested as search filter reads', async () => {
    const res = await create({ name: 'Incidents channel', description: 'Everything', filters: [{ name: 'Sev high' }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Incidents channel',
      type: 'conversation',
      target: '#incidents',
      enabled: true,
      evergreen: false,
      evergreen_owner: null,
      evergreen_reminder_interval: 90,
      evergreen_last_reminder_at: null,
      filters: [{ id: filterId, name: 'Sev high', subject: 'incident', creator: { email: 'owner@example.com' } }],
    });
    expect(new Date(res.body.created_at).getTime()).toBeGreaterThan(0);
    const got = await call(w.t.app, 'GET', `${path}/${res.body.id}`, { token: w.member });
    expect(got.body).toEqual(res.body);
    // Update bodies carry search filter update objects; an update without `filters` keeps them.
    const upd = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, {
      token: w.admin,
      body: { name: 'Incidents channel', type: 'email', target: 'ops@example.com', enabled: false },
    });
    expect(upd.body).toMatchObject({ type: 'email', target: 'ops@example.com', enabled: false, description: 'Everything', filters: [{ id: filterId }] });
    const cleared = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, { token: w.admin, body: { ...upd.body, filters: [] } });
    expect(cleared.body.filters).toEqual([]);
  });

  it('starts the evergreen clock when created evergreen or switched on', async () => {
    const on = await create({ name: 'Evergreen one', evergreen: true, evergreen_owner: 'owner@example.com', evergreen_reminder_interval: 30 });
    expect(on.body).toMatchObject({ evergreen: true, evergreen_owner: 'owner@example.com', evergreen_reminder_interval: 30 });
    expect(Date.now() - new Date(on.body.evergreen_last_reminder_at).getTime()).toBeLessThan(60_000);
    const off = await create({ name: 'Evergreen later' });
    expect(off.body.evergreen_last_reminder_at).toBeNull();
    const switched = await call(w.t.app, 'PUT', `${path}/${off.body.id}`, { token: w.admin, body: { ...off.body, evergreen: true } });
    expect(switched.body.evergreen_last_reminder_at).not.toBeNull();
  });

  it('needs an Admin and above to create, update or delete; members read', async () => {
    expect((await create({ name: 'By member' }, w.member)).status).toBe(403);
    const n = await create({ name: 'Guarded' });
    expect(
      (await call(w.t.app, 'PUT', `${path}/${n.body.id}`, { token: w.member, body: { name: 'Guarded', type: 'conversation', target: '#x' } })).status,
    ).toBe(403);
    expect((await call(w.t.app, 'DELETE', `${path}/${n.body.id}`, { token: w.member })).status).toBe(403);
    expect((await call(w.t.app, 'GET', path, { token: w.member })).status).toBe(200);
    expect((await call(w.t.app, 'DELETE', `${path}/${n.body.id}`, { token: w.admin })).body).toBeNull();
    expect((await call(w.t.app, 'GET', `${path}/${n.body.id}`, { token: w.admin })).status).toBe(404);
  });

  it('validates name, type, target and evergreen fields', async () => {
    const res = await call(w.t.app, 'POST', path, {
      token: w.admin,
      body: { name: 'no', type: 'pigeon', evergreen_owner: 'nobody', evergreen_reminder_interval: 'often', project: { name: 'default' } },
    });
    expect(problems(res)).toEqual([
      'body.evergreen_owner:value_error.email',
      'body.evergreen_reminder_interval:type_error.integer',
      'body.name:value_error.any_str.min_length',
      'body.target:value_error.missing',
      'body.type:type_error.enum',
    ]);
    const noProject = await call(w.t.app, 'POST', path, { token: w.admin, body: { name: 'Orphan', type: 'email', target: 'a@example.com' } });
    expect(problems(noProject)).toEqual(['body.project:value_error.missing']);
  });

  it('checks that an email notification targets an email address', async () => {
    const bad = await create({ name: 'Mail', type: 'email', target: '#not-an-address' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([{ loc: ['body', 'target'], msg: 'value is not a valid email address', type: 'value_error.email' }]);
    const ok = await create({ name: 'Mail', type: 'email', target: 'security@example.com' });
    expect(ok.status).toBe(200);
    const toChannel = await call(w.t.app, 'PUT', `${path}/${ok.body.id}`, { token: w.admin, body: { name: 'Mail', type: 'email', target: '#channel' } });
    expect(problems(toChannel)).toEqual(['body.target:value_error.email']);
  });

  it('refuses a webhook target the outbound policy refuses, on create and on update', async () => {
    for (const target of ['http://127.0.0.1:8080/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:10.0.0.1]/x', 'http://localhost/x']) {
      const bad = await create({ name: 'Internal hook', type: 'webhook', target });
      expect(bad.status).toBe(422);
      expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'target'], type: 'value_error.outbound_refused' })]);
    }
    const ok = await create({ name: 'Public hook', type: 'webhook', target: 'https://hooks.example.com/T1/secret-token' });
    expect(ok.status).toBe(200);
    const moved = await call(w.t.app, 'PUT', `${path}/${ok.body.id}`, {
      token: w.admin,
      body: { name: 'Public hook', type: 'webhook', target: 'http://10.1.2.3/hook' },
    });
    expect(problems(moved)).toEqual(['body.target:value_error.outbound_refused']);
  });

  it('shows a webhook target whole to Admins and its origin to Members, in single reads and lists', async () => {
    const secretUrl = 'https://hooks.example.com/services/T000/B000/capability-token';
    const made = await create({ name: 'Capability hook', type: 'webhook', target: secretUrl });
    expect(made.body.target).toBe(secretUrl);
    const id = made.body.id;
    expect((await call(w.t.app, 'GET', `${path}/${id}`, { token: w.admin })).body.target).toBe(secretUrl);
    const read = await call(w.t.app, 'GET', `${path}/${id}`, { token: w.member });
    expect(read.status).toBe(200);
    expect(read.body.target).toBe('https://hooks.example.com');
    const listed = await call(w.t.app, 'GET', path, { token: w.member, query: { itemsPerPage: -1 } });
    expect(JSON.stringify(listed.body)).not.toContain('capability-token');
    expect(listed.body.items.find((n: { id: number }) => n.id === id).target).toBe('https://hooks.example.com');
    const adminList = await call(w.t.app, 'GET', path, { token: w.admin, query: { itemsPerPage: -1 } });
    expect(adminList.body.items.find((n: { id: number }) => n.id === id).target).toBe(secretUrl);
  });

  it('answers 422 to a duplicate name in the project', async () => {
    await create({ name: 'Once' });
    const dup = await create({ name: 'Once' });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A notification with this name already exists.', type: 'value_error.exists' });
  });

  it('refuses search filters and projects of another organization', async () => {
    const f = await create({ name: 'Sneaky', filters: [{ id: filterId }, { id: w.elsewhere.filterId }] });
    expect(f.status).toBe(422);
    expect(f.body.detail[0]).toMatchObject({ loc: ['filters', 1], msg: 'Search filter not found.', type: 'value_error.not_found' });
    const byName = await create({ name: 'Sneaky', filters: [{ name: 'Theirs' }] });
    expect(byName.body.detail[0].loc).toEqual(['filters', 0]);
    const p = await create({ name: 'Sneaky', project: { id: w.elsewhere.projectId } });
    expect(p.body.detail[0]).toMatchObject({ loc: ['project'], type: 'value_error.not_found' });
  });

  it('lists with filter, sort, q and paging', async () => {
    for (const [name, type, target] of [
      ['List alpha', 'email', 'alpha@example.com'],
      ['List beta', 'conversation', '#beta'],
      ['List gamma', 'email', 'gamma@example.com'],
    ]) {
      await create({ name, type, target, description: `about ${name.split(' ')[1]}` });
    }
    const emails = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({
        filter: [
          {
            and: [
              { field: 'type', value: 'email' },
              { field: 'name', op: 'like', value: 'List%' },
            ],
          },
        ],
        sort: 'name',
        descending: true,
      }),
    });
    expect(names(emails)).toEqual(['List gamma', 'List alpha']);
    const q = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'beta' }) });
    expect(names(q)).toEqual(['List beta']);
    const page = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: { field: 'name', op: 'like', value: 'List%' }, sort: 'name', itemsPerPage: 1, page: 3 }),
    });
    expect(page.body).toMatchObject({ total: 3, page: 3, itemsPerPage: 1 });
    expect(names(page)).toEqual(['List gamma']);
    const routed = await create({ name: 'List routed', filters: [{ id: filterId }] });
    const bySearchFilter = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ model: 'SearchFilter', field: 'name', value: 'Sev high' }] }),
    });
    expect(bySearchFilter.body.items.map((n: { id: number }) => n.id)).toEqual([routed.body.id]);
  });
});
