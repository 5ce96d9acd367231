import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { document } from '../document/table.ts';
import { organization } from '../organization/table.ts';
import { project } from '../project/table.ts';

let t: TestApp;
let owner: string;
let member: string;
let projectId: number;
const docs: Record<string, number> = {};
let foreignDoc: number;

/** A document row as the document domain would store it (its own routes are tested there). */
async function insertDocument(orgSlug: string, name: string, weblink: string | null = `https://docs.example.com/${name}`) {
  const [org] = await t.database.db.select().from(organization).where(eq(organization.slug, orgSlug));
  const [p] = await t.database.db
    .select()
    .from(project)
    .where(and(eq(project.organization_id, org.id), eq(project.name, 'default')));
  const [row] = await t.database.db
    .insert(document)
    .values({ organization_id: org.id, project_id: p.id, name, weblink, resource_type: 'template' })
    .returning();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  projectId = (await call(t.app, 'GET', '/default/projects', { token: owner })).body.items[0].id;
  docs.incident = await insertDocument('default', 'Incident Template');
  docs.review = await insertDocument('default', 'Review Template', null);
  await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Elsewhere' } });
  foreignDoc = await insertDocument('elsewhere', 'Their Template');
});
afterAll(() => t.close());

const url = '/default/incident_types';
const create = (body: Record<string, unknown>, token = owner) => call(t.app, 'POST', url, { token, body: { project: { name: 'default' }, ...body } });
const inDefault = JSON.stringify([{ model: 'Project', field: 'name', op: '==', value: 'default' }]);

