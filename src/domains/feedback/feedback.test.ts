import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let owner: string;
let member: string;
let open: { id: number; name: string; participants: { id: number; individual: { email: string } }[] };
let restricted: { id: number; participants: { id: number }[] };
let elsewhere: { id: number; name: string };

const url = '/default/feedback';
const person = (email: string) => ({ individual: { email } });

async function incident(body: Record<string, unknown>) {
  const res = await call(t.app, 'POST', '/default/incidents', {
    token: owner,
    body: { title: 'Outage', description: 'Down.', project: { name: 'default' }, ...body },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}
const create = (body: Record<string, unknown>, token = owner) => call(t.app, 'POST', url, { token, body: { incident: { id: open.id }, ...body } });
const list = (query: Record<string, string | number>, token = owner) => call(t.app, 'GET', url, { token, query: { itemsPerPage: -1, ...query } });

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  open = await incident({ commander: person('cmdr@example.com') });
  restricted = await incident({ title: 'Secret', visibility: 'Restricted' });
  const second = await call(t.app, 'POST', '/default/projects', { token: owner, body: { name: 'Second', organization: { name: 'default' } } });
  if (second.status !== 200) throw new Error(JSON.stringify(second.body));
  elsewhere = await incident({ title: 'In another project', project: { name: 'Second' } });
});
afterAll(() => t.close());

