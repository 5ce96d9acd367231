// The web UI's case page and cases table (reference/dispatch-ui.md): the case's reporter, its
// participants for the pickers (`?minimal=true`), and the project chip of each row.
import { describe, expect, it } from 'vitest';
import { call } from '../helpers.ts';
import { cases, person, useWorld } from '../worlds/cases.ts';
import { tableQuery } from './queries.ts';

const w = useWorld();
const participants = (id: number, token = w.member, query: Record<string, any> = { minimal: true }) =>
  call(w.t.app, 'GET', `/default/cases/${id}/participants`, { token, query });

describe('the case page', () => {
  it('reads the reporter, the participant who reported the case, as the incident read has its reporter', async () => {
    const c = cases(w);
    const made = await c.create({ assignee: person('analyst@corp.example'), reporter: person('witness@corp.example') });
    expect(made.body.reporter).toMatchObject({
      individual: { email: 'witness@corp.example' },
      participant_roles: [expect.objectContaining({ role: 'Reporter' })],
    });
    const read = await c.get(made.body.id);
    expect(read.body.reporter.individual.email).toBe('witness@corp.example');
    expect(read.body.reporter.id).toEqual(expect.any(Number));
    // Defaulted to the caller, as the UI's form sends none.
    const mine = await c.create({});
    expect(mine.body.reporter.individual.email).toBe('member@example.com');
    // Sending the read object back leaves the reporter as it was.
    const edited = await c.edit(made.body.id, { title: 'Renamed' });
    expect(edited.status).toBe(200);
    expect(edited.body.reporter.individual.email).toBe('witness@corp.example');
  });

  it("links the receipt's Ticket: the case's ticket from the project's ticket plugin (enabled in a new project)", async () => {
    const made = await cases(w).create({});
    expect(made.body.ticket).toMatchObject({ resource_type: expect.any(String), weblink: expect.stringContaining(`/cases/${made.body.name}`) });
    expect((await cases(w).get(made.body.id)).body.ticket).toEqual(made.body.ticket);
    // The receipt's link is found by its text: "Ticket" and the description Dispatch's reads give a ticket.
    expect(made.body.ticket.description).toBe('Ticket for tracking purposes. It contains information and links to resources.');
  });

  it('lists the participants for the pickers (?minimal=true), minimal and in full, as current Dispatch answers', async () => {
    const c = cases(w);
    const made = (await c.create({ assignee: person('analyst@corp.example'), reporter: person('witness@corp.example') })).body;
    const minimal = await participants(made.id);
    expect(minimal.status).toBe(200);
    expect(minimal.body.map((p: any) => p.individual.email)).toEqual(['analyst@corp.example', 'witness@corp.example']);
    expect(minimal.body[0]).toMatchObject({ id: expect.any(Number), participant_roles: [expect.objectContaining({ role: 'Assignee' })] });
    expect(minimal.body[0].individual).not.toHaveProperty('filters');
    const full = await participants(made.id, w.member, {});
    expect(full.body.map((p: any) => p.individual.email)).toEqual(['analyst@corp.example', 'witness@corp.example']);
    expect(full.body[0].individual.filters).toEqual([]);
    expect((await participants(made.id, w.member, { minimal: 'maybe' })).status).toBe(422);
    expect((await participants(424242)).status).toBe(404);
  });

  it("shows a Restricted case's participants only to those who may see the case", async () => {
    const c = cases(w);
    const hidden = (await c.create({ visibility: 'Restricted', assignee: person('analyst@corp.example') }, w.owner)).body;
    const refused = await participants(hidden.id, w.member);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ detail: [{ msg: expect.any(String) }] });
    expect((await participants(hidden.id, w.admin)).body.map((p: any) => p.individual.email)).toEqual(['analyst@corp.example', 'owner@example.com']);
    expect((await call(w.t.app, 'GET', `/elsewhere/cases/${hidden.id}/participants`, { token: w.owner, query: { minimal: true } })).status).toBe(404);
    const mine = (await c.create({ visibility: 'Restricted', assignee: person('member@example.com') }, w.owner)).body;
    expect((await participants(mine.id, w.member)).status).toBe(200);
  });
});