describe('incident types', () => {
  it('starts with the seeded Default type', async () => {
    const res = await call(t.app, 'GET', url, { token: member, query: { filter: inDefault } });
    expect(res.body.items).toEqual([
      {
        id: expect.any(Number),
        name: 'Default',
        description: 'This is the default incident type.',
        visibility: 'Open',
        default: true,
        enabled: true,
        exclude_from_metrics: false,
        plugin_metadata: [],
        incident_template_document: null,
        executive_template_document: null,
        review_template_document: null,
        tracking_template_document: null,
        cost_model: null,
        project: expect.objectContaining({ id: projectId, name: 'default' }),
      },
    ]);
  });

  it("round trips with template documents named by id or name, nested as the contract's Document", async () => {
    const res = await create({
      name: 'Security',
      visibility: 'Restricted',
      incident_template_document: { id: docs.incident },
      review_template_document: { name: 'Review Template' },
      plugin_metadata: [{ slug: 'slack-conversation', metadata: [{ key: 'channel', value: 'sec' }] }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Security',
      visibility: 'Restricted',
      default: false,
      enabled: true,
      exclude_from_metrics: false,
      plugin_metadata: [{ slug: 'slack-conversation', metadata: [{ key: 'channel', value: 'sec' }] }],
      executive_template_document: null,
      tracking_template_document: null,
    });
    expect(res.body.incident_template_document).toEqual({
      id: docs.incident,
      name: 'Incident Template',
      description: null,
      resource_id: null,
      resource_type: 'template',
      weblink: 'https://docs.example.com/Incident Template',
    });
    expect(res.body.review_template_document).toMatchObject({ id: docs.review, weblink: null });
    expect((await call(t.app, 'GET', `${url}/${res.body.id}`, { token: member })).body).toEqual(res.body);

    // An update keeps what it does not send; Dispatch's UI sends whole read objects back.
    const upd = await call(t.app, 'PUT', `${url}/${res.body.id}`, {
      token: owner,
      body: { ...res.body, description: 'Security incidents', executive_template_document: { id: docs.incident } },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...res.body, description: 'Security incidents', executive_template_document: res.body.incident_template_document });
    const partial = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: owner, body: { name: 'Security', enabled: false } });
    expect(partial.body).toMatchObject({
      description: 'Security incidents',
      visibility: 'Restricted',
      enabled: false,
      review_template_document: { id: docs.review },
    });
    const cleared = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: owner, body: { name: 'Security', review_template_document: null } });
    expect(cleared.body.review_template_document).toBeNull();
  });

  it('refuses documents that are unknown or in another organization, naming the field', async () => {
    const unknown = await create({ name: 'Unknown Doc', incident_template_document: { id: 999999 } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['incident_template_document'], msg: 'Document not found.', type: 'value_error.not_found' });
    const foreign = await create({ name: 'Foreign Doc', tracking_template_document: { id: foreignDoc } });
    expect(foreign.body.detail[0]).toMatchObject({ loc: ['tracking_template_document'], type: 'value_error.not_found' });
    const byName = await create({ name: 'Foreign Doc', executive_template_document: { name: 'Their Template' } });
    expect(byName.body.detail[0].loc).toEqual(['executive_template_document']);
  });

  it('detaches a template document when the document goes', async () => {
    const doomed = await insertDocument('default', 'Doomed Template');
    const res = await create({ name: 'Detached', tracking_template_document: { id: doomed } });
    expect((await call(t.app, 'DELETE', `/default/documents/${doomed}`, { token: owner })).status).toBe(200);
    const got = await call(t.app, 'GET', `${url}/${res.body.id}`, { token: member });
    expect(got.body.tracking_template_document).toBeNull();
  });

  it('validates visibility, names and plugin metadata', async () => {
    const vis = await create({ name: 'Hidden', visibility: 'Secret' });
    expect(vis.status).toBe(422);
    expect(vis.body.detail[0]).toMatchObject({ loc: ['body', 'visibility'], type: 'type_error.enum' });
    expect((await create({ name: 'No' })).body.detail[0].loc).toEqual(['body', 'name']);
    const meta = await create({ name: 'Bad Meta', plugin_metadata: [{ metadata: [] }] });
    expect(meta.body.detail[0]).toMatchObject({ loc: ['body', 'plugin_metadata', 0, 'slug'], type: 'value_error.missing' });
    const kv = await create({ name: 'Bad Meta', plugin_metadata: [{ slug: 'x', metadata: [{ key: 'k' }] }] });
    expect(kv.status).toBe(422);
  });

  it('keeps one default per project; an update that does not mention `default` keeps it', async () => {
    const seeded = (
      await call(t.app, 'GET', url, {
        token: member,
        query: {
          filter: JSON.stringify([
            { field: 'name', op: '==', value: 'Default' },
            { model: 'Project', field: 'id', op: '==', value: projectId },
          ]),
        },
      })
    ).body.items[0];
    const kept = await call(t.app, 'PUT', `${url}/${seeded.id}`, { token: owner, body: { name: 'Default', description: 'Still the default.' } });
    expect(kept.body.default).toBe(true);
    const other = await create({ name: 'New Default', default: true });
    expect(other.body.default).toBe(true);
    expect((await call(t.app, 'GET', `${url}/${seeded.id}`, { token: member })).body.default).toBe(false);
    await call(t.app, 'PUT', `${url}/${seeded.id}`, { token: owner, body: { name: 'Default', default: true } });
    expect((await call(t.app, 'GET', `${url}/${other.body.id}`, { token: member })).body.default).toBe(false);
  });

  it('answers duplicates with 422, Members with 403, delete with 405', async () => {
    const dup = await create({ name: 'Default' });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'An incident type with this name already exists.', type: 'value_error.exists' });
    expect((await create({ name: 'By Member' }, member)).status).toBe(403);
    expect((await call(t.app, 'PUT', `${url}/1`, { token: member, body: { name: 'Default' } })).status).toBe(403);
    expect((await call(t.app, 'DELETE', `${url}/1`, { token: owner })).status).toBe(405);
  });

  it('lists with filters through its documents, q and sorting', async () => {
    const byDoc = await call(t.app, 'GET', url, {
      token: member,
      query: { filter: JSON.stringify([{ model: 'Document', field: 'name', op: '==', value: 'Incident Template' }]) },
    });
    expect(byDoc.body.items.map((i: { name: string }) => i.name)).toEqual(['Security']);
    const q = await call(t.app, 'GET', url, { token: member, query: { q: 'secur' } });
    expect(q.body.items.map((i: { name: string }) => i.name)).toEqual(['Security']);
    const sorted = await call(t.app, 'GET', url, { token: member, query: { filter: inDefault, itemsPerPage: -1, 'sortBy[]': 'name', 'descending[]': false } });
    const got = sorted.body.items.map((i: { name: string }) => i.name);
    expect(got).toEqual([...got].sort());
    const restricted = await call(t.app, 'GET', url, {
      token: member,
      query: { filter: JSON.stringify([{ field: 'visibility', op: '==', value: 'Restricted' }]) },
    });
    expect(restricted.body.total).toBe(1);
  });

  it("never shows another organization's types", async () => {
    const theirs = (await call(t.app, 'GET', '/elsewhere/incident_types', { token: member })).body.items[0];
    expect((await call(t.app, 'GET', `${url}/${theirs.id}`, { token: owner })).status).toBe(404);
  });
});
