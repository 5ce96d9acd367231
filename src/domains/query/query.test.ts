import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let token: string;
let member: string;
const project = { name: 'default' };

beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  await call(t.app, 'POST', '/organizations', { token, body: { name: 'Other Org' } });
  await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'CloudTrail', project } });
  await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'VPC flow', project } });
  await call(t.app, 'POST', '/other_org/data/sources', { token, body: { name: 'Theirs', project } });
  await call(t.app, 'POST', '/default/tag_types', { token, body: { name: 'Team', project } });
  await call(t.app, 'POST', '/default/tags', { token, body: { name: 'secops', tag_type: { name: 'Team' }, project } });
});
afterAll(() => t.close());

describe('queries', () => {
  it('round trip: source by name, tags, full source in the read', async () => {
    const res = await call(t.app, 'POST', '/default/data/queries', {
      token: member,
      body: { name: 'Root logins', language: 'sql', text: 'select 1', source: { name: 'CloudTrail' }, tags: [{ name: 'secops' }], project },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Root logins',
      language: 'sql',
      text: 'select 1',
      description: null,
      source: { name: 'CloudTrail', project: { name: 'default' }, queries: [{ name: 'Root logins' }], tags: [], alerts: [] },
      tags: [{ name: 'secops', tag_type: { name: 'Team' } }],
      project: { name: 'default' },
    });
    expect((await call(t.app, 'GET', `/default/data/queries/${res.body.id}`, { token })).body).toEqual(res.body);

    // The contract requires source and project on update; the source may change.
    const partial = await call(t.app, 'PUT', `/default/data/queries/${res.body.id}`, { token, body: { name: 'x' } });
    expect(partial.status).toBe(422);
    expect(partial.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['body.project', 'body.source']);
    const upd = await call(t.app, 'PUT', `/default/data/queries/${res.body.id}`, {
      token,
      body: { description: 'who', source: { name: 'VPC flow' }, project, tags: [] },
    });
    expect(upd.body).toMatchObject({ name: 'Root logins', description: 'who', source: { name: 'VPC flow' }, tags: [] });
  });

  it('validates: source required and resolvable in the organization, name required and unique', async () => {
    const noSource = await call(t.app, 'POST', '/default/data/queries', { token, body: { name: 'Orphan', project } });
    expect(noSource.body.detail[0]).toMatchObject({ loc: ['body', 'source'], type: 'value_error.missing' });
    const emptySource = await call(t.app, 'POST', '/default/data/queries', { token, body: { name: 'Orphan', source: {}, project } });
    expect(emptySource.body.detail[0]).toMatchObject({ loc: ['source'], msg: 'Source not found.', type: 'value_error.not_found' });
    const foreign = await call(t.app, 'GET', '/other_org/data/sources', { token });
    const crossOrg = await call(t.app, 'POST', '/default/data/queries', { token, body: { name: 'Orphan', source: { id: foreign.body.items[0].id }, project } });
    expect(crossOrg.body.detail[0]).toMatchObject({ loc: ['source'], msg: 'Source not found.' });
    const byForeignName = await call(t.app, 'POST', '/default/data/queries', { token, body: { name: 'Orphan', source: { name: 'Theirs' }, project } });
    expect(byForeignName.status).toBe(422);
    const noName = await call(t.app, 'POST', '/default/data/queries', { token, body: { source: { name: 'CloudTrail' }, project } });
    expect(noName.body.detail[0]).toMatchObject({ loc: ['name'], type: 'value_error.missing' });
    const dup = await call(t.app, 'POST', '/default/data/queries', { token, body: { name: 'Root logins', source: { name: 'CloudTrail' }, project } });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A query with this name already exists.', type: 'value_error.exists' });
    const badTag = await call(t.app, 'POST', '/default/data/queries', {
      token,
      body: { name: 'Tagged', source: { name: 'CloudTrail' }, tags: [{ name: 'nope' }], project },
    });
    expect(badTag.body.detail[0]).toMatchObject({ loc: ['tags', 0], msg: 'Tag not found.' });
  });

  it('lists with filters by source and tag, q, sort and paging', async () => {
    await call(t.app, 'POST', '/default/data/queries', {
      token,
      body: { name: 'Console logins', source: { name: 'CloudTrail' }, tags: [{ name: 'secops' }], project },
    });
    await call(t.app, 'POST', '/default/data/queries', { token, body: { name: 'Rejected flows', source: { name: 'VPC flow' }, project } });
    const f = (x: unknown) => JSON.stringify(x);
    const bySource = await call(t.app, 'GET', '/default/data/queries', {
      token,
      query: { filter: f([{ model: 'Source', field: 'name', op: '==', value: 'VPC flow' }]), 'sortBy[]': 'name', 'descending[]': false, itemsPerPage: -1 },
    });
    expect(bySource.body.items.map((q: { name: string }) => q.name)).toEqual(['Rejected flows', 'Root logins']);
    const byTag = await call(t.app, 'GET', '/default/data/queries', {
      token,
      query: { filter: f([{ model: 'Tag', field: 'name', op: '==', value: 'secops' }]) },
    });
    expect(byTag.body.items.map((q: { name: string }) => q.name)).toEqual(['Console logins']);
    const q = await call(t.app, 'GET', '/default/data/queries', {
      token,
      query: { q: 'logins', 'sortBy[]': 'source.name', 'descending[]': true, itemsPerPage: 1, page: 1 },
    });
    expect(q.body).toMatchObject({ total: 2, items: [{ name: 'Root logins' }] });
    expect((await call(t.app, 'GET', '/other_org/data/queries', { token })).body.total).toBe(0);
  });

  it('deletes, and a deleted query no longer holds its source', async () => {
    const list = await call(t.app, 'GET', '/default/data/queries', { token, query: { itemsPerPage: -1 } });
    for (const q of list.body.items) expect((await call(t.app, 'DELETE', `/default/data/queries/${q.id}`, { token: member })).status).toBe(200);
    expect((await call(t.app, 'GET', `/default/data/queries/${list.body.items[0].id}`, { token })).status).toBe(404);
    const sources = await call(t.app, 'GET', '/default/data/sources', { token, query: { itemsPerPage: -1 } });
    for (const s of sources.body.items) expect((await call(t.app, 'DELETE', `/default/data/sources/${s.id}`, { token })).status).toBe(200);
  });
});