describe("the case page's assignee and reporter pickers", () => {
  it('find a person by the name shown, and set them as assignee or reporter by sending the case back', async () => {
    const c = cases(w);
    const made = (await c.create({ assignee: person('analyst@corp.example'), reporter: person('witness@corp.example') })).body;
    await c.create({ assignee: person('helper@corp.example') });
    // The pickers list everyone, then look the chosen name up as a list of one `and`.
    const everyone = await call(w.t.app, 'GET', '/default/individuals', { token: w.member, query: { itemsPerPage: -1 } });
    expect(everyone.status).toBe(200);
    const helper = everyone.body.items.find((i: any) => i.email === 'helper@corp.example');
    expect(helper.name).toEqual(expect.any(String));
    const byName = await call(w.t.app, 'GET', '/default/individuals', {
      token: w.member,
      query: { filter: JSON.stringify([{ and: [{ model: 'IndividualContact', field: 'name', op: '==', value: helper.name }] }]) },
    });
    expect(byName.status).toBe(200);
    expect(byName.body.items.map((i: any) => i.email)).toEqual(['helper@corp.example']);
    const read = (await c.get(made.id)).body;
    expect(read.assignee.individual.name).toEqual(expect.any(String));
    expect(read.reporter.individual.name).toEqual(expect.any(String));
    for (const role of ['assignee', 'reporter'] as const) {
      const current = (await c.get(made.id)).body;
      current[role].individual = byName.body.items[0];
      const saved = await call(w.t.app, 'PUT', `/default/cases/${made.id}`, { token: w.owner, body: current });
      expect(saved.status).toBe(200);
      expect(saved.body[role].individual.email).toBe('helper@corp.example');
    }
  });
});

// participant/ParticipantSearchPopover.vue (the case page's Assignee and Reporter, CaseAttributesDrawer.vue):
// fetchParticipants() lists people whose name holds what is typed (`ilike "%...%"`, 10 of them), reading
// each one's `name` and `email`; the person chosen is then looked up by name (`==`). Before the case has
// loaded, `participant` is empty and the popover looks its own placeholder up: an empty page, as on
// Dispatch, which the UI logs as "No individual found with name Select assignee".
describe("the case page's people popover", () => {
  const individuals = (op: string, value: string, extra: Record<string, unknown> = {}) =>
    call(w.t.app, 'GET', '/default/individuals', {
      token: w.member,
      query: { filter: JSON.stringify([{ and: [{ model: 'IndividualContact', field: 'name', op, value }] }]), ...extra },
    });

  it('lists people by what is typed in their name, ten at most, then finds the one chosen', async () => {
    const c = cases(w);
    await c.create({ assignee: person('analyst@corp.example'), reporter: person('witness@corp.example') });
    const all = await individuals('ilike', '%%', { itemsPerPage: 10 });
    expect(all.status).toBe(200);
    expect(all.body.items.length).toBeGreaterThanOrEqual(2);
    expect(all.body.items.length).toBeLessThanOrEqual(10);
    for (const i of all.body.items) expect(i).toMatchObject({ name: expect.any(String), email: expect.any(String) });
    const analyst = all.body.items.find((i: any) => i.email === 'analyst@corp.example');
    // Typed in any case, a part of the name finds them.
    const typed = await individuals('ilike', `%${analyst.name.slice(1, 4).toUpperCase()}%`, { itemsPerPage: 10 });
    expect(typed.body.items.map((i: any) => i.email)).toContain('analyst@corp.example');
    expect(typed.body.items.map((i: any) => i.email)).not.toContain('witness@corp.example');
    const chosen = await individuals('==', analyst.name);
    expect(chosen.body.items[0].email).toBe('analyst@corp.example');
    const placeholder = await individuals('==', 'Select assignee');
    expect(placeholder.status).toBe(200);
    expect(placeholder.body.items).toEqual([]);
  });
});

describe('the cases table', () => {
  it("reads each row's project display name, as the UI's query asks", async () => {
    await cases(w).create({});
    const res = await call(w.t.app, 'GET', '/default/cases', {
      token: w.member,
      query: tableQuery({ field: 'name', value: 'default' }),
    });
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const item of res.body.items) expect(item.project).toMatchObject({ name: 'default', display_name: 'default', allow_self_join: true });
  });

  it("reads each row's case costs, one per cost model, that the Cost column sums", async () => {
    await cases(w).create({});
    const res = await call(w.t.app, 'GET', '/default/cases', { token: w.member, query: tableQuery({ field: 'name', value: 'default' }) });
    expect(res.status).toBe(200);
    for (const item of res.body.items) {
      expect(item.case_costs.map((c: any) => c.case_cost_type.model_type)).toEqual(['Classic', 'New']);
      expect(item.case_costs.map((c: any) => c.amount)).toEqual([item.total_cost_classic, item.total_cost_new]);
      expect(item.case_costs[0]).toMatchObject({ id: item.id, case_cost_type: { name: 'Response Cost', editable: false } });
    }
    const one = await call(w.t.app, 'GET', `/default/cases/${res.body.items[0].id}`, { token: w.member });
    expect(one.body.case_costs).toHaveLength(2);
  });
});
