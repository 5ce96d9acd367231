import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld, listQuery, names, problems } from '../../../test/worlds/world.ts';

const w = useWorld();

const path = '/default/tag_types';
const create = (body: Record<string, unknown>) => call(w.t.app, 'POST', path, { token: w.member, body: { project: { name: 'default' }, ...body } });

describe('tag types', () => {
  it('are not exclusive unless asked; an update leaves `exclusive` alone unless sent', async () => {
    const plain = await create({ name: 'Region' });
    expect(plain.body).toMatchObject({ name: 'Region', exclusive: false, description: null, project: { name: 'default' } });
    const exclusive = await create({ name: 'Severity class', exclusive: true, description: 'One per incident' });
    expect(exclusive.body).toMatchObject({ exclusive: true, description: 'One per incident' });
    const renamed = await call(w.t.app, 'PUT', `${path}/${exclusive.body.id}`, { token: w.member, body: { name: 'Severity classes' } });
    expect(renamed.body).toMatchObject({ name: 'Severity classes', exclusive: true, description: 'One per incident' });
    const off = await call(w.t.app, 'PUT', `${path}/${exclusive.body.id}`, { token: w.member, body: { name: 'Severity classes', exclusive: false } });
    expect(off.body.exclusive).toBe(false);
  });

  it('validates the name and answers 422 to a duplicate', async () => {
    expect(problems(await create({ name: '  x ' }))).toEqual(['body.name:value_error.any_str.min_length']);
    expect(problems(await create({ name: 'Okay', exclusive: 'yes' }))).toEqual(['body.exclusive:type_error.bool']);
    const dup = await create({ name: 'Region' });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A tag type with this name already exists.', type: 'value_error.exists' });
  });

  it('lists with filter, sort, q and paging', async () => {
    const onlyExclusive = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ filter: [{ field: 'exclusive', value: true }] }) });
    expect(onlyExclusive.body.total).toBe(0);
    await create({ name: 'Team', exclusive: true });
    const sorted = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ sort: 'name', descending: true }) });
    expect(names(sorted)).toEqual(['Team', 'Severity classes', 'Region']);
    expect(names(await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'sev' }) }))).toEqual(['Severity classes']);
    const page = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ sort: 'name', itemsPerPage: 1, page: 2 }) });
    expect(page.body).toMatchObject({ total: 3, page: 2, itemsPerPage: 1 });
    expect(names(page)).toEqual(['Severity classes']);
  });

  it('refuses a project of another organization and hides their tag types', async () => {
    const p = await create({ name: 'Sneaky', project: { id: w.elsewhere.projectId } });
    expect(p.body.detail[0]).toMatchObject({ loc: ['project'], msg: 'Project not found.', type: 'value_error.not_found' });
    const theirs = await call(w.t.app, 'POST', '/elsewhere/tag_types', { token: w.owner, body: { name: 'Hidden', project: { id: w.elsewhere.projectId } } });
    expect((await call(w.t.app, 'GET', `${path}/${theirs.body.id}`, { token: w.owner })).status).toBe(404);
    expect(names(await call(w.t.app, 'GET', path, { token: w.owner, query: listQuery({}) }))).not.toContain('Hidden');
  });
});
