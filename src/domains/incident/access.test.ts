// Who may see and do what to an incident (IncidentView, IncidentEdit, IncidentJoinOrSubscribe), and
// the operations that depend on it: reports, join, subscribe, delete.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, person, roles, useWorld } from '../../../test/worlds/incidents.ts';

const w = useWorld();
const a = api(w);
let open: any;
let restricted: any;
let commanded: any;
let observed: any;
const notFound = { status: 404, body: { detail: [{ msg: 'An incident with this id does not exist.' }] } };
const forbidden = { status: 403 };

beforeAll(async () => {
  open = (await a.create({ title: 'Open one' }, w.owner)).body;
  restricted = (await a.create({ title: 'Restricted one', visibility: 'Restricted' }, w.owner)).body;
  // Restricted, the Member its commander.
  commanded = (await a.create({ title: 'Member commands', visibility: 'Restricted', commander: person('member@example.com') }, w.owner)).body;
  // Restricted, the Member a participant without a role any more (a reporter replaced).
  observed = (
    await a.create(
      { title: 'Member watched', visibility: 'Restricted', reporter: person('member@example.com'), commander: person('owner@example.com') },
      w.owner,
    )
  ).body;
  await a.edit(observed.id, { reporter: person('owner@example.com') });
});

const ids = (res: any) => res.body.items.map((i: any) => i.id).sort((x: number, y: number) => x - y);
const body = (i: any) => ({
  title: i.title,
  description: i.description,
  incident_type: { name: 'Default' },
  incident_priority: { name: 'Low' },
  incident_severity: { name: 'Undetermined' },
});
const report = { current_status: 'Contained', overview: 'All good', next_steps: 'Review' };

describe('seeing incidents', () => {
  it('Open incidents are seen by every member; Restricted ones by Admins and above and participants', async () => {
    expect((await a.get(open.id)).status).toBe(200);
    expect(await a.get(restricted.id)).toMatchObject(notFound);
    expect((await a.get(commanded.id)).status).toBe(200);
    expect((await a.get(observed.id)).status).toBe(200);
    for (const token of [w.admin, w.owner]) expect((await a.get(restricted.id, token)).status).toBe(200);
  });

  it('lists and counts only what the caller may see', async () => {
    const mine = await a.list();
    expect(ids(mine)).toEqual([open.id, commanded.id, observed.id].sort((x, y) => x - y));
    expect(mine.body.total).toBe(3);
    const all = await a.list({}, w.admin);
    expect(all.body.total).toBe(4);
    // Through a filter on the visibility itself: still nothing hidden.
    const filtered = await a.list({ filter: JSON.stringify([{ field: 'visibility', op: '==', value: 'Restricted' }]) });
    expect(ids(filtered)).toEqual([commanded.id, observed.id].sort((x, y) => x - y));
    const paged = await a.list({ itemsPerPage: 1, page: 3 });
    expect(paged.body).toMatchObject({ total: 3, itemsPerPage: 1, page: 3 });
  });

  it("a missing incident, another organization's and a hidden one all answer 404", async () => {
    const theirs = await call(w.t.app, 'POST', '/elsewhere/incidents', { token: w.owner, body: { title: 'Theirs', description: 'd' } });
    expect(theirs.status).toBe(200);
    for (const id of [999999, 0, theirs.body.id]) {
      for (const token of [w.member, w.owner]) {
        expect(await a.get(id, token)).toMatchObject(notFound);
        expect(await a.update(id, body(open), token)).toMatchObject(notFound);
        expect(await a.remove(id, token)).toMatchObject(notFound);
        expect(await a.post(id, 'join', token)).toMatchObject(notFound);
      }
    }
    for (const action of ['join', 'subscribe', 'report/executive']) expect(await a.post(restricted.id, action, w.member, report)).toMatchObject(notFound);
    expect(await a.update(restricted.id, body(restricted))).toMatchObject(notFound);
    expect(await a.remove(restricted.id, w.member)).toMatchObject(notFound);
  });

  it('hides restricted duplicates inside incidents the caller sees', async () => {
    const host = (await a.create({ title: 'Host' }, w.owner)).body;
    await a.edit(host.id, { duplicates: [{ id: restricted.id }, { id: open.id }] });
    expect((await a.get(host.id)).body.duplicates.map((d: any) => d.id)).toEqual([open.id]);
    expect((await a.get(host.id, w.admin)).body.duplicates.map((d: any) => d.id)).toEqual([open.id, restricted.id].sort((x, y) => x - y));
    const listed = (await a.list({ filter: JSON.stringify([{ field: 'id', op: '==', value: host.id }]) })).body.items[0];
    expect(listed.duplicates.map((d: any) => d.id)).toEqual([open.id]);
    // A Member may not name an incident they cannot see as a duplicate.
    const sneaky = (await a.create({ title: 'Sneaky' })).body;
    const res = await a.edit(sneaky.id, { duplicates: [{ id: restricted.id }] }, w.member);
    expect(res.body.detail[0]).toMatchObject({ loc: ['duplicates', 0], msg: 'Incident not found.' });
  });
});

