import { beforeAll, describe, expect, it } from 'vitest';
import { cases, useWorld, listQuery, person } from '../../../test/worlds/cases.ts';

const w = useWorld();
const c = cases(w);
let phish: any;
let malware: any;
let closed: any;
beforeAll(async () => {
  phish = (
    await c.create(
      {
        title: 'Phishing mail',
        case_priority: { name: 'High' },
        case_severity: { name: 'High' },
        tags: [{ name: 'mail', tag_type: { name: 'Vector' } }],
        assignee: person('analyst@corp.example'),
      },
      w.owner,
    )
  ).body;
  malware = (await c.create({ title: 'Malware on laptop', status: 'Triage', tags: [{ name: 'endpoint', tag_type: { name: 'Asset' } }] }, w.owner)).body;
  closed = (await c.create({ title: 'Old alert', status: 'Closed', resolution_reason: 'False Positive' }, w.owner)).body;
  await c.edit(malware.id, { related: [{ id: phish.id }] });
});

const titles = (res: any) => res.body.items.map((i: any) => i.title);
const filtered = (filter: unknown) => c.list(listQuery({ filter, sort: 'id' }));

describe('case list', () => {
  it('gives minimal items', async () => {
    const res = await c.list(listQuery({ sort: 'id' }));
    expect(res.body).toMatchObject({ total: 3, page: 1, itemsPerPage: 3 });
    const item = res.body.items[1];
    expect(Object.keys(item).sort()).toEqual([
      'assignee',
      'case_costs',
      'case_priority',
      'case_severity',
      'case_type',
      'closed_at',
      'created_at',
      'description',
      'duplicates',
      'escalated_at',
      'id',
      'incidents',
      'name',
      'project',
      'related',
      'reported_at',
      'resolution',
      'resolution_reason',
      'status',
      'title',
      'total_cost_classic',
      'total_cost_new',
      'triage_at',
      'visibility',
    ]);
    expect(item.related.map((r: any) => r.title)).toEqual(['Phishing mail']);
    expect(item.assignee.individual).not.toHaveProperty('filters');
  });

  it('keeps only the include[] fields', async () => {
    const res = await c.list({ 'include[]': ['id', 'status', 'case_priority.name'], ...listQuery({ sort: 'id' }) });
    expect(res.body.items).toEqual([
      { id: phish.id, status: 'New', case_priority: { name: 'High' } },
      { id: malware.id, status: 'Triage', case_priority: { name: malware.case_priority.name } },
      { id: closed.id, status: 'Closed', case_priority: { name: closed.case_priority.name } },
    ]);
  });

  it('filters by status, related models and the assignee, and searches', async () => {
    expect(titles(await filtered([{ model: 'Case', field: 'status', op: '==', value: 'Triage' }]))).toEqual(['Malware on laptop']);
    expect(titles(await filtered([{ field: 'status', op: 'in', value: ['New', 'Closed'] }]))).toEqual(['Phishing mail', 'Old alert']);
    expect(titles(await filtered([{ model: 'CasePriority', field: 'name', op: '==', value: 'High' }]))).toEqual(['Phishing mail']);
    expect(titles(await filtered([{ model: 'CaseSeverity', field: 'name', op: '==', value: 'High' }]))).toEqual(['Phishing mail']);
    expect(titles(await filtered([{ model: 'CaseType', field: 'name', op: '==', value: 'Default' }]))).toHaveLength(3);
    expect(titles(await filtered([{ model: 'Tag', field: 'name', op: '==', value: 'endpoint' }]))).toEqual(['Malware on laptop']);
    expect(titles(await filtered([{ model: 'TagType', field: 'name', op: '==', value: 'Vector' }]))).toEqual(['Phishing mail']);
    expect(titles(await filtered([{ model: 'IndividualContact', field: 'email', op: '==', value: 'analyst@corp.example' }]))).toEqual(['Phishing mail']);
    expect(titles(await filtered([{ model: 'Project', field: 'name', op: '==', value: 'default' }]))).toHaveLength(3);
    expect(titles(await c.list({ q: 'malw' }))).toEqual(['Malware on laptop']);
    const sorted = await c.list(listQuery({ sort: 'case_priority.name', descending: false }));
    expect(sorted.status).toBe(200);
  });

  it('answers 422 for a filter on a field or model it does not know', async () => {
    expect((await filtered([{ model: 'Case', field: 'nope', op: '==', value: 1 }])).status).toBe(422);
    expect((await filtered([{ model: 'Nope', field: 'name', op: '==', value: 1 }])).status).toBe(422);
  });
});
