import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let token: string;
let member: string;
const project = { name: 'default' };
const filter = (f: unknown) => JSON.stringify(f);

beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  // A second organization, with a record of each kind a source may name.
  expect((await call(t.app, 'POST', '/organizations', { token, body: { name: 'Other Org' } })).status).toBe(200);
});
afterAll(() => t.close());

const KINDS = [
  ['dataFormats', 'source_data_format'],
  ['environments', 'source_environment'],
  ['statuses', 'source_status'],
  ['transports', 'source_transport'],
  ['types', 'source_type'],
] as const;

describe('source metadata (data formats, environments, statuses, transports, types)', () => {
  it.each(KINDS)('%s: round trip, list, update with id, uniqueness, cross-organization, delete', async (path, field) => {
    const base = `/default/data/sources/${path}`;
    const created = await call(t.app, 'POST', base, { token: member, body: { name: 'JSON', description: 'd', project } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'JSON', description: 'd', project: { name: 'default' } });
    await call(t.app, 'POST', base, { token: member, body: { name: 'Avro', project } });

    const got = await call(t.app, 'GET', `${base}/${created.body.id}`, { token: member });
    expect(got.body).toEqual(created.body);

    const list = await call(t.app, 'GET', base, { token: member, query: { q: 'avro' } });
    expect(list.body).toMatchObject({ total: 1, items: [{ name: 'Avro' }] });
    const sorted = await call(t.app, 'GET', base, { token: member, query: { 'sortBy[]': 'name', 'descending[]': true, itemsPerPage: 1, page: 2 } });
    expect(sorted.body).toMatchObject({ total: 2, page: 2, itemsPerPage: 1, items: [{ name: 'Avro' }] });

    // The contract requires `id` in an update body.
    const noId = await call(t.app, 'PUT', `${base}/${created.body.id}`, { token: member, body: { name: 'JSON lines' } });
    expect(noId.status).toBe(422);
    expect(noId.body.detail[0]).toMatchObject({ loc: ['body', 'id'], type: 'value_error.missing' });
    const upd = await call(t.app, 'PUT', `${base}/${created.body.id}`, { token: member, body: { id: created.body.id, name: 'JSON lines' } });
    expect(upd.body).toMatchObject({ id: created.body.id, name: 'JSON lines', description: 'd' });

    const dup = await call(t.app, 'POST', base, { token: member, body: { name: 'Avro', project } });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], type: 'value_error.exists' });
    const noName = await call(t.app, 'POST', base, { token: member, body: { project } });
    expect(noName.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'field required', type: 'value_error.missing' });

    // Another organization's record is not found, and is not a valid reference.
    const foreign = await call(t.app, 'POST', `/other_org/data/sources/${path}`, { token, body: { name: 'Foreign', project } });
    expect(foreign.status).toBe(200);
    expect((await call(t.app, 'GET', `${base}/${foreign.body.id}`, { token })).status).toBe(404);
    const badRef = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: `uses ${path}`, project, [field]: { id: foreign.body.id } } });
    expect(badRef.status).toBe(422);
    expect(badRef.body.detail[0].loc).toEqual([field]);

    // A source naming it: deleting the metadata record detaches it from the source.
    const src = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: `uses ${path}`, project, [field]: { name: 'JSON lines' } } });
    expect(src.body[field]).toMatchObject({ id: created.body.id, name: 'JSON lines' });
    expect((await call(t.app, 'DELETE', `${base}/${created.body.id}`, { token: member })).status).toBe(200);
    expect((await call(t.app, 'GET', `/default/data/sources/${src.body.id}`, { token })).body[field]).toBeNull();
    expect((await call(t.app, 'GET', `${base}/${created.body.id}`, { token })).status).toBe(404);
  });
});