describe('editing incidents', () => {
  it('is for Admins and above, the commander and the reporter', async () => {
    expect(await a.update(open.id, body(open))).toMatchObject(forbidden);
    expect((await a.update(open.id, { ...body(open), title: 'By admin' }, w.admin)).body.title).toBe('By admin');
    expect((await a.update(commanded.id, { ...body(commanded), title: 'By its commander' })).body.title).toBe('By its commander');
    // A participant who is neither commander nor reporter sees it but may not edit it.
    expect(await a.update(observed.id, body(observed))).toMatchObject(forbidden);
    const mine = (await a.create({ title: 'Reported by the member' })).body;
    await a.edit(mine.id, { commander: person('someone@corp.example') });
    expect((await a.update(mine.id, { ...body(mine), title: 'By its reporter' })).status).toBe(200);
  });

  it('checks the permission before the body, as Dispatch does', async () => {
    expect(await a.update(open.id, { title: 42 })).toMatchObject(forbidden);
    expect(await a.update(restricted.id, { title: 42 })).toMatchObject(notFound);
    expect(await a.post(open.id, 'report/tactical', w.member, { conditions: 1 })).toMatchObject(forbidden);
    expect((await a.update(open.id, { title: 42 }, w.admin)).status).toBe(422);
  });
});

describe('reports', () => {
  it('are stored by the caller, who becomes a participant; the newest of each type is the last', async () => {
    const i = (await a.create({ title: 'Reported' }, w.owner)).body;
    const first = await a.post(i.id, 'report/executive', w.admin, report);
    expect(first).toMatchObject({ status: 200, body: null });
    await a.post(i.id, 'report/executive', w.admin, { ...report, overview: 'Second' });
    await a.post(i.id, 'report/tactical', w.owner, { conditions: 'Calm', actions: 'Watch', needs: 'Coffee' });
    const got = (await a.get(i.id, w.owner)).body;
    expect(got.last_executive_report).toMatchObject({ type: 'Executive Report', details: { ...report, overview: 'Second' } });
    expect(got.last_tactical_report).toMatchObject({ type: 'Tactical Report', details: { conditions: 'Calm', actions: 'Watch', needs: 'Coffee' } });
    expect(typeof got.last_executive_report.created_at).toBe('string');
    // A participant removed when the incident closed still writes as themselves, and stays removed.
    await a.edit(i.id, { status: 'Closed' });
    await a.post(i.id, 'report/tactical', w.owner, { conditions: 'Over', actions: 'None', needs: 'Nothing' });
    const closed = (await a.get(i.id, w.owner)).body;
    expect(closed.last_tactical_report.details.conditions).toBe('Over');
    expect(roles({ body: closed } as never)['owner@example.com']).toEqual(['Reporter (renounced)', 'Incident Commander (renounced)']);
    expect(roles({ body: got } as never)['admin@example.com']).toEqual(['Participant']);
    expect(got.participants.find((p: any) => p.individual.email === 'admin@example.com').added_reason).toBe('Wrote an executive report');
    expect(got.events.filter((e: any) => e.description.includes('report created')).map((e: any) => e.description)).toEqual([
      'Incident executive report created',
      'Incident executive report created',
      'Incident tactical report created',
    ]);
  });

  it('validate their three fields', async () => {
    const res = await a.post(open.id, 'report/tactical', w.owner, { conditions: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => d.loc.join('.')).sort()).toEqual(['body.actions', 'body.needs']);
  });
});

