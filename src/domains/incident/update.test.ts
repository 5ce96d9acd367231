import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, useWorld, person, problems, roles } from '../../../test/worlds/incidents.ts';

const w = useWorld();
const a = api(w);

const eventsOf = (res: { body: { events: { type: string; description: string }[] } }) => res.body.events.map((e) => `${e.type}: ${e.description}`);
const newEvents = (before: { body: any }, after: { body: any }) => eventsOf(after).slice(before.body.events.length);
const at = (v: string | null) => (v === null ? null : Date.parse(v));

/** The minimum an update body needs: what the contract requires. */
const required = (i: any) => ({
  title: i.title,
  description: i.description,
  incident_type: { name: i.incident_type.name },
  incident_priority: { name: i.incident_priority.name },
  incident_severity: { name: i.incident_severity.name },
});

describe('incident update', () => {
  it('changes fields, writing one event per changed field', async () => {
    const before = await a.create({});
    const changes = {
      title: 'Renamed',
      description: 'Worse than thought',
      resolution: 'Restarted it',
      visibility: 'Restricted',
      incident_severity: { name: 'High' },
      incident_priority: { name: 'Medium' },
      incident_type: before.body.incident_type,
    };
    const res = await a.edit(before.body.id, { ...changes, reported_at: '2024-01-02T03:04:05Z' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(changes);
    expect(at(res.body.reported_at)).toBe(Date.parse('2024-01-02T03:04:05Z'));
    expect(newEvents(before, res)).toEqual([
      'Field updated: Incident title changed from Something broke to Renamed',
      'Field updated: Incident description changed from It broke. to Worse than thought',
      `Field updated: Incident resolution changed from Description of the actions taken to resolve the incident. to Restarted it`,
      'Field updated: Incident visibility changed from Open to Restricted',
      `Field updated: Incident reported at changed from ${before.body.reported_at} to 2024-01-02T03:04:05.000Z`,
      'Assessment updated: Incident severity changed from Undetermined to High',
      'Assessment updated: Incident priority changed from Low to Medium',
    ]);
    expect(res.body.events.at(-1).details).toEqual({ field: 'incident_priority', previous: 'Low', current: 'Medium' });
    // Sending it back unchanged changes nothing and logs nothing.
    const same = await a.edit(before.body.id, {});
    expect(newEvents(res, same)).toEqual([]);
  });

  it('keeps commander, reporter, status and visibility when omitted', async () => {
    const i = (await a.create({ visibility: 'Restricted', status: 'Stable', commander: person('cmd@corp.example') })).body;
    const res = await a.update(i.id, { ...required(i), title: 'Only the title' }, w.owner);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Only the title',
      visibility: 'Restricted',
      status: 'Stable',
      stable_at: i.stable_at,
      commander: { id: i.commander.id },
      reporter: { id: i.reporter.id },
    });
    expect(problems(await a.update(i.id, { title: 'x' }, w.owner))).toEqual([
      'body.description:value_error.missing',
      'body.incident_priority:value_error.missing',
      'body.incident_severity:value_error.missing',
      'body.incident_type:value_error.missing',
    ]);
  });

  it('hands the commander and reporter roles over: the previous holder renounces, the new one joins', async () => {
    const i = await a.create({});
    const res = await a.edit(i.body.id, { commander: person('new.cmd@corp.example'), reporter: person('witness@corp.example') }, w.member);
    expect(res.status).toBe(200);
    expect(res.body.commander.individual.email).toBe('new.cmd@corp.example');
    expect(res.body.reporter.individual.email).toBe('witness@corp.example');
    expect(roles(res)).toEqual({
      'member@example.com': ['Reporter (renounced)', 'Incident Commander (renounced)'],
      'new.cmd@corp.example': ['Incident Commander'],
      'witness@corp.example': ['Reporter'],
    });
    expect(newEvents(i, res).every((e) => e.startsWith('Participant updated: '))).toBe(true);
    expect(newEvents(i, res)).toContain('Participant updated: New.cmd added to incident with Incident Commander role');
    // The same commander again (any case): no change.
    const again = await a.edit(i.body.id, { commander: person('NEW.CMD@corp.example') });
    expect(newEvents(res, again)).toEqual([]);
    // A previous participant takes a role back on the same participant record.
    const back = await a.edit(i.body.id, { commander: person('member@example.com') });
    expect(back.body.commander.id).toBe(i.body.commander.id);
    expect(roles(back)['member@example.com']).toEqual(['Reporter (renounced)', 'Incident Commander (renounced)', 'Incident Commander']);
  });

  it('replaces lists: tags, terms, duplicates and costs; omitted lists empty', async () => {
    const other = (await a.create({ title: 'The same thing' })).body;
    const i = (await a.create({ tags: [{ name: 'db', tag_type: { name: 'Component' } }] })).body;
    const costTypes = (await call(w.t.app, 'GET', '/default/incident_cost_types', { token: w.member })).body.items;
    const extra = await call(w.t.app, 'POST', '/default/incident_cost_types', { token: w.owner, body: { name: 'Credits', project: { name: 'default' } } });
    const res = await a.edit(i.id, {
      tags: [{ name: 'cache', tag_type: { name: 'Component' } }],
      terms: [{ text: 'SLO' }],
      duplicates: [{ id: other.id }],
      incident_costs: [...i.incident_costs, { amount: 100, incident_cost_type: { id: extra.body.id } }],
      cases: [],
    });
    expect(res.status).toBe(200);
    expect(res.body.tags.map((t: any) => t.name)).toEqual(['cache']);
    expect(res.body.terms.map((t: any) => t.text)).toEqual(['SLO']);
    expect(res.body.duplicates.map((d: any) => d.id)).toEqual([other.id]);
    expect(res.body.duplicates[0]).toMatchObject({ title: 'The same thing', incident_priority: { name: 'Low' }, duplicates: [] });
    expect(res.body.cases).toEqual([]);
    const response = res.body.incident_costs.find((c: any) => c.incident_cost_type.id === costTypes[0].id);
    expect(response.id).toBe(i.incident_costs[0].id);
    expect(res.body.incident_costs.find((c: any) => c.incident_cost_type.name === 'Credits').amount).toBe(100);
    expect(res.body.total_cost).toBe(response.amount + 100);
    expect(newEvents({ body: i }, res)).toEqual([
      'Field updated: Incident tags changed from db to cache',
      'Field updated: Incident terms changed from none to SLO',
      `Field updated: Incident duplicates changed from none to ${other.name}`,
      'Field updated: Incident costs changed from 1 to 2',
    ]);
    // Lists left out are emptied; the response cost comes back, computed in the same request.
    const bare = await a.update(i.id, required(res.body), w.owner);
    expect(bare.body).toMatchObject({ tags: [], terms: [], duplicates: [] });
    expect(bare.body.incident_costs.map((c: any) => c.incident_cost_type.name)).toEqual(['Response Cost']);
  });

  it('refuses what it cannot link, before writing anything', async () => {
    const i = (await a.create({})).body;
    const selfDuplicate = await a.edit(i.id, { title: 'changed', duplicates: [{ id: i.id }] });
    expect(selfDuplicate.body.detail[0]).toMatchObject({ loc: ['duplicates', 0], msg: 'Incident not found.' });
    const foreignCost = await a.edit(i.id, { title: 'changed', incident_costs: [{ id: 999999, incident_cost_type: { id: 1 } }] });
    expect(foreignCost.body.detail[0]).toMatchObject({ loc: ['incident_costs', 0], msg: 'Incident cost not found.' });
    const badType = await a.edit(i.id, { title: 'changed', incident_type: { name: 'Nope' } });
    expect(badType.body.detail[0]).toMatchObject({ loc: ['incident_type'], msg: 'Incident type not found.' });
    const type = await call(w.t.app, 'POST', '/default/tag_types', { token: w.owner, body: { name: 'Tier', exclusive: true, project: { name: 'default' } } });
    const exclusive = await a.edit(i.id, {
      title: 'changed',
      tags: [
        { name: 'gold', tag_type: { id: type.body.id } },
        { name: 'silver', tag_type: { id: type.body.id } },
      ],
    });
    expect(exclusive.status).toBe(422);
    expect(exclusive.body.detail[0].msg).toBe('Found multiple exclusive tags. Please ensure that only one tag of a given type is applied. Tags: gold,silver');
    const after = await a.get(i.id, w.owner);
    expect(after.body.title).toBe(i.title);
    expect(after.body.events).toHaveLength(i.events.length);
    const tags = await call(w.t.app, 'GET', '/default/tags', { token: w.member, query: { itemsPerPage: -1 } });
    expect(tags.body.items.map((t: any) => t.name)).not.toContain('gold');
  });
});

