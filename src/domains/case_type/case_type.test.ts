import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { document } from '../document/table.ts';
import { organization } from '../organization/table.ts';
import { project } from '../project/table.ts';
import { service } from '../service/table.ts';

let t: TestApp;
let owner: string;
let member: string;
let defaultType: { id: number; name: string; description: string; visibility: string };
let oncall: number;
let nameless: number;
let template: number;
let foreignService: number;
let otherProjectType: number;

/** The organization's project `default`, where rows of other domains are put directly. */
async function scope(orgSlug: string) {
  const [org] = await t.database.db.select().from(organization).where(eq(organization.slug, orgSlug));
  const [p] = await t.database.db
    .select()
    .from(project)
    .where(and(eq(project.organization_id, org.id), eq(project.name, 'default')));
  return { organization_id: org.id, project_id: p.id };
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  const here = await scope('default');
  const types = await call(t.app, 'GET', '/default/incident_types', { token: owner });
  defaultType = types.body.items[0];
  const db = t.database.db;
  [{ id: oncall }] = await db
    .insert(service)
    .values({ ...here, name: 'Security Oncall', external_id: 'PD123', type: 'pagerduty-oncall' })
    .returning();
  [{ id: nameless }] = await db
    .insert(service)
    .values({ ...here, external_id: 'PD456' })
    .returning();
  [{ id: template }] = await db
    .insert(document)
    .values({ ...here, name: 'Case Template', weblink: 'https://docs.example.com/case' })
    .returning();
  await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Elsewhere' } });
  [{ id: foreignService }] = await db
    .insert(service)
    .values({ ...(await scope('elsewhere')), name: 'Their Oncall', external_id: 'X1' })
    .returning();
  const other = await call(t.app, 'POST', '/default/projects', { token: owner, body: { name: 'Other', organization: { name: 'default' } } });
  const otherTypes = await call(t.app, 'GET', '/default/incident_types', {
    token: owner,
    query: { filter: JSON.stringify([{ model: 'Project', field: 'id', op: '==', value: other.body.id }]) },
  });
  otherProjectType = otherTypes.body.items[0].id;
});
afterAll(() => t.close());

const url = '/default/case_types';
const create = (body: Record<string, unknown>, token = owner) => call(t.app, 'POST', url, { token, body: { project: { name: 'default' }, ...body } });
const inDefault = { model: 'Project', field: 'name', op: '==', value: 'default' };