describe('join and subscribe', () => {
  it('join makes the caller an Observer, once; on a closed incident they come back', async () => {
    const i = (await a.create({ title: 'Join me' }, w.owner)).body;
    expect(await a.post(i.id, 'join')).toMatchObject({ status: 200, body: null });
    await a.post(i.id, 'join');
    const got = await a.get(i.id);
    // One more participant: half an hour more of review in the response cost, at once.
    expect(got.body.total_cost).toBeGreaterThan(i.total_cost);
    expect(roles(got)['member@example.com']).toEqual(['Observer']);
    expect(got.body.participants.find((p: any) => p.individual.email === 'member@example.com').added_reason).toBe('Joined the incident');
    await a.edit(i.id, { status: 'Closed' });
    await a.post(i.id, 'join');
    expect(roles(await a.get(i.id))['member@example.com']).toEqual(['Observer (renounced)', 'Observer']);
    // Someone removed on close comes back with their roles, and no Observer role besides.
    await a.post(i.id, 'join', w.owner);
    expect(roles(await a.get(i.id))['owner@example.com']).toEqual(['Reporter (renounced)', 'Incident Commander (renounced)', 'Reporter', 'Incident Commander']);
  });

  it('a Restricted incident is joined and subscribed to by Admins and above only', async () => {
    expect(await a.post(commanded.id, 'join')).toMatchObject(forbidden);
    expect(await a.post(commanded.id, 'subscribe')).toMatchObject(forbidden);
    expect((await a.post(restricted.id, 'join', w.admin)).status).toBe(200);
    expect(roles(await a.get(restricted.id, w.admin))['admin@example.com']).toEqual(['Observer']);
  });

  it('subscribe records the subscriber once on the timeline, without making them a participant', async () => {
    const i = (await a.create({ title: 'Subscribe' }, w.owner)).body;
    expect(await a.post(i.id, 'subscribe')).toMatchObject({ status: 200, body: null });
    await a.post(i.id, 'subscribe');
    const got = (await a.get(i.id)).body;
    expect(got.events.filter((e: any) => e.details?.subscriber === 'member@example.com')).toHaveLength(1);
    expect(got.participants.map((p: any) => p.individual.email)).toEqual(['owner@example.com']);
  });
});

describe('delete', () => {
  it('removes the incident and what belongs to it, for Admins and above and its commander or reporter', async () => {
    const i = (await a.create({ title: 'Doomed', tags: [{ name: 'gone', tag_type: { name: 'Fate' } }] }, w.owner)).body;
    const host = (await a.create({ title: 'Keeps a duplicate' }, w.owner)).body;
    await a.edit(host.id, { duplicates: [{ id: i.id }] });
    await a.post(i.id, 'report/tactical', w.owner, { conditions: 'c', actions: 'a', needs: 'n' });
    expect(await a.remove(i.id, w.member)).toMatchObject(forbidden);
    expect(await a.remove(i.id, w.admin)).toMatchObject({ status: 200, body: null });
    expect(await a.get(i.id, w.owner)).toMatchObject(notFound);
    expect((await a.get(host.id, w.owner)).body.duplicates).toEqual([]);
    // Its tags stay: they are the project's.
    const tags = await call(w.t.app, 'GET', '/default/tags', { token: w.member, query: { itemsPerPage: -1 } });
    expect(tags.body.items.map((t: any) => t.name)).toContain('gone');
    const mine = (await a.create({ title: 'Mine to delete' })).body;
    expect((await a.remove(mine.id, w.member)).status).toBe(200);
  });
});
