// An incident's commander and reporter, a case's assignee and reporter: taken from the record's
// participants when they are there (crud/reader.ts, RefField.among), read by a statement of their own
// when they are not. Either way the object is the one a read of that participant gives.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, createWorld, person, type World } from '../../../test/worlds/incidents.ts';

let w: World;
let a: ReturnType<typeof api>;

beforeAll(async () => {
  w = await createWorld();
  a = api(w);
});
afterAll(() => w.t.close());

describe('references among the participants', () => {
  it("an incident's commander and reporter are its participants' objects", async () => {
    const created = (await a.create({ reporter: person('jane.doe@corp.example'), commander: person('ops.lead@corp.example') })).body;
    const read = (await a.get(created.id, w.owner)).body;
    const byId = new Map(read.participants.map((p: any) => [p.id, p]));
    expect(read.commander.individual.email).toBe('ops.lead@corp.example');
    expect(read.commander).toEqual(byId.get(read.commander.id));
    expect(read.reporter).toEqual(byId.get(read.reporter.id));
  });

  it('one that is not among them is read all the same', async () => {
    const other = (await a.create({ commander: person('elsewhere.lead@corp.example') })).body;
    const incident = (await a.create({})).body;
    // A commander who is no participant of the incident: only a direct write makes one.
    await w.t.app.muster.db.execute(sql`UPDATE incident SET commander_id = ${other.commander.id} WHERE id = ${incident.id}`);
    const read = (await a.get(incident.id, w.owner)).body;
    expect(read.participants.map((p: any) => p.id)).not.toContain(other.commander.id);
    expect(read.commander).toEqual((await a.get(other.id, w.owner)).body.commander);
    expect(read.reporter).toEqual(read.participants.find((p: any) => p.id === read.reporter.id));
  });

  it("a case's assignee and reporter, among its participants or not", async () => {
    const c = (
      await call(w.t.app, 'POST', '/default/cases', {
        token: w.owner,
        body: { title: 'A case', description: 'd', assignee: person('analyst@corp.example'), reporter: person('reporter@corp.example') },
      })
    ).body;
    const read = (await call(w.t.app, 'GET', `/default/cases/${c.id}`, { token: w.owner })).body;
    expect(read.assignee.individual.email).toBe('analyst@corp.example');
    expect(read.assignee).toEqual(read.participants.find((p: any) => p.id === read.assignee.id));
    expect(read.reporter).toEqual(read.participants.find((p: any) => p.id === read.reporter.id));
    const incident = (await a.create({ commander: person('incident.lead@corp.example') })).body;
    await w.t.app.muster.db.execute(sql`UPDATE "case" SET assignee_id = ${incident.commander.id} WHERE id = ${c.id}`);
    const moved = (await call(w.t.app, 'GET', `/default/cases/${c.id}`, { token: w.owner })).body;
    expect(moved.assignee).toEqual((await a.get(incident.id, w.owner)).body.commander);
  });
});
