import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
});
afterAll(() => t.close());

describe('tag types and tags', () => {
  it('round trips through the CRUD mechanism', async () => {
    const tt = await call(t.app, 'POST', '/default/tag_types', { token, body: { name: 'Cloud', project: { name: 'default' } } });
    expect(tt.status).toBe(200);
    expect(tt.body).toMatchObject({ name: 'Cloud', exclusive: false, project: { name: 'default' } });
    const tag = await call(t.app, 'POST', '/default/tags', { token, body: { name: 'aws', tag_type: { name: 'Cloud' }, project: { name: 'default' } } });
    expect(tag.status).toBe(200);
    expect(tag.body).toMatchObject({ name: 'aws', discoverable: true, tag_type: { id: tt.body.id, name: 'Cloud', project: { name: 'default' } } });
    const list = await call(t.app, 'GET', '/default/tags', { token, query: { filter: JSON.stringify([{ model: 'TagType', field: 'name', op: '==', value: 'Cloud' }]), 'sortBy[]': 'tag_type.name', 'descending[]': false } });
    expect(list.body.total).toBe(1);
    const upd = await call(t.app, 'PUT', `/default/tags/${tag.body.id}`, { token, body: { description: 'Amazon' } });
    expect(upd.body).toMatchObject({ name: 'aws', description: 'Amazon', discoverable: true });
    const inUse = await call(t.app, 'DELETE', `/default/tag_types/${tt.body.id}`, { token });
    expect(inUse.status).toBe(409);
    const dup = await call(t.app, 'POST', '/default/tag_types', { token, body: { name: 'Cloud', project: { name: 'default' } } });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A tag type with this name already exists.', type: 'value_error.exists' });
    const badRef = await call(t.app, 'POST', '/default/tags', { token, body: { name: 'x', tag_type: { id: 999 }, project: { name: 'default' } } });
    expect(badRef.body.detail[0]).toMatchObject({ loc: ['tag_type'], msg: 'Tag type not found.', type: 'value_error.not_found' });
  });
});
