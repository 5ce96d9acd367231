import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld, listQuery, names } from '../../../test/worlds/world.ts';

const w = useWorld();

const path = '/default/search/filters';
const highPriority = [{ model: 'IncidentPriority', field: 'name', op: '==', value: 'High' }];
const create = (body: Record<string, unknown>, token = w.owner) =>
  call(w.t.app, 'POST', path, { token, body: { expression: highPriority, project: { name: 'default' }, ...body } });

describe('search filters', () => {
  it('round trip: subject defaults to incident and the creator is the caller', async () => {
    const res = await create({ name: 'High ones', description: 'Only the high ones' }, w.member);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'High ones', description: 'Only the high ones', subject: 'incident', expression: highPriority });
    expect(res.body.creator).toMatchObject({ email: 'member@example.com', organizations: [], projects: [] });
    expect(res.body).not.toHaveProperty('creator_id');
    const upd = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, { token: w.member, body: { name: 'High ones', subject: 'case', expression: [] } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ subject: 'case', expression: [], description: 'Only the high ones', creator: { email: 'member@example.com' } });
  });

  it('has no get-one operation', async () => {
    const one = await create({ name: 'Lonely' });
    expect((await call(w.t.app, 'GET', `${path}/${one.body.id}`, { token: w.owner })).status).toBe(405);
  });

  it('lists with filter, sort, q and paging', async () => {
    for (const name of ['Alpha view', 'Beta view', 'Gamma view'])
      await create({ name, description: `${name} described`, subject: name === 'Beta view' ? 'case' : 'incident' });
    const cases = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ field: 'subject', op: '==', value: 'case' }], sort: 'name' }),
    });
    expect(names(cases)).toEqual(['Beta view', 'High ones']);
    const sorted = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ field: 'name', op: 'like', value: '% view' }], sort: 'name', descending: true }),
    });
    expect(names(sorted)).toEqual(['Gamma view', 'Beta view', 'Alpha view']);
    const q = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'gamma' }) });
    expect(names(q)).toEqual(['Gamma view']);
    const page = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ field: 'name', op: 'like', value: '% view' }], sort: 'name', itemsPerPage: 2, page: 2 }),
    });
    expect(page.body).toMatchObject({ total: 3, page: 2, itemsPerPage: 2 });
    expect(names(page)).toEqual(['Gamma view']);
    const byProject = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ model: 'Project', field: 'name', op: '==', value: 'default' }] }),
    });
    expect(byProject.body.total).toBeGreaterThanOrEqual(4);
  });

  it('saves only expressions of the filter grammar, reported on `expression`', async () => {
    const bad = [
      [{ field: 'name', op: 'regex', value: 'x' }],
      [{ field: 'name', op: '==' }],
      [{ op: '==', value: 'x' }],
      [{ and: [] }],
      [
        {
          not: [
            { field: 'a', value: 1 },
            { field: 'b', value: 2 },
          ],
        },
      ],
      [{ or: { field: 'a', value: 1 } }],
      [{ field: 'name', value: 'x', extra: true }],
      [{ model: 7, field: 'name', value: 'x' }],
    ];
    for (const expression of bad) {
      const res = await create({ name: 'Broken', expression });
      expect(res.status, JSON.stringify(expression)).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['expression'], type: 'value_error.invalid.filter' });
    }
    const good = [{ and: [{ or: [{ model: 'Tag', field: 'name', op: 'in', value: ['a', 'b'] }] }, { not: [{ field: 'resolution', op: 'is_null' }] }] }];
    expect((await create({ name: 'Nested', expression: good })).status).toBe(200);
    const upd = await call(w.t.app, 'PUT', `${path}/${(await create({ name: 'Fixable' })).body.id}`, {
      token: w.owner,
      body: { name: 'Fixable', expression: [{ field: 'x', op: 'nope', value: 1 }] },
    });
    expect(upd.status).toBe(422);
  });

  it('validates name, expression and subject', async () => {
    const res = await call(w.t.app, 'POST', path, { token: w.owner, body: { name: 'ab', subject: 'widget', project: { name: 'default' } } });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[]; type: string }) => `${d.loc.join('.')}:${d.type}`).sort();
    expect(locs).toEqual(['body.expression:value_error.missing', 'body.name:value_error.any_str.min_length', 'body.subject:type_error.enum']);
    const blank = await create({ name: '    ' });
    expect(blank.status).toBe(422);
  });

  it('answers 422 to a duplicate name in the project', async () => {
    await create({ name: 'Twice' });
    const dup = await create({ name: 'Twice' });
    expect(dup.status).toBe(422);
    expect(dup.body.detail).toEqual([
      {
        loc: ['name'],
        msg: 'A search filter with this name already exists.',
        type: 'value_error.exists',
        ctx: { msg: 'A search filter with this name already exists.' },
      },
    ]);
  });

  it('refuses a project of another organization', async () => {
    const res = await create({ name: 'Across', project: { id: w.elsewhere.projectId } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['project'], msg: 'Project not found.', type: 'value_error.not_found' });
    expect((await call(w.t.app, 'PUT', `${path}/${w.elsewhere.filterId}`, { token: w.owner, body: { name: 'Stolen', expression: [] } })).status).toBe(404);
    expect((await call(w.t.app, 'DELETE', `${path}/${w.elsewhere.filterId}`, { token: w.owner })).status).toBe(404);
  });

  it('lets only the creator or an Admin and above change or delete a filter', async () => {
    const mine = await create({ name: 'Owned by owner' });
    const id = mine.body.id;
    expect((await call(w.t.app, 'PUT', `${path}/${id}`, { token: w.member, body: { name: 'Hijacked', expression: [] } })).status).toBe(403);
    expect((await call(w.t.app, 'DELETE', `${path}/${id}`, { token: w.member })).status).toBe(403);
    const byAdmin = await call(w.t.app, 'PUT', `${path}/${id}`, { token: w.admin, body: { name: 'Renamed by admin', expression: [] } });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.creator.email).toBe('owner@example.com');
    const theirs = await create({ name: 'Member made' }, w.member);
    expect((await call(w.t.app, 'DELETE', `${path}/${theirs.body.id}`, { token: w.member })).body).toBeNull();
    expect((await call(w.t.app, 'DELETE', `${path}/${id}`, { token: w.admin })).status).toBe(200);
  });

  it('deleting a filter detaches it from the records it routes', async () => {
    const f = await create({ name: 'Routing' });
    const n = await call(w.t.app, 'POST', '/default/notifications', {
      token: w.owner,
      body: { name: 'Security channel', type: 'conversation', target: '#security', filters: [{ id: f.body.id }], project: { name: 'default' } },
    });
    expect(n.body.filters.map((x: { name: string }) => x.name)).toEqual(['Routing']);
    expect((await call(w.t.app, 'DELETE', `${path}/${f.body.id}`, { token: w.owner })).status).toBe(200);
    expect((await call(w.t.app, 'GET', `/default/notifications/${n.body.id}`, { token: w.owner })).body.filters).toEqual([]);
  });
});