describe('feedback', () => {
  it("creates with the default rating, in the incident's project, the incident minimal", async () => {
    const res = await create({ feedback: 'Well run.', created_at: '2000-01-01T00:00:00Z' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      rating: 'Very satisfied',
      feedback: 'Well run.',
      // The Owner reported the incident: their feedback is theirs.
      participant: { individual: { email: 'owner@example.com' } },
      project: { name: 'default' },
      incident: { id: open.id, name: open.name, title: 'Outage', incident_priority: { name: 'Low' } },
    });
    expect(res.body.created_at.startsWith('2000')).toBe(false);
    expect(res.body.incident).not.toHaveProperty('participants');
    expect((await call(t.app, 'GET', `${url}/${res.body.id}`, { token: member })).body).toEqual(res.body);
    const other = await create({ incident: { id: elsewhere.id }, rating: 'Somewhat dissatisfied' });
    expect(other.body).toMatchObject({ rating: 'Somewhat dissatisfied', project: { name: 'Second' }, incident: { id: elsewhere.id } });
  });

  it("is given in the caller's own name: their participant, or none; another's is refused", async () => {
    const participantOf = (email: string) => open.participants.find((p) => p.individual.email === email)!.id;
    const mine = participantOf('owner@example.com');
    const res = await create({ participant: { id: mine }, rating: 'Somewhat satisfied' });
    expect(res.body.participant).toMatchObject({ id: mine, individual: { email: 'owner@example.com' }, participant_roles: expect.any(Array) });
    const before = (await list({})).body.total;
    // A Member who takes no part, naming the commander: refused, nothing stored.
    const impersonated = await create({ participant: { id: participantOf('cmdr@example.com') }, feedback: 'Great job, me.' }, member);
    expect(impersonated.status).toBe(403);
    expect((await create({ participant: { id: participantOf('cmdr@example.com') } })).status).toBe(403);
    expect((await list({})).body.total).toBe(before);
    const theirs = await create({ feedback: 'From the side lines.' }, member);
    expect(theirs.status).toBe(200);
    expect(theirs.body.participant).toBeNull();
    const foreign = await create({ participant: { id: restricted.participants[0].id } });
    expect(foreign.body.detail).toEqual([
      { loc: ['participant'], msg: 'Participant not found.', type: 'value_error.not_found', ctx: { msg: 'Participant not found.' } },
    ]);
  });

  it('requires an incident the caller may see, and a rating of the enum', async () => {
    const missing = await call(t.app, 'POST', url, { token: owner, body: { feedback: 'About nothing' } });
    expect(missing.body.detail).toEqual([{ loc: ['incident'], msg: 'field required', type: 'value_error.missing', ctx: { msg: 'field required' } }]);
    expect((await create({ incident: { id: 999999 } })).body.detail[0]).toMatchObject({ loc: ['incident'], msg: 'Incident not found.' });
    expect((await create({ incident: { id: restricted.id } }, member)).body.detail[0]).toMatchObject({ loc: ['incident'], msg: 'Incident not found.' });
    expect((await create({ rating: 'Thrilled' })).body.detail[0]).toMatchObject({ loc: ['body', 'rating'], type: 'type_error.enum' });
  });

  it('updates rating and comment only: omitted fields, the incident and the participant stay', async () => {
    const res = (await create({ feedback: 'Slow start.', rating: 'Neither satisfied nor dissatisfied' })).body;
    const upd = await call(t.app, 'PUT', `${url}/${res.id}`, {
      token: member,
      body: { feedback: 'Slow start, good end.', incident: { id: elsewhere.id }, participant: { id: open.participants[0].id } },
    });
    expect(upd.body).toEqual({ ...res, feedback: 'Slow start, good end.' });
    const rated = await call(t.app, 'PUT', `${url}/${res.id}`, { token: member, body: { rating: 'Very dissatisfied' } });
    expect(rated.body).toMatchObject({ rating: 'Very dissatisfied', feedback: 'Slow start, good end.' });
  });

  it('hides feedback on restricted incidents from those who may not see them', async () => {
    const secret = (await create({ incident: { id: restricted.id }, feedback: 'Hush.' })).body;
    expect((await call(t.app, 'GET', `${url}/${secret.id}`, { token: member })).status).toBe(404);
    expect((await call(t.app, 'PUT', `${url}/${secret.id}`, { token: member, body: { rating: 'Very dissatisfied' } })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `${url}/${secret.id}`, { token: member })).status).toBe(404);
    const theirs = (await list({}, member)).body;
    expect(theirs.items.map((i: { id: number }) => i.id)).not.toContain(secret.id);
    const all = (await list({})).body;
    expect(all.items.map((i: { id: number }) => i.id)).toContain(secret.id);
    expect(theirs.total).toBe(all.total - 1);
  });

  it('lists with filters through the incident and the project, q over the comment, and sorting', async () => {
    const byIncident = await list({ filter: JSON.stringify([{ model: 'Incident', field: 'name', op: '==', value: elsewhere.name }]) });
    expect(byIncident.body.items.map((i: { incident: { id: number } }) => i.incident.id)).toEqual([elsewhere.id]);
    const byProject = await list({ filter: JSON.stringify([{ model: 'Project', field: 'name', op: '==', value: 'Second' }]) });
    expect(byProject.body.total).toBe(1);
    const byRating = await list({ filter: JSON.stringify([{ field: 'rating', op: '==', value: 'Somewhat satisfied' }]) });
    expect(byRating.body.items.map((i: { rating: string }) => i.rating)).toEqual(['Somewhat satisfied']);
    expect((await list({ q: 'run' })).body.items.map((i: { feedback: string }) => i.feedback)).toEqual(['Well run.']);
    const sorted = await list({ 'sortBy[]': 'rating', 'descending[]': 'false' } as never);
    const ratings = sorted.body.items.map((i: { rating: string }) => i.rating);
    expect(ratings).toEqual([...ratings].sort());
  });

  it('deletes with a null body, and keeps other organizations out', async () => {
    const res = (await create({})).body;
    expect(await call(t.app, 'DELETE', `${url}/${res.id}`, { token: member })).toMatchObject({ status: 200, body: null });
    expect(await call(t.app, 'GET', `${url}/${res.id}`, { token: owner })).toMatchObject({
      status: 404,
      body: { detail: [{ msg: 'A feedback entry with this id does not exist.' }] },
    });
    await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Elsewhere' } });
    const theirIncident = (await call(t.app, 'POST', '/elsewhere/incidents', { token: member, body: { title: 'Theirs', description: 'x' } })).body;
    const theirs = await call(t.app, 'POST', '/elsewhere/feedback', { token: member, body: { incident: { id: theirIncident.id } } });
    expect(theirs.status).toBe(200);
    expect((await call(t.app, 'GET', `${url}/${theirs.body.id}`, { token: owner })).status).toBe(404);
    expect((await create({ incident: { id: theirIncident.id } })).body.detail[0]).toMatchObject({ loc: ['incident'], msg: 'Incident not found.' });
  });
});
