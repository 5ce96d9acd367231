import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { CASE_STATUSES, type CaseStatus } from './schema.ts';
import { cases, useWorld, person, problems, roles } from '../../../test/worlds/cases.ts';

const w = useWorld();
const c = cases(w);

const newEvents = (before: { body: any }, after: { body: any }) =>
  after.body.events.slice(before.body.events.length).map((e: any) => `${e.type}: ${e.description}`);

describe('case update', () => {
  it('changes fields and assessment, logging who changed what', async () => {
    const before = await c.create();
    const changes = {
      title: 'Credential stuffing',
      resolution: 'Reset passwords',
      resolution_reason: 'Mitigated',
      visibility: 'Restricted',
      case_priority: { name: 'High' },
      case_severity: { name: 'High' },
    };
    const res = await c.edit(before.body.id, changes);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(changes);
    expect(newEvents(before, res)).toEqual([
      'Field updated: Case title changed from Suspicious login to Credential stuffing by owner@example.com',
      'Field updated: Case resolution changed from Description of the actions taken to resolve the case. to Reset passwords by owner@example.com',
      'Field updated: Case resolution reason changed from none to Mitigated by owner@example.com',
      'Field updated: Case visibility changed from Open to Restricted by owner@example.com',
      'Assessment updated: Case severity changed to High by owner@example.com',
      'Assessment updated: Case priority changed to High by owner@example.com',
    ]);
    // The read object sent back unchanged changes nothing and logs nothing.
    expect(newEvents(res, await c.edit(before.body.id, {}))).toEqual([]);
  });

  it('replaces tags, related, duplicates and incidents, and clears them when omitted', async () => {
    const one = (await c.create()).body;
    const two = (await c.create()).body;
    const three = (await c.create()).body;
    const incident = (await call(w.t.app, 'POST', '/default/incidents', { token: w.member, body: { title: 'Outage', description: 'Down.' } })).body;
    const res = await c.edit(one.id, {
      tags: [{ name: 'vip', tag_type: { name: 'Audience' } }],
      related: [{ id: two.id }],
      duplicates: [{ id: three.id }],
      incidents: [{ id: incident.id }],
    });
    expect(res.status).toBe(200);
    expect(res.body.tags.map((t: any) => t.name)).toEqual(['vip']);
    expect(res.body.related.map((r: any) => r.id)).toEqual([two.id]);
    expect(res.body.duplicates.map((r: any) => r.id)).toEqual([three.id]);
    expect(res.body.incidents.map((r: any) => r.id)).toEqual([incident.id]);
    expect(res.body.related[0]).toMatchObject({ title: 'Suspicious login', case_type: { name: two.case_type.name }, related: [], duplicates: [] });
    const cleared = await c.update(
      one.id,
      { title: one.title, description: one.description, assignee: one.assignee, status: 'New', visibility: 'Open' },
      w.owner,
    );
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ tags: [], related: [], duplicates: [], incidents: [] });
    expect(problems(await c.edit(one.id, { related: [{ id: one.id }] }))).toEqual(['related.0:value_error.not_found']);
    expect(problems(await c.edit(one.id, { incidents: [{ id: 999999 }] }))).toEqual(['incidents.0:value_error.not_found']);
  });

  it('hands the assignee role over', async () => {
    const before = (await c.create()).body;
    const res = await c.edit(before.id, { assignee: person('analyst@corp.example') });
    expect(res.body.assignee.individual.email).toBe('analyst@corp.example');
    expect(roles(res.body)).toEqual({ 'member@example.com': ['Assignee (renounced)', 'Reporter'], 'analyst@corp.example': ['Assignee'] });
  });

  it('keeps omitted type, priority and severity, and refuses unknown ones with nothing written', async () => {
    const before = (await c.create({ case_priority: { name: 'High' } })).body;
    const res = await c.update(before.id, { title: 'Renamed', description: before.description }, w.owner);
    expect(res.body).toMatchObject({ title: 'Renamed', case_priority: { name: 'High' }, case_type: { id: before.case_type.id }, status: 'New' });
    const bad = await c.edit(before.id, { title: 'Again', case_type: { name: 'Nope' } });
    expect(problems(bad)).toEqual(['case_type:value_error.not_found']);
    expect((await c.get(before.id)).body.title).toBe('Renamed');
  });
});

