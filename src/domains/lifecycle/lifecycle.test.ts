// The lifecycle kit through HTTP, for both kinds: a Restricted case escalates into a Restricted
// incident, the timeline never names a Restricted record to those who may not see it, links the
// caller may not see survive a replace, and one rule for a person who comes back.
import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { cases, person } from '../../../test/worlds/cases.ts';
import { api } from '../../../test/worlds/incidents.ts';
import { useWorld } from '../../../test/worlds/world.ts';

const w = useWorld();
const c = cases(w);
const a = api(w);

const restrictedCase = async (title: string) =>
  (
    await c.create(
      { title, description: `${title}: what only participants may read.`, visibility: 'Restricted', assignee: person('admin@example.com') },
      w.owner,
    )
  ).body;

const descriptions = (body: { events: { description: string }[] }) => body.events.map((e) => e.description);

describe('escalating a Restricted case', () => {
  it('through its status makes a Restricted incident the Member may not see or find', async () => {
    const secret = await restrictedCase('Quartzite exfiltration');
    const res = await c.update(secret.id, { title: secret.title, description: secret.description, status: 'Escalated' }, w.owner);
    expect(res.status).toBe(200);
    const [incident] = res.body.incidents;
    const read = await a.get(incident.id, w.owner);
    expect(read.body.visibility).toBe('Restricted');
    expect((await a.get(incident.id, w.member)).status).toBe(404);
    const found = await a.list({ q: 'Quartzite' }, w.member);
    expect(found.body.total).toBe(0);
  });

  it('through escalate is Restricted unless the body chooses; an Open one does not name the case', async () => {
    const kept = await restrictedCase('Basalt intrusion');
    const res = await c.escalate(kept.id, {}, w.owner);
    expect(res.status).toBe(200);
    expect(res.body.visibility).toBe('Restricted');
    expect((await a.get(res.body.id, w.member)).status).toBe(404);

    const chosen = await restrictedCase('Granite intrusion');
    const open = await c.escalate(chosen.id, { title: 'A public incident', description: 'Told in our own words.', visibility: 'Open' }, w.owner);
    expect(open.status).toBe(200);
    const seen = await a.get(open.body.id, w.member);
    expect(seen.status).toBe(200);
    expect(seen.body.visibility).toBe('Open');
    const text = JSON.stringify(seen.body);
    expect(text).not.toContain(`case ${chosen.name}`);
    expect(text).not.toContain('Granite');
    expect(descriptions(seen.body)).toContain('Incident created from a restricted case');
  });
});

describe('links to Restricted incidents', () => {
  it('are counted, not named, on the timeline, and stay when a list without them is sent back', async () => {
    const open = (await a.create({ title: 'Open one' }, w.owner)).body;
    const hidden = (await a.create({ title: 'Hidden one', visibility: 'Restricted' }, w.owner)).body;
    const set = await a.edit(open.id, { duplicates: [{ id: hidden.id }] }, w.owner);
    expect(set.status).toBe(200);
    const seen = await a.get(open.id, w.member);
    expect(seen.status).toBe(200);
    expect(JSON.stringify(seen.body)).not.toContain(hidden.name);
    expect(descriptions(seen.body)).toContain('Incident duplicates changed from none to 1 restricted incident');
    expect(seen.body.duplicates).toEqual([]);
    // An Admin who sees it keeps it; the hidden link survives a replace by someone who does not see it.
    const commander = (await a.create({ title: 'Commanded by the Member', commander: person('member@example.com') }, w.owner)).body;
    await a.edit(commander.id, { duplicates: [{ id: hidden.id }] }, w.owner);
    const mine = (await a.get(commander.id, w.member)).body;
    expect((await a.update(commander.id, { ...mine, duplicates: [] }, w.member)).status).toBe(200);
    expect((await a.get(commander.id, w.owner)).body.duplicates.map((d: { id: number }) => d.id)).toEqual([hidden.id]);
  });
});

describe('a person who comes back', () => {
  it('to a closed case gets back the roles they held, and the timeline says so', async () => {
    const made = (await c.create({ assignee: person('ann@example.com'), reporter: person('bob@example.com') }, w.owner)).body;
    expect((await c.update(made.id, { title: made.title, description: made.description, status: 'Closed' }, w.owner)).status).toBe(200);
    // Bob, removed when it closed, is named assignee: he comes back as Reporter and takes the new role.
    const res = await c.update(made.id, { title: made.title, description: made.description, assignee: person('bob@example.com') }, w.owner);
    expect(res.status).toBe(200);
    const bob = res.body.participants.find((p: { individual: { email: string } }) => p.individual.email === 'bob@example.com');
    const held = bob.participant_roles.filter((r: { renounced_at: string | null }) => !r.renounced_at).map((r: { role: string }) => r.role);
    expect(held.sort()).toEqual(['Assignee', 'Reporter']);
    const events = descriptions(res.body);
    expect(events).toContain('Bob has been reactivated');
    expect(events).toContain('Bob has assumed the Assignee role');
  });

  it('to an incident is treated the same way', async () => {
    const made = (await a.create({ reporter: person('cy@example.com'), commander: person('owner@example.com') }, w.owner)).body;
    expect((await a.edit(made.id, { status: 'Closed' }, w.owner)).status).toBe(200);
    const res = await call(w.t.app, 'POST', `/default/incidents/${made.id}/join`, { token: w.owner });
    expect(res.status).toBe(200);
    const read = (await a.get(made.id, w.owner)).body;
    expect(descriptions(read)).toContain('Owner has been reactivated');
  });
});
