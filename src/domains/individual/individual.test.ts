import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld, listQuery, problems } from '../../../test/worlds/world.ts';

const w = useWorld();
let filterId: number;
beforeAll(async () => {
  const f = await call(w.t.app, 'POST', '/default/search/filters', {
    token: w.owner,
    body: { name: 'Network', expression: [{ model: 'IncidentType', field: 'name', value: 'Network' }], project: { name: 'default' } },
  });
  filterId = f.body.id;
});

const path = '/default/individuals';
const create = (body: Record<string, unknown>, token = w.member) => call(w.t.app, 'POST', path, { token, body: { project: { name: 'default' }, ...body } });
const emails = (res: { body: { items: { email: string }[] } }) => res.body.items.map((i) => i.email);

describe('individuals', () => {
  it('round trip: defaults, filters, timestamps', async () => {
    const res = await create({
      email: 'jane@example.com',
      name: 'Jane Doe',
      title: 'SRE',
      company: 'Acme',
      notes: 'Knows the database',
      filters: [{ id: filterId }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: 'jane@example.com',
      name: 'Jane Doe',
      title: 'SRE',
      is_active: true,
      is_external: false,
      weblink: null,
      filters: [{ id: filterId, name: 'Network' }],
    });
    expect(typeof res.body.created_at).toBe('string');
    const got = await call(w.t.app, 'GET', `${path}/${res.body.id}`, { token: w.member });
    expect(got.body).toEqual(res.body);
    const upd = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, {
      token: w.admin,
      body: { email: 'jane@example.com', mobile_phone: '+1 555 0100', is_external: true },
    });
    expect(upd.body).toMatchObject({ name: 'Jane Doe', mobile_phone: '+1 555 0100', is_external: true, is_active: true, filters: [{ id: filterId }] });
  });

  it('keeps emails unique per project, reported on email', async () => {
    await create({ email: 'dup@example.com' });
    const dup = await create({ email: 'dup@example.com', name: 'Again' });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0]).toMatchObject({ loc: ['email'], msg: 'An individual with this email already exists.', type: 'value_error.exists' });
  });

  it('validates email and fields', async () => {
    const res = await call(w.t.app, 'POST', path, { token: w.member, body: { email: 'not an email', is_active: 'perhaps', project: { name: 'default' } } });
    expect(problems(res)).toEqual(['body.email:value_error.email', 'body.is_active:type_error.bool']);
    const missing = await call(w.t.app, 'POST', path, { token: w.member, body: { name: 'Nobody' } });
    expect(problems(missing)).toEqual(['body.email:value_error.missing', 'body.project:value_error.missing']);
  });

  it('lets Admins and above update anyone, a person themselves; only Admins and above delete', async () => {
    const other = await create({ email: 'other@example.com' });
    const self = await create({ email: 'member@example.com', name: 'Me' });
    expect((await call(w.t.app, 'PUT', `${path}/${other.body.id}`, { token: w.member, body: { email: 'other@example.com', name: 'Renamed' } })).status).toBe(
      403,
    );
    const mine = await call(w.t.app, 'PUT', `${path}/${self.body.id}`, { token: w.member, body: { email: 'member@example.com', office_phone: '123' } });
    expect(mine).toMatchObject({ status: 200, body: { office_phone: '123', name: 'Me' } });
    expect((await call(w.t.app, 'PUT', `${path}/${other.body.id}`, { token: w.owner, body: { email: 'other@example.com', name: 'By owner' } })).body.name).toBe(
      'By owner',
    );
    expect((await call(w.t.app, 'DELETE', `${path}/${self.body.id}`, { token: w.member })).status).toBe(403);
    expect((await call(w.t.app, 'DELETE', `${path}/${other.body.id}`, { token: w.admin })).body).toBeNull();
    expect((await call(w.t.app, 'GET', `${path}/${other.body.id}`, { token: w.member })).status).toBe(404);
  });

  it('refuses search filters and projects of another organization', async () => {
    const f = await create({ email: 'sneaky@example.com', filters: [{ id: w.elsewhere.filterId }] });
    expect(f.body.detail[0]).toMatchObject({ loc: ['filters', 0], msg: 'Search filter not found.', type: 'value_error.not_found' });
    const p = await create({ email: 'sneaky@example.com', project: { id: w.elsewhere.projectId } });
    expect(p.body.detail[0]).toMatchObject({ loc: ['project'], type: 'value_error.not_found' });
  });

  it('searches name, email, title, company and notes', async () => {
    await create({ email: 'q1@example.com', name: 'Zelda Quartz' });
    await create({ email: 'quokka@example.com' });
    await create({ email: 'q3@example.com', title: 'Quality lead' });
    await create({ email: 'q4@example.com', company: 'Quasar Inc' });
    await create({ email: 'q5@example.com', notes: 'quiet hours apply' });
    await create({ email: 'q6@example.com', office_phone: 'qqq', owner: 'quentin' });
    for (const [q, expected] of [
      ['quartz', 'q1@example.com'],
      ['quokka', 'quokka@example.com'],
      ['quality', 'q3@example.com'],
      ['quasar', 'q4@example.com'],
      ['quiet', 'q5@example.com'],
    ]) {
      expect(emails(await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q }) })), q).toEqual([expected]);
    }
    expect((await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'quentin' }) })).body.total).toBe(0);
  });

  it('lists with filter, sort and paging', async () => {
    const sorted = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ field: 'email', op: 'like', value: 'q_@%' }], sort: 'email', descending: true }),
    });
    expect(emails(sorted)).toEqual(['q6@example.com', 'q5@example.com', 'q4@example.com', 'q3@example.com', 'q1@example.com']);
    const page = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: { field: 'email', op: 'like', value: 'q_@%' }, sort: 'email', itemsPerPage: 2, page: 3 }),
    });
    expect(page.body).toMatchObject({ total: 5, page: 3, itemsPerPage: 2 });
    expect(emails(page)).toEqual(['q6@example.com']);
    const routed = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ model: 'SearchFilter', field: 'name', value: 'Network' }] }),
    });
    expect(emails(routed)).toEqual(['jane@example.com']);
  });
});