describe('sources', () => {
  let owner: { id: number };
  beforeAll(async () => {
    // An on-call service to own sources (services have no API of this group; insert directly).
    const [row] = await t.database.query<{ id: number }>(
      "INSERT INTO service (organization_id, project_id, name, external_id) SELECT o.id, p.id, 'Data platform', 'P123' FROM organization o JOIN project p ON p.organization_id = o.id WHERE o.slug = 'default' AND p.name = 'default' RETURNING id",
    );
    owner = row;
    await call(t.app, 'POST', '/default/tag_types', { token, body: { name: 'Storage', project } });
    await call(t.app, 'POST', '/default/tags', { token, body: { name: 's3', tag_type: { name: 'Storage' }, project } });
    await call(t.app, 'POST', '/default/tags', { token, body: { name: 'hive', tag_type: { name: 'Storage' }, project } });
    await call(t.app, 'POST', '/default/data/sources/types', { token, body: { name: 'Log', project } });
    await call(t.app, 'POST', '/default/data/sources/statuses', { token, body: { name: 'Active', project } });
  });

  it('round trips with its references, tags, links, alerts and queries', async () => {
    const alert = await call(t.app, 'POST', '/default/data/alerts', { token, body: { name: 'Spike', originator: 'monitor' } });
    const res = await call(t.app, 'POST', '/default/data/sources', {
      token: member,
      body: {
        name: 'CloudTrail',
        description: 'AWS API calls',
        sampling_rate: 100,
        cost: 12.5,
        retention: 30,
        data_last_loaded_at: '2024-05-01T10:00:00Z',
        links: [{ name: 'runbook', href: 'https://example.com' }],
        owner: { id: owner.id },
        source_type: { name: 'Log' },
        source_status: { name: 'Active' },
        tags: [{ name: 's3' }, { id: undefined, name: 'hive' }],
        alerts: [{ id: alert.body.id }],
        incidents: [{ id: 1 }],
        queries: [{ id: 99, name: 'ignored', description: 'read-only' }],
        project,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'CloudTrail',
      aggregated: false,
      sampling_rate: 100,
      cost: 12.5,
      retention: 30,
      data_last_loaded_at: '2024-05-01T10:00:00.000Z',
      links: [{ name: 'runbook', href: 'https://example.com' }],
      owner: { id: owner.id, name: 'Data platform', external_id: 'P123', is_active: true },
      source_type: { name: 'Log', project: { name: 'default' } },
      source_status: { name: 'Active' },
      source_environment: null,
      alerts: [{ id: alert.body.id, name: 'Spike', originator: 'monitor' }],
      queries: [],
      incidents: [],
      project: { name: 'default' },
    });
    expect(res.body.tags.map((x: { name: string }) => x.name).sort()).toEqual(['hive', 's3']);

    // A query naming the source shows up in its minimal form.
    const q = await call(t.app, 'POST', '/default/data/queries', {
      token,
      body: { name: 'Root logins', description: 'who', source: { name: 'CloudTrail' }, project },
    });
    expect(q.status).toBe(200);
    const got = await call(t.app, 'GET', `/default/data/sources/${res.body.id}`, { token });
    expect(got.body.queries).toEqual([{ id: q.body.id, name: 'Root logins', description: 'who' }]);

    // Update: alerts left out of a given list lose the source; null aggregated means false.
    const other = await call(t.app, 'POST', '/default/data/alerts', { token, body: { name: 'Drop' } });
    const upd = await call(t.app, 'PUT', `/default/data/sources/${res.body.id}`, {
      token,
      body: { project, aggregated: null, alerts: [{ name: 'Drop' }], tags: [{ name: 's3' }], links: [], sampling_rate: 1 },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({
      name: 'CloudTrail',
      aggregated: false,
      sampling_rate: 1,
      alerts: [{ id: other.body.id }],
      links: [],
      owner: { id: owner.id },
    });
    expect(upd.body.tags.map((x: { name: string }) => x.name)).toEqual(['s3']);

    // Deleting a source that queries use is refused; with the queries gone, it goes, and its alerts stay.
    const inUse = await call(t.app, 'DELETE', `/default/data/sources/${res.body.id}`, { token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail[0].msg).toMatch(/query/);
    expect((await call(t.app, 'DELETE', `/default/data/queries/${q.body.id}`, { token })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/default/data/sources/${res.body.id}`, { token })).status).toBe(200);
    expect((await call(t.app, 'GET', `/default/data/alerts/${other.body.id}`, { token })).status).toBe(200);
  });

  it('checks sampling_rate (1..101), required name, unique names and references', async () => {
    for (const rate of [0, 102, 1.5]) {
      const bad = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'Bad rate', sampling_rate: rate, project } });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', 'sampling_rate']);
    }
    for (const rate of [1, 101, null]) {
      const ok = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: `Rate ${rate}`, sampling_rate: rate, project } });
      expect(ok.status).toBe(200);
      expect(ok.body.sampling_rate).toBe(rate);
    }
    const noName = await call(t.app, 'POST', '/default/data/sources', { token, body: { project } });
    expect(noName.body.detail[0]).toMatchObject({ loc: ['name'], type: 'value_error.missing' });
    const noProject = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'No project' } });
    expect(noProject.body.detail[0]).toMatchObject({ loc: ['body', 'project'], type: 'value_error.missing' });
    const badDate = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'Bad date', data_last_loaded_at: 'yesterday', project } });
    expect(badDate.body.detail[0].loc).toEqual(['body', 'data_last_loaded_at']);

    const dup = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'Rate 1', project } });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A source with this name already exists.', type: 'value_error.exists' });
    const badOwner = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'Unowned', owner: { name: 'Nobody' }, project } });
    expect(badOwner.body.detail[0]).toMatchObject({ loc: ['owner'], msg: 'Service not found.', type: 'value_error.not_found' });
    const badTag = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'Untagged', tags: [{ name: 's3' }, { id: 424242 }], project } });
    expect(badTag.body.detail[0]).toMatchObject({ loc: ['tags', 1], msg: 'Tag not found.' });
    expect((await call(t.app, 'GET', '/default/data/sources', { token, query: { q: 'Untagged' } })).body.total).toBe(0);
  });

  it('refuses alerts and owners of another organization', async () => {
    const foreignAlert = await call(t.app, 'POST', '/other_org/data/alerts', { token, body: { name: 'Theirs' } });
    const res = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'Stealer', alerts: [{ id: foreignAlert.body.id }], project } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['alerts', 0], msg: 'Alert not found.' });
    const [svc] = await t.database.query<{ id: number }>(
      "INSERT INTO service (organization_id, project_id, name) SELECT o.id, p.id, 'Their service' FROM organization o JOIN project p ON p.organization_id = o.id WHERE o.slug = 'other_org' RETURNING id",
    );
    const owned = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'Stealer', owner: { id: svc.id }, project } });
    expect(owned.body.detail[0]).toMatchObject({ loc: ['owner'], msg: 'Service not found.' });
  });

  it('lists with filters through references and tags, sorting and paging', async () => {
    await call(t.app, 'POST', '/default/data/sources', {
      token,
      body: { name: 'Flow logs', source_type: { name: 'Log' }, tags: [{ name: 'hive' }], cost: 3, project },
    });
    await call(t.app, 'POST', '/default/data/sources', {
      token,
      body: { name: 'DNS logs', source_type: { name: 'Log' }, owner: { name: 'Data platform' }, cost: 7, project },
    });
    const byType = await call(t.app, 'GET', '/default/data/sources', {
      token,
      query: { filter: filter([{ model: 'SourceType', field: 'name', op: '==', value: 'Log' }]), 'sortBy[]': 'cost', 'descending[]': true, itemsPerPage: -1 },
    });
    expect(byType.body.items.map((s: { name: string }) => s.name)).toEqual(['DNS logs', 'Flow logs']);
    const byTag = await call(t.app, 'GET', '/default/data/sources', {
      token,
      query: { filter: filter([{ model: 'Tag', field: 'name', op: '==', value: 'hive' }]) },
    });
    expect(byTag.body.items.map((s: { name: string }) => s.name)).toEqual(['Flow logs']);
    const byOwner = await call(t.app, 'GET', '/default/data/sources', {
      token,
      query: { filter: filter([{ model: 'Service', field: 'name', op: '==', value: 'Data platform' }]) },
    });
    expect(byOwner.body.items.map((s: { name: string }) => s.name)).toEqual(['DNS logs']);
    const q = await call(t.app, 'GET', '/default/data/sources', {
      token,
      query: { q: 'logs', 'sortBy[]': 'source_type.name', 'descending[]': false, itemsPerPage: 1 },
    });
    expect(q.body).toMatchObject({ total: 2, itemsPerPage: 1 });
    expect((await call(t.app, 'GET', '/other_org/data/sources', { token })).body.total).toBe(0);
  });
});