describe('case transitions', () => {
  const stamps = (b: any) => ({ triage: !!b.triage_at, escalated: !!b.escalated_at, closed: !!b.closed_at });
  // What each target status stamps when it is reached from New (earlier stamps are kept on later moves).
  const expected: Record<CaseStatus, { triage: boolean; escalated: boolean; closed: boolean }> = {
    New: { triage: false, escalated: false, closed: false },
    Triage: { triage: true, escalated: false, closed: false },
    Escalated: { triage: true, escalated: true, closed: false },
    Stable: { triage: true, escalated: false, closed: false },
    Closed: { triage: true, escalated: false, closed: true },
  };

  for (const from of CASE_STATUSES) {
    for (const to of CASE_STATUSES.filter((s) => s !== from)) {
      it(`${from} -> ${to}`, async () => {
        const start = (await c.create({ status: from })).body;
        const res = await c.edit(start.id, { status: to });
        expect(res.status).toBe(200);
        expect(res.body.status).toBe(to);
        const got = stamps(res.body);
        // Stamps only ever get added; the target's own are set now.
        for (const k of ['triage', 'escalated', 'closed'] as const) expect(got[k]).toBe(stamps(start)[k] || expected[to][k]);
        if (to === 'Escalated' && !start.escalated_at) expect(Date.parse(res.body.escalated_at)).toBeGreaterThanOrEqual(Date.parse(start.created_at));
        if (to === 'Triage' && start.triage_at) expect(res.body.triage_at).toBe(start.triage_at);
        expect(
          res.body.events.at(-1).description === `Case status changed from ${from} to ${to}` ||
            res.body.events.some((e: any) => e.description === `Case status changed from ${from} to ${to}`),
        ).toBe(true);
        // Escalating opens (or has opened) exactly one incident.
        expect(res.body.incidents.length).toBe(to === 'Escalated' || from === 'Escalated' ? 1 : 0);
      });
    }
  }

  it('closing removes the participants and reopening brings them back with their roles', async () => {
    const start = (await c.create({ assignee: person('analyst@corp.example') })).body;
    const closed = await c.edit(start.id, { status: 'Closed', resolution_reason: 'User Acknowledged' });
    expect(closed.body).toMatchObject({ status: 'Closed', resolution_reason: 'User Acknowledged' });
    expect(closed.body.participants.every((p: any) => p.participant_roles.every((r: any) => r.renounced_at))).toBe(true);
    const reopened = await c.edit(start.id, { status: 'Triage' });
    expect(reopened.body.status).toBe('Triage');
    expect(reopened.body.closed_at).toBe(closed.body.closed_at);
    expect(roles(reopened.body)).toEqual({
      'analyst@corp.example': ['Assignee (renounced)', 'Assignee'],
      'member@example.com': ['Reporter (renounced)', 'Reporter'],
    });
  });

  it('copies explicit stamps; the transition made in the same request wins over them', async () => {
    const start = (await c.create()).body;
    const res = await c.edit(start.id, { triage_at: '2024-05-01T10:00:00Z', reported_at: '2024-05-01T09:00:00Z' });
    expect(res.body).toMatchObject({ triage_at: '2024-05-01T10:00:00.000Z', reported_at: '2024-05-01T09:00:00.000Z', status: 'New' });
    const closed = await c.edit(start.id, { status: 'Closed' });
    expect(closed.body.triage_at).toBe('2024-05-01T10:00:00.000Z');
    expect(closed.body.closed_at).not.toBeNull();
  });
});
