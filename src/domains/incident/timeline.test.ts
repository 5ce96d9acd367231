import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, problems, roles, useWorld } from '../../../test/worlds/incidents.ts';

const w = useWorld();
const a = api(w);

const custom = (res: { body: { events: { type: string }[] } }) => res.body.events.filter((e) => e.type === 'Custom event');

describe('incident timeline: custom events and people added by email', () => {
  it('adds, corrects and removes a custom event; the events Muster wrote stay as they are', async () => {
    const i = (await a.create({})).body;
    const added = await a.post(i.id, 'event', w.member, { description: 'Paged the database team', started_at: '2024-05-01T10:00:00Z' });
    expect(added.status).toBe(200);
    const [entry] = custom(await a.get(i.id)) as any[];
    expect(entry).toMatchObject({ description: 'Paged the database team', owner: 'member@example.com', source: 'Incident Participant' });
    expect(Date.parse(entry.started_at)).toBe(Date.parse('2024-05-01T10:00:00Z'));

    const path = `/default/incidents/${i.id}/event`;
    const fixed = await call(w.t.app, 'PATCH', path, { token: w.member, body: { uuid: entry.uuid, description: 'Paged the DB team' } });
    expect(fixed.status).toBe(200);
    const [after] = custom(await a.get(i.id)) as any[];
    expect(after).toMatchObject({
      uuid: entry.uuid,
      description: 'Paged the DB team',
      details: { created_by: 'member@example.com', updated_by: 'member@example.com' },
    });

    const written = (await a.get(i.id)).body.events.find((e: any) => e.type !== 'Custom event');
    expect((await call(w.t.app, 'DELETE', `${path}/${written.uuid}`, { token: w.owner })).status).toBe(404);
    expect((await call(w.t.app, 'PATCH', path, { token: w.owner, body: { uuid: written.uuid, description: 'x' } })).status).toBe(404);

    expect((await call(w.t.app, 'DELETE', `${path}/${entry.uuid}`, { token: w.member })).status).toBe(200);
    expect(custom(await a.get(i.id))).toEqual([]);
  });

  it('names the caller as author and editor, whatever the body says', async () => {
    const i = (await a.create({})).body;
    const forged = { created_by: 'ceo@example.com', updated_by: 'ceo@example.com', updated_on: '2020-01-01T00:00:00Z', ticket: 'T-1' };
    expect((await a.post(i.id, 'event', w.member, { description: 'Rolled back', details: forged })).status).toBe(200);
    const [entry] = custom(await a.get(i.id)) as any[];
    expect(entry.details).toEqual({ created_by: 'member@example.com', ticket: 'T-1' });
    const path = `/default/incidents/${i.id}/event`;
    const patch = await call(w.t.app, 'PATCH', path, { token: w.member, body: { uuid: entry.uuid, description: 'Rolled back v2', details: forged } });
    expect(patch.status).toBe(200);
    const [after] = custom(await a.get(i.id)) as any[];
    expect(after.details).toMatchObject({ created_by: 'member@example.com', updated_by: 'member@example.com', ticket: 'T-1' });
    expect(after.details.updated_on).not.toBe(forged.updated_on);
  });

  it('checks bodies, and refuses people who may not edit the incident', async () => {
    const i = (await a.create({}, w.owner)).body;
    expect(problems(await a.post(i.id, 'event', w.owner, {}))).toEqual(['body.description:value_error.missing']);
    expect((await a.post(i.id, 'event', w.member, { description: 'not mine' })).status).toBe(403);
    expect((await a.post(i.id, 'participants', w.member, { email: 'x@corp.example' })).status).toBe(403);
    expect((await call(w.t.app, 'DELETE', `/default/incidents/${i.id}/event/not-a-uuid`, { token: w.owner })).status).toBe(422);
  });

  it('adds a person by email with a role', async () => {
    const i = (await a.create({})).body;
    expect((await a.post(i.id, 'participants', w.member, { email: 'helper@corp.example' })).status).toBe(200);
    expect((await a.post(i.id, 'participants', w.member, { email: 'scribe@corp.example', role: 'Scribe' })).status).toBe(200);
    expect(problems(await a.post(i.id, 'participants', w.member, { email: 'x@corp.example', role: 'Incident Commander' }))).toEqual([
      'body.role:type_error.enum',
    ]);
    const people = roles(await a.get(i.id));
    expect(people['helper@corp.example']).toEqual(['Participant']);
    expect(people['scribe@corp.example']).toEqual(['Scribe']);
  });

  it('takes a person off: their roles end, they stay listed and the timeline says so; never the commander', async () => {
    const i = (await a.create({})).body;
    await a.post(i.id, 'participants', w.member, { email: 'scribe@corp.example', role: 'Scribe' });
    const read = (await a.get(i.id)).body;
    const id = (email: string) => read.participants.find((p: any) => p.individual.email === email).id;
    const remove = (participant: number, token = w.member) => call(w.t.app, 'DELETE', `/default/incidents/${i.id}/participants/${participant}`, { token });
    expect((await remove(id('scribe@corp.example'))).status).toBe(200);
    const after = await a.get(i.id);
    expect(roles(after)['scribe@corp.example']).toEqual(['Scribe (renounced)']);
    expect(after.body.events.map((e: any) => e.description)).toContainEqual(expect.stringMatching(/removed from incident$/));
    const commander = read.commander.id;
    expect((await remove(commander)).status).toBe(409);
    expect(roles(await a.get(i.id))[read.commander.individual.email]).toContain('Incident Commander');
    expect((await remove(999_999)).status).toBe(404);
  });
});
