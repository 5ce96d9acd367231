import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld, listQuery, names, problems } from '../../../test/worlds/world.ts';
import { FAQ_DOCUMENT } from './group.ts';

const w = useWorld();
let filterId: number;
beforeAll(async () => {
  const f = await call(w.t.app, 'POST', '/default/search/filters', {
    token: w.owner,
    body: { name: 'Phishing', expression: [{ model: 'Tag', field: 'name', value: 'phishing' }], project: { name: 'default' } },
  });
  filterId = f.body.id;
});

const path = '/default/documents';
const create = (body: Record<string, unknown>, token = w.member) =>
  call(w.t.app, 'POST', path, { token, body: { weblink: 'https://docs.example.com/x', project: { name: 'default' }, ...body } });

describe('documents', () => {
  it('round trip: evergreen defaults, filters, project, and a description filled in on read', async () => {
    const res = await create({ name: 'Runbook', filters: [{ id: filterId }], resource_id: 'abc', resource_type: 'google-doc' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Runbook',
      description: 'No Description',
      resource_id: 'abc',
      weblink: 'https://docs.example.com/x',
      evergreen: false,
      evergreen_owner: null,
      evergreen_reminder_interval: 90,
      evergreen_last_reminder_at: null,
      filters: [{ id: filterId, name: 'Phishing', expression: [{ model: 'Tag', field: 'name', value: 'phishing' }] }],
      project: { name: 'default' },
    });
    const got = await call(w.t.app, 'GET', `${path}/${res.body.id}`, { token: w.member });
    expect(got.body).toEqual(res.body);
    // An update without `filters` keeps them (the contract gives them no default on update).
    const upd = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, { token: w.member, body: { name: 'Runbook v2', description: 'How we run' } });
    expect(upd.body).toMatchObject({ name: 'Runbook v2', description: 'How we run', resource_id: 'abc', filters: [{ id: filterId }] });
    const sentBack = await call(w.t.app, 'PUT', `${path}/${res.body.id}`, { token: w.member, body: { ...upd.body, filters: [] } });
    expect(sentBack.status).toBe(200);
    expect(sentBack.body.filters).toEqual([]);
  });

  it('describes documents of built-in kinds that have no description of their own', async () => {
    const inv = await create({ name: 'Investigation template', resource_type: 'dispatch-incident-document' });
    expect(inv.body.description).toMatch(/incident/);
    expect(inv.body.description).not.toBe('No Description');
  });

  it('starts the evergreen clock when created evergreen or switched on', async () => {
    const on = await create({ name: 'Policy', evergreen: true, evergreen_owner: 'owner@example.com' });
    expect(on.body).toMatchObject({ evergreen: true, evergreen_owner: 'owner@example.com', evergreen_reminder_interval: 90 });
    expect(Date.now() - new Date(on.body.evergreen_last_reminder_at).getTime()).toBeLessThan(60_000);
    const given = await create({ name: 'Policy with a date', evergreen: true, evergreen_last_reminder_at: '2024-01-02T03:04:05Z' });
    expect(given.body.evergreen_last_reminder_at).toBe('2024-01-02T03:04:05.000Z');
    const later = await create({ name: 'Policy later' });
    const switched = await call(w.t.app, 'PUT', `${path}/${later.body.id}`, { token: w.member, body: { name: 'Policy later', evergreen: true } });
    expect(switched.body.evergreen_last_reminder_at).not.toBeNull();
  });

  it('validates name, evergreen fields and references', async () => {
    const res = await call(w.t.app, 'POST', path, {
      token: w.member,
      body: { name: '  ', evergreen_owner: 'not-an-email', evergreen_reminder_interval: 'weekly', evergreen: 'sometimes', filters: { id: 1 } },
    });
    expect(problems(res)).toEqual([
      'body.evergreen:type_error.bool',
      'body.evergreen_owner:value_error.email',
      'body.evergreen_reminder_interval:type_error.integer',
      'body.filters:type_error.list',
      'body.name:value_error.any_str.min_length',
      'body.project:value_error.missing',
    ]);
    const missing = await call(w.t.app, 'PUT', `${path}/1`, { token: w.member, body: { description: 'no name' } });
    expect(problems(missing)).toEqual(['body.name:value_error.missing']);
    const unknown = await create({ name: 'Dangling', filters: [{ id: 999999 }] });
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['filters', 0], msg: 'Search filter not found.', type: 'value_error.not_found' });
  });

  it('answers 422 to a duplicate name in the project', async () => {
    await create({ name: 'Handbook' });
    const dup = await create({ name: 'Handbook' });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A document with this name already exists.', type: 'value_error.exists' });
  });

  it('allows one FAQ document per project', async () => {
    const faq = await create({ name: 'FAQ', resource_type: FAQ_DOCUMENT });
    expect(faq.status).toBe(200);
    expect(faq.body.description).not.toBe('No Description');
    const second = await create({ name: 'FAQ two', resource_type: FAQ_DOCUMENT });
    expect(second.status).toBe(422);
    expect(second.body.detail[0]).toMatchObject({ loc: ['document'], msg: 'FAQ document already defined for this project.', type: 'value_error.exists' });
    const other = await create({ name: 'Not a FAQ' });
    const turned = await call(w.t.app, 'PUT', `${path}/${other.body.id}`, { token: w.member, body: { name: 'Not a FAQ', resource_type: FAQ_DOCUMENT } });
    expect(turned.status).toBe(422);
    const same = await call(w.t.app, 'PUT', `${path}/${faq.body.id}`, {
      token: w.member,
      body: { name: 'FAQ', resource_type: FAQ_DOCUMENT, description: 'Questions' },
    });
    expect(same.status).toBe(200);
    // Another project may have its own.
    await call(w.t.app, 'POST', '/default/projects', { token: w.owner, body: { name: 'Second', organization: { name: 'default' } } });
    expect((await create({ name: 'FAQ', resource_type: FAQ_DOCUMENT, project: { name: 'Second' } })).status).toBe(200);
  });

  it('refuses search filters and projects of another organization', async () => {
    const f = await create({ name: 'Sneaky', filters: [{ id: w.elsewhere.filterId }] });
    expect(f.body.detail[0]).toMatchObject({ loc: ['filters', 0], type: 'value_error.not_found' });
    const p = await create({ name: 'Sneaky', project: { id: w.elsewhere.projectId } });
    expect(p.body.detail[0]).toMatchObject({ loc: ['project'], msg: 'Project not found.' });
  });

  it('lists with filter, sort, q and paging', async () => {
    for (const [name, resource_type] of [
      ['Guide alpha', 'sheet'],
      ['Guide beta', 'doc'],
      ['Guide gamma', 'sheet'],
    ])
      await create({ name, resource_type });
    const sheets = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ field: 'resource_type', value: 'sheet' }], sort: 'name', descending: true }),
    });
    expect(names(sheets)).toEqual(['Guide gamma', 'Guide alpha']);
    const q = await call(w.t.app, 'GET', path, { token: w.member, query: listQuery({ q: 'gui bet' }) });
    expect(names(q)).toEqual(['Guide beta']);
    const page = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: { field: 'name', op: 'like', value: 'Guide%' }, sort: 'name', itemsPerPage: 2, page: 1 }),
    });
    expect(page.body).toMatchObject({ total: 3, itemsPerPage: 2, page: 1 });
    expect(names(page)).toEqual(['Guide alpha', 'Guide beta']);
    const routed = await create({ name: 'Guide routed', filters: [{ name: 'Phishing' }] });
    const bySearchFilter = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ model: 'SearchFilter', field: 'id', op: 'in', value: [filterId] }] }),
    });
    expect(bySearchFilter.body.items.map((d: { id: number }) => d.id)).toContain(routed.body.id);
    const byProject = await call(w.t.app, 'GET', path, {
      token: w.member,
      query: listQuery({ filter: [{ model: 'Project', field: 'name', value: 'Second' }], sort: 'project.name' }),
    });
    expect(names(byProject)).toEqual(['FAQ']);
  });

  it('deleting a template document detaches it from the types that use it', async () => {
    const doc = await create({ name: 'Incident template' });
    const [type] = await w.t.database.query<{ id: number }>(
      `INSERT INTO incident_type (organization_id, project_id, name, incident_template_document_id)
       SELECT organization_id, project_id, 'Uses template', id FROM document WHERE id = $1 RETURNING id`,
      [doc.body.id],
    );
    expect((await call(w.t.app, 'DELETE', `${path}/${doc.body.id}`, { token: w.member })).body).toBeNull();
    const [after] = await w.t.database.query<{ incident_template_document_id: number | null }>(
      'SELECT incident_template_document_id FROM incident_type WHERE id = $1',
      [type.id],
    );
    expect(after.incident_template_document_id).toBeNull();
    expect((await call(w.t.app, 'GET', `${path}/${doc.body.id}`, { token: w.member })).status).toBe(404);
  });
});