describe('odd update bodies', () => {
  it('answer 422 or 200, never 5xx', async () => {
    const i = (await a.create({}, w.owner)).body;
    const base = required(i);
    const bodies = [
      { incident_costs: [{ incident_cost_type: null }] },
      { incident_costs: [{ incident_cost_type: {} }] },
      { incident_costs: [{ amount: 1e308, incident_cost_type: { name: 'Response Cost' } }] },
      { reported_at: 'yesterday' },
      { reported_at: '9999-12-31T23:59:59Z' },
      { stable_at: null, status: null, visibility: null, resolution: null },
      { commander: { individual: null } },
      { commander: null, reporter: {} },
      { commander: { individual: { id: 2147483646 } } },
      { tags: [{ name: '' }] },
      { tags: [{ name: 'x', tag_type: { id: 2147483646 } }] },
      { terms: [{}] },
      { terms: [{ text: '' }] },
      { duplicates: [{}] },
      { cases: [{ id: 'a' }] },
      { incident_type: {}, incident_priority: null },
      { title: null },
    ];
    for (const extra of bodies) {
      const res = await a.update(i.id, { ...base, ...extra }, w.owner);
      expect(res.status, JSON.stringify(extra)).toBeLessThan(500);
    }
  });
});

describe('status transitions', () => {
  const move = (id: number, status: string, extra: Record<string, unknown> = {}) => a.edit(id, { status, ...extra });

  it('Active -> Stable stamps stable_at (over a sent one) and lowers the priority to the default', async () => {
    const i = (await a.create({ incident_priority: { name: 'High' } })).body;
    const res = await move(i.id, 'Stable', { stable_at: '2020-01-01T00:00:00Z' });
    expect(res.body).toMatchObject({ status: 'Stable', closed_at: null, incident_priority: { name: 'Low' } });
    expect(Date.now() - at(res.body.stable_at)!).toBeLessThan(60_000);
    expect(newEvents({ body: i }, res)).toEqual([
      'Assessment updated: Incident status changed from Active to Stable',
      'Assessment updated: Incident priority changed from High to Low',
      // Stable is when the review is written from the record (docs/documents.md).
      'Other: Post-incident review created',
    ]);
    // A priority set in the same request stays.
    const j = (await a.create({ incident_priority: { name: 'High' } })).body;
    const kept = await move(j.id, 'Stable', { incident_priority: { name: 'Medium' } });
    expect(kept.body.incident_priority.name).toBe('Medium');
  });

  it('Active -> Closed stamps both and removes every participant', async () => {
    const i = (await a.create({ commander: person('cmd@corp.example') })).body;
    const res = await move(i.id, 'Closed');
    expect(res.body.status).toBe('Closed');
    expect(res.body.stable_at).toBe(res.body.closed_at);
    expect(res.body.closed_at).not.toBeNull();
    expect(roles(res)).toEqual({ 'member@example.com': ['Reporter (renounced)'], 'cmd@corp.example': ['Incident Commander (renounced)'] });
    expect(newEvents({ body: i }, res)).toContain('Participant updated: Cmd removed from incident');
  });

  it('Stable -> Closed stamps closed_at and keeps stable_at', async () => {
    const i = (await a.create({ status: 'Stable' })).body;
    const res = await move(i.id, 'Closed');
    expect(res.body.stable_at).toBe(i.stable_at);
    expect(at(res.body.closed_at)).toBeGreaterThanOrEqual(at(i.stable_at)!);
  });

  it('Stable -> Active keeps stable_at', async () => {
    const i = (await a.create({ status: 'Stable' })).body;
    const res = await move(i.id, 'Active');
    expect(res.body).toMatchObject({ status: 'Active', stable_at: i.stable_at, closed_at: null });
  });

  it('Closed -> Active brings the participants back with their roles and keeps both stamps', async () => {
    const i = (await a.create({ status: 'Closed', commander: person('cmd@corp.example') })).body;
    const res = await move(i.id, 'Active');
    expect(res.body).toMatchObject({ status: 'Active', stable_at: i.stable_at, closed_at: i.closed_at });
    expect(roles(res)).toEqual({
      'member@example.com': ['Reporter (renounced)', 'Reporter'],
      'cmd@corp.example': ['Incident Commander (renounced)', 'Incident Commander'],
    });
    expect(newEvents({ body: i }, res)).toContain('Participant updated: Cmd has been reactivated');
  });

  it('Closed -> Stable brings them back and stamps stable_at anew', async () => {
    const i = (await a.create({ status: 'Closed' })).body;
    await new Promise((r) => setTimeout(r, 5));
    const res = await move(i.id, 'Stable');
    expect(res.body.status).toBe('Stable');
    expect(at(res.body.stable_at)).toBeGreaterThan(at(i.stable_at)!);
    expect(res.body.closed_at).toBe(i.closed_at);
    expect(roles(res)['member@example.com']).toEqual(['Reporter (renounced)', 'Incident Commander (renounced)', 'Reporter', 'Incident Commander']);
  });

  it('recomputes the response cost with the status', async () => {
    const i = (await a.create({})).body;
    const closed = await move(i.id, 'Closed');
    expect(closed.body.incident_costs[0].amount).toBeGreaterThan(0);
    expect(closed.body.total_cost).toBe(closed.body.incident_costs[0].amount);
  });
});
