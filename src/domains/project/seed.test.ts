// Every new project starts with Dispatch's seeded records: through organization creation, project
// creation and database initialisation (the `default` organization of every test database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let owner: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
});
afterAll(() => t.close());

type Item = Record<string, unknown> & { name: string };

/** The records of one group in one project, in the order they were created, reduced to the fields named. */
async function seeded(org: string, path: string, projectId: number, fields: string[]) {
  const res = await call(t.app, 'GET', `/${org}/${path}`, {
    token: owner,
    query: {
      itemsPerPage: -1,
      filter: JSON.stringify([{ model: 'Project', field: 'id', op: '==', value: projectId }]),
      'sortBy[]': 'id',
      'descending[]': false,
    },
  });
  expect(res.status).toBe(200);
  return (res.body.items as Item[]).map((i) => Object.fromEntries(fields.map((f) => [f, i[f]])));
}

const ranked = ['name', 'view_order', 'color', 'default', 'enabled'];
const severities = [
  { name: 'Undetermined', view_order: 1, color: '#9e9e9e', default: true, enabled: true },
  { name: 'Low', view_order: 2, color: '#8bc34a', default: false, enabled: true },
  { name: 'Medium', view_order: 3, color: '#ffeb3b', default: false, enabled: true },
  { name: 'High', view_order: 4, color: '#ff9800', default: false, enabled: true },
  { name: 'Critical', view_order: 5, color: '#e53935', default: false, enabled: true },
];

async function expectSeeded(org: string, projectId: number) {
  const [incidentType] = await seeded(org, 'incident_types', projectId, [
    'id',
    'name',
    'description',
    'visibility',
    'default',
    'enabled',
    'exclude_from_metrics',
  ]);
  expect(incidentType).toEqual({
    id: expect.any(Number),
    name: 'Default',
    description: 'This is the default incident type.',
    visibility: 'Open',
    default: true,
    enabled: true,
    exclude_from_metrics: false,
  });
  expect(await seeded(org, 'incident_priorities', projectId, [...ranked, 'tactical_report_reminder', 'executive_report_reminder', 'page_commander'])).toEqual([
    {
      name: 'Low',
      view_order: 1,
      tactical_report_reminder: 12,
      executive_report_reminder: 9999,
      color: '#8bc34a',
      default: true,
      enabled: true,
      page_commander: false,
    },
    {
      name: 'Medium',
      view_order: 2,
      tactical_report_reminder: 6,
      executive_report_reminder: 12,
      color: '#ff9800',
      default: false,
      enabled: true,
      page_commander: false,
    },
    {
      name: 'High',
      view_order: 3,
      tactical_report_reminder: 2,
      executive_report_reminder: 6,
      color: '#e53935',
      default: false,
      enabled: true,
      page_commander: false,
    },
  ]);
  expect(await seeded(org, 'incident_severities', projectId, ranked)).toEqual(severities);
  expect(await seeded(org, 'incident_cost_types', projectId, ['name', 'category', 'details', 'default', 'editable'])).toEqual([
    { name: 'Response Cost', category: 'Primary', details: {}, default: true, editable: false },
  ]);
  expect(
    await seeded(org, 'case_types', projectId, ['name', 'description', 'visibility', 'default', 'enabled', 'exclude_from_metrics', 'incident_type']),
  ).toEqual([
    {
      name: 'Default',
      description: 'This is the default case type.',
      visibility: 'Open',
      default: true,
      enabled: true,
      exclude_from_metrics: false,
      incident_type: { id: incidentType.id, name: 'Default', description: 'This is the default incident type.', visibility: 'Open' },
    },
  ]);
  expect(await seeded(org, 'case_priorities', projectId, [...ranked, 'page_assignee'])).toEqual([
    { name: 'Low', view_order: 1, color: '#8bc34a', default: true, enabled: true, page_assignee: false },
    { name: 'Medium', view_order: 2, color: '#ffeb3b', default: false, enabled: true, page_assignee: false },
    { name: 'High', view_order: 3, color: '#ff9800', default: false, enabled: true, page_assignee: false },
    { name: 'Critical', view_order: 4, color: '#e53935', default: false, enabled: true, page_assignee: true },
    { name: 'Optional', view_order: 5, color: '#9e9e9e', default: false, enabled: true, page_assignee: false },
  ]);
  expect(await seeded(org, 'case_severities', projectId, ranked)).toEqual(severities);
}

const projectsOf = async (org: string) =>
  (await call(t.app, 'GET', `/${org}/projects`, { token: owner, query: { itemsPerPage: -1 } })).body.items as { id: number; name: string }[];

describe('project seeding', () => {
  it('seeds the default project of the initialised database', async () => {
    const [project] = await projectsOf('default');
    await expectSeeded('default', project.id);
  });

  it("seeds a new organization's default project", async () => {
    expect((await call(t.app, 'POST', '/organizations', { token: owner, body: { name: 'Red Team' } })).status).toBe(200);
    const [project] = await projectsOf('red_team');
    await expectSeeded('red_team', project.id);
  });

  it('seeds every new project with its own records, in the same request', async () => {
    const res = await call(t.app, 'POST', '/default/projects', { token: owner, body: { name: 'Security', organization: { name: 'default' } } });
    expect(res.status).toBe(200);
    await expectSeeded('default', res.body.id);
    // The case type of the new project maps to the new project's incident type, not another's.
    const [caseType] = await seeded('default', 'case_types', res.body.id, ['incident_type']);
    const [incidentType] = await seeded('default', 'incident_types', res.body.id, ['id']);
    expect((caseType.incident_type as { id: number }).id).toBe(incidentType.id);
  });

  it('leaves nothing behind when the project is deleted', async () => {
    const res = await call(t.app, 'POST', '/default/projects', { token: owner, body: { name: 'Short Lived', organization: { name: 'default' } } });
    expect((await call(t.app, 'DELETE', `/default/projects/${res.body.id}`, { token: owner })).status).toBe(200);
    for (const path of [
      'incident_types',
      'incident_priorities',
      'incident_severities',
      'incident_cost_types',
      'case_types',
      'case_priorities',
      'case_severities',
    ]) {
      expect(await seeded('default', path, res.body.id, ['name'])).toEqual([]);
    }
  });
});
