import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { createWorld, listQuery, names, problems, type World } from '../../../test/worlds/world.ts';

let w: World;
const typeIds: Record<string, number> = {};
beforeAll(async () => {
  w = await createWorld();
  for (const [name, exclusive] of [
    ['Cloud', false],
    ['Environment', true],
  ] as const) {
    const res = await call(w.t.app, 'POST', '/default/tag_types', { token: w.member, body: { name, exclusive, project: { name: 'default' } } });
    typeIds[name] = res.body.id;
  }
});
afterAll(() => w.t.close());

const path = '/default/tags';
const create = (body: Record<string, unknown>) => call(w.t.app, 'POST', path, { token: w.member, body: { project: { name: 'default' }, ...body } });

describe('tags', () => {
  it('round trip: discoverable by default, the tag type nested with its project', async () => {
    const tag = await create({ name: 'aws', tag_type: { name: 'Cloud' }, external_id: 'cloud-1', uri: 'https://aws.example.com' });
    expect(tag.status).toBe(200);
    expect(tag.body).toMatchObject({
      name: 'aws',
      discoverable: true,
      external_id: 'cloud-1',
      tag_type: { id: typeIds.Cloud, name: 'Cloud', exclusive: false, project: { name: 'default' } },
      project: { name: 'default' },
    });
    const hidden = await create({ name: 'gcp', tag_type: { id: typeIds.Cloud }, discoverable: false });
    expect(hidden.body.discoverable).toBe(false);
    const upd = await call(w.t.app, 'PUT', `${path}/${tag.body.id}`, { token: w.member, body: { description: 'Amazon' } });
    expect(upd.body).toMatchObject({ name: 'aws', description: 'Amazon', discoverable: true, external_id: 'cloud-1' });
    const moved = await call(w.t.app, 'PUT', `${path}/${tag.body.id}`, { token: w.member, body: { tag_type: { name: 'Environment' } } });
    expect(moved.body.tag_type).toMatchObject({ name: 'Environment', exclusive: true });
    await call(w.t.app, 'PUT', `${path}/${tag.body.id}`, { token: w.member, body: { tag_type: { id: typeIds.Cloud } } });
  });

  it('filters and sorts through the tag type', async () => {
    await create({ name: 'production', tag_type: { name: 'Environment' } });
    await create({ name: 'staging', tag_type: { name: 'Environment' } });
    const cloud = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ model: 'TagType', field: 'name', op: '==', value: 'Cloud' }], sort: 'name' }),
    });
    expect(names(cloud)).toEqual(['aws', 'gcp']);
    const exclusive = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ model: 'TagType', field: 'exclusive', value: true }], sort: 'name', descending: true }),
    });
    expect(names(exclusive)).toEqual(['staging', 'production']);
    const byType = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: { ...listQuery({}), 'sortBy[]': ['tag_type.name', 'name'], 'descending[]': [true, false] },
    });
    expect(names(byType)).toEqual(['production', 'staging', 'aws', 'gcp']);
    const either = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({
        filter: {
          or: [
            { field: 'name', value: 'gcp' },
            { model: 'TagType', field: 'id', value: typeIds.Environment },
          ],
        },
        sort: 'name',
      }),
    });
    expect(names(either)).toEqual(['gcp', 'production', 'staging']);
    const page = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ sort: 'name', itemsPerPage: 3, page: 2 }) });
    expect(page.body).toMatchObject({ total: 4, page: 2, itemsPerPage: 3 });
    expect(names(page)).toEqual(['staging']);
  });

  it('searches name, description and external id', async () => {
    await create({
      name: 'kubernetes',
      description: 'Container orchestration',
      external_id: 'K8S-42',
      uri: 'https://uniqueuri.example.com',
      tag_type: { name: 'Cloud' },
    });
    for (const q of ['kube', 'orchestration', 'k8s']) {
      expect(names(await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q }) })), q).toEqual(['kubernetes']);
    }
    expect((await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'uniqueuri' }) })).body.total).toBe(0);
  });

  it('answers 422 to a duplicate name within a tag type, not across types', async () => {
    const dup = await create({ name: 'aws', tag_type: { name: 'Cloud' } });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A tag with this name already exists.', type: 'value_error.exists' });
    expect((await create({ name: 'aws', tag_type: { name: 'Environment' } })).status).toBe(200);
  });

  it('validates fields and the tag type reference', async () => {
    expect(problems(await create({ name: 'x', discoverable: 'often', tag_type: { name: 'Cloud' } }))).toEqual(['body.discoverable:type_error.bool']);
    const unknown = await create({ name: 'x', tag_type: { id: 999999 } });
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['tag_type'], msg: 'Tag type not found.', type: 'value_error.not_found' });
  });

  it('refuses a tag type of another organization, by id or by name', async () => {
    const theirs = await call(w.t.app, 'POST', '/elsewhere/tag_types', { token: w.owner, body: { name: 'Foreign', project: { id: w.elsewhere.projectId } } });
    expect(theirs.status).toBe(200);
    for (const tag_type of [{ id: theirs.body.id }, { name: 'Foreign' }]) {
      const res = await create({ name: 'smuggled', tag_type });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['tag_type'], msg: 'Tag type not found.', type: 'value_error.not_found' });
    }
    const mine = await create({ name: 'local', tag_type: { name: 'Cloud' } });
    const moved = await call(w.t.app, 'PUT', `${path}/${mine.body.id}`, { token: w.member, body: { tag_type: { id: theirs.body.id } } });
    expect(moved.body.detail[0].loc).toEqual(['tag_type']);
  });

  it('keeps a tag type in use: 409 until its tags are gone', async () => {
    const type = await call(w.t.app, 'POST', '/default/tag_types', { token: w.member, body: { name: 'Temporary', project: { name: 'default' } } });
    const tag = await create({ name: 'temp', tag_type: { id: type.body.id } });
    const inUse = await call(w.t.app, 'DELETE', `/default/tag_types/${type.body.id}`, { token: w.member });
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail[0].msg).toMatch(/tag records/);
    expect((await call(w.t.app, 'DELETE', `${path}/${tag.body.id}`, { token: w.member })).body).toBeNull();
    expect((await call(w.t.app, 'DELETE', `/default/tag_types/${type.body.id}`, { token: w.member })).status).toBe(200);
  });
});