describe('case types', () => {
  it('starts with the seeded Default type, mapped to the Default incident type', async () => {
    const res = await call(t.app, 'GET', url, { token: member, query: { filter: JSON.stringify([inDefault]) } });
    expect(res.body.items).toEqual([
      {
        id: expect.any(Number),
        name: 'Default',
        description: 'This is the default case type.',
        visibility: 'Open',
        default: true,
        enabled: true,
        exclude_from_metrics: false,
        plugin_metadata: [],
        conversation_target: null,
        case_template_document: null,
        oncall_service: null,
        incident_type: { id: defaultType.id, name: 'Default', description: 'This is the default incident type.', visibility: 'Open' },
        cost_model: null,
        project: expect.objectContaining({ name: 'default' }),
      },
    ]);
  });

  it("round trips with its incident type, on-call service and template document nested as the contract's small shapes", async () => {
    const res = await create({
      name: 'Phishing',
      conversation_target: '#phishing',
      incident_type: { name: 'Default' },
      oncall_service: { id: oncall },
      case_template_document: { id: template },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Phishing',
      conversation_target: '#phishing',
      default: false,
      visibility: null,
      incident_type: { id: defaultType.id, name: 'Default' },
      oncall_service: { id: oncall, name: 'Security Oncall', external_id: 'PD123', is_active: true, type: 'pagerduty-oncall', description: null },
      case_template_document: {
        id: template,
        name: 'Case Template',
        weblink: 'https://docs.example.com/case',
        resource_id: null,
        resource_type: null,
        description: null,
      },
    });
    expect((await call(t.app, 'GET', `${url}/${res.body.id}`, { token: member })).body).toEqual(res.body);
    // The web UI sends the whole read object back.
    const upd = await call(t.app, 'PUT', `${url}/${res.body.id}`, {
      token: owner,
      body: { ...res.body, oncall_service: { id: nameless }, description: 'Reported phishing' },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({
      description: 'Reported phishing',
      oncall_service: { id: nameless, name: null, external_id: 'PD456' },
      incident_type: { id: defaultType.id },
    });
    const again = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: owner, body: upd.body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(upd.body);
    const cleared = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: owner, body: { name: 'Phishing', oncall_service: null, incident_type: null } });
    expect(cleared.body).toMatchObject({
      oncall_service: null,
      incident_type: null,
      case_template_document: { id: template },
      conversation_target: '#phishing',
    });
  });

  it('refuses references that are unknown, in another project or in another organization, naming the field', async () => {
    const unknown = await create({ name: 'Unknown Type', incident_type: { name: 'Nope' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['incident_type'], msg: 'Incident type not found.', type: 'value_error.not_found' });
    const otherProject = await create({ name: 'Wrong Project', incident_type: { id: otherProjectType } });
    expect(otherProject.body.detail[0].loc).toEqual(['incident_type']);
    const foreign = await create({ name: 'Foreign Service', oncall_service: { id: foreignService } });
    expect(foreign.body.detail[0]).toMatchObject({ loc: ['oncall_service'], msg: 'Service not found.' });
    const doc = await create({ name: 'Missing Doc', case_template_document: { id: 999999 } });
    expect(doc.body.detail[0]).toMatchObject({ loc: ['case_template_document'], msg: 'Document not found.' });
  });

  it('detaches an on-call service when the service goes', async () => {
    const [{ id }] = await t.database.db
      .insert(service)
      .values({ ...(await scope('default')), name: 'Short Lived', external_id: 'TMP' })
      .returning();
    const res = await create({ name: 'Detaching', oncall_service: { id } });
    expect((await call(t.app, 'DELETE', `/default/services/${id}`, { token: owner })).status).toBe(200);
    expect((await call(t.app, 'GET', `${url}/${res.body.id}`, { token: member })).body.oncall_service).toBeNull();
  });

  it('validates visibility and names, answers duplicates with 422, Members with 403, delete with 405', async () => {
    const vis = await create({ name: 'Odd', visibility: 'open' });
    expect(vis.body.detail[0]).toMatchObject({ loc: ['body', 'visibility'], type: 'type_error.enum' });
    expect((await create({ name: '  ' })).body.detail[0].loc).toEqual(['body', 'name']);
    const dup = await create({ name: 'Default' });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A case type with this name already exists.', type: 'value_error.exists' });
    expect((await create({ name: 'By Member' }, member)).status).toBe(403);
    expect((await call(t.app, 'DELETE', `${url}/1`, { token: owner })).status).toBe(405);
  });

  it('keeps one default per project', async () => {
    const res = await create({ name: 'Fresh Default', default: true, visibility: 'Restricted' });
    const defaults = await call(t.app, 'GET', url, {
      token: member,
      query: { filter: JSON.stringify([inDefault, { field: 'default', op: '==', value: true }]) },
    });
    expect(defaults.body.items.map((i: { id: number }) => i.id)).toEqual([res.body.id]);
  });

  it('lists through its incident type and on-call service', async () => {
    const byType = await call(t.app, 'GET', url, {
      token: member,
      query: {
        itemsPerPage: -1,
        filter: JSON.stringify([inDefault, { model: 'IncidentType', field: 'name', op: '==', value: 'Default' }]),
        'sortBy[]': 'name',
        'descending[]': false,
      },
    });
    expect(byType.body.items.map((i: { name: string }) => i.name)).toEqual(['Default']);
    const byService = await call(t.app, 'GET', url, {
      token: member,
      query: { filter: JSON.stringify([{ model: 'Service', field: 'external_id', op: '==', value: 'PD456' }]) },
    });
    expect(byService.body.total).toBe(0); // cleared above
    const sorted = await call(t.app, 'GET', url, {
      token: member,
      query: { itemsPerPage: -1, filter: JSON.stringify([inDefault]), 'sortBy[]': 'incident_type.name', 'descending[]': true },
    });
    expect(sorted.status).toBe(200);
    const q = await call(t.app, 'GET', url, { token: member, query: { q: 'phish' } });
    expect(q.body.items.map((i: { name: string }) => i.name)).toEqual(['Phishing']);
  });
});
