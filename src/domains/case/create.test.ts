import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { cases, useWorld, person, problems, roles } from '../../../test/worlds/cases.ts';

const w = useWorld();
const c = cases(w);

describe('case create', () => {
  it('fills defaults, names the case and makes the caller assignee and reporter', async () => {
    const res = await c.create();
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({
      title: 'Suspicious login',
      status: 'New',
      visibility: 'Open',
      resolution: 'Description of the actions taken to resolve the case.',
      name: `muster-default-default-${body.id}`,
      project: { name: 'default' },
      case_type: { default: true },
      case_priority: { default: true },
      case_severity: { default: true },
      assignee: { individual: { email: 'member@example.com' } },
      triage_at: null,
      escalated_at: null,
      closed_at: null,
    });
    expect(roles(body)).toEqual({ 'member@example.com': ['Assignee', 'Reporter'] });
    expect(body.events.map((e: any) => e.description)).toEqual([
      'Case created',
      'Member added to case with Assignee role',
      'Member has assumed the Reporter role',
      'Case document created',
    ]);
    expect(body.documents.map((d: any) => [d.name, d.resource_type])).toEqual([[`Case document: ${body.name}`, 'dispatch-case-document']]);
    expect(body.reported_at).toBe(body.created_at);
  });

  it('takes type, priority, severity, people, tags and visibility from the body', async () => {
    const type = await call(w.t.app, 'POST', '/default/case_types', {
      token: w.owner,
      body: { name: 'Phishing', visibility: 'Restricted', project: { name: 'default' } },
    });
    const res = await c.create({
      case_type: { name: 'Phishing' },
      case_priority: { name: 'High' },
      case_severity: { name: 'Medium' },
      assignee: person('analyst@corp.example'),
      reporter: person('reporter@corp.example'),
      tags: [{ name: 'credential', tag_type: { name: 'Technique' } }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      case_type: { id: type.body.id },
      case_priority: { name: 'High' },
      case_severity: { name: 'Medium' },
      visibility: 'Restricted',
    });
    expect(roles(res.body)).toEqual({ 'analyst@corp.example': ['Assignee'], 'reporter@corp.example': ['Reporter'] });
    expect(res.body.tags.map((t: any) => `${t.tag_type.name}:${t.name}`)).toEqual(['Technique:credential']);
    // A body visibility wins over the type's.
    expect((await c.create({ case_type: { name: 'Phishing' }, visibility: 'Open' }, w.owner)).body.visibility).toBe('Open');
  });

  it('finds the contact of an email in any case, and makes one for an email never seen', async () => {
    const first = (await c.create({ assignee: person('Casey.Analyst@Corp.Example'), reporter: person('casey.analyst@corp.example') })).body;
    // One person (one contact, one participant) holding both roles, named and placed by the email first given.
    expect(roles(first)).toEqual({ 'Casey.Analyst@Corp.Example': ['Assignee', 'Reporter'] });
    expect(first.participants).toHaveLength(1);
    expect(first.participants[0]).toMatchObject({ team: 'Corp.Example', individual: { name: 'Casey.analyst' } });
    expect(first.events.map((e: any) => e.description)).toContain('Casey.analyst added to case with Assignee role');
    expect(first.events.map((e: any) => e.description)).toContain('Casey.analyst has assumed the Reporter role');
    const again = (await c.create({ assignee: person('CASEY.ANALYST@corp.example'), reporter: person('new.reporter@corp.example') })).body;
    expect(again.assignee.individual.id).toBe(first.assignee.individual.id);
    expect(again.reporter.individual).toMatchObject({ email: 'new.reporter@corp.example', name: 'New.reporter' });
    expect(again.reporter.individual.id).not.toBe(first.assignee.individual.id);
  });

  it('stamps every stage up to the initial status', async () => {
    const closed = (await c.create({ status: 'Closed', resolution_reason: 'False Positive', resolution: 'Benign.' })).body;
    expect(closed).toMatchObject({ status: 'Closed', resolution_reason: 'False Positive', resolution: 'Benign.' });
    expect(closed.triage_at).toBe(closed.closed_at);
    expect(closed.escalated_at).toBeNull();
    const triage = (await c.create({ status: 'Triage' })).body;
    expect(triage.triage_at).not.toBeNull();
    expect(triage.closed_at).toBeNull();
  });

  it('refuses bad bodies with 422 and writes nothing', async () => {
    const before = (await c.list()).body.total;
    expect(problems(await c.create({ title: '  ' }))).toEqual(['body.title:value_error']);
    expect(problems(await c.create({ description: undefined }))).toEqual(['body.description:value_error.missing']);
    expect(problems(await c.create({ status: 'Open' }))).toEqual(['body.status:type_error.enum']);
    expect(problems(await c.create({ case_type: { name: 'Nope' } }))).toEqual(['case_type:value_error.not_found']);
    expect(problems(await c.create({ case_priority: { id: 999999 } }))).toEqual(['case_priority:value_error.not_found']);
    expect(problems(await c.create({ project: { name: 'Nope' } }))).toEqual(['project:value_error.not_found']);
    // Another organization's project is not a project here.
    expect(problems(await c.create({ project: { id: w.elsewhere.projectId } }))).toEqual(['project:value_error.not_found']);
    expect((await c.list()).body.total).toBe(before);
  });
});

describe('a case opened by a signal', () => {
  it('lists its signal instances with their signal and entities', async () => {
    const { signals } = await import('../../../test/worlds/signals.ts');
    const s = signals(w);
    const ip = await s.entityType({ regular_expression: '\\b(?:\\d{1,3}\\.){3}\\d{1,3}\\b', enabled: true });
    const def = (await s.define({ name: 'Impossible travel', description: 'Two logins far apart', entity_types: [{ id: ip.id }] })).body;
    const instance = await s.ingest({ variant: def.variant ?? undefined, id: def.external_id, source_ip: '203.0.113.7' });
    expect(instance.status).toBe(200);
    // The case in the ingestion answer leaves its instances out; the case read has them.
    expect(instance.body.case).toMatchObject({ title: 'Impossible travel', signal_instances: [] });
    const kase = await c.get(instance.body.case.id, w.owner);
    expect(kase.status).toBe(200);
    expect(kase.body.title).toBe('Impossible travel');
    expect(kase.body.signal_instances).toHaveLength(1);
    expect(kase.body.signal_instances[0]).toMatchObject({
      fingerprint: instance.body.fingerprint,
      signal: { id: def.id, name: 'Impossible travel' },
      raw: { source_ip: '203.0.113.7' },
      entities: [{ value: '203.0.113.7', entity_type: { id: ip.id } }],
    });
  });
});
