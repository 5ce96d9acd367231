import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, useWorld, listQuery, person } from '../../../test/worlds/incidents.ts';

const w = useWorld();
const a = api(w);
let db: any;
let web: any;
let closed: any;
beforeAll(async () => {
  db = (
    await a.create(
      {
        title: 'Database latency',
        description: 'Queries are slow',
        incident_priority: { name: 'High' },
        incident_severity: { name: 'High' },
        tags: [{ name: 'postgres', tag_type: { name: 'Component' } }],
        commander: person('dba@corp.example'),
      },
      w.owner,
    )
  ).body;
  web = (await a.create({ title: 'Website down', description: 'Nothing loads', tags: [{ name: 'nginx', tag_type: { name: 'Edge' } }] }, w.owner)).body;
  closed = (await a.create({ title: 'Old outage', description: 'Long fixed', status: 'Closed' }, w.owner)).body;
});

const titles = (res: any) => res.body.items.map((i: any) => i.title);
const filtered = (filter: unknown, extra: Record<string, unknown> = {}) => a.list({ ...listQuery({ filter }), ...extra });

describe('incident list', () => {
  it('gives minimal items by default and full ones with expand', async () => {
    const res = await a.list();
    expect(res.body).toMatchObject({ total: 3, page: 1, itemsPerPage: 3 });
    const item = res.body.items.find((i: any) => i.id === db.id);
    // The minimal shape: no participants, events or tasks; nested records without their project.
    expect(Object.keys(item).sort()).toEqual([
      'closed_at',
      'commander',
      'commanders_location',
      'created_at',
      'description',
      'duplicates',
      'id',
      'incident_costs',
      'incident_priority',
      'incident_severity',
      'incident_type',
      'name',
      'participants_location',
      'participants_team',
      'project',
      'reported_at',
      'reporter',
      'reporters_location',
      'resolution',
      'stable_at',
      'status',
      'tags',
      'title',
      'total_cost',
      'visibility',
    ]);
    expect(item.incident_priority).not.toHaveProperty('project');
    expect(item.commander.individual).toMatchObject({ email: 'dba@corp.example' });
    expect(item.commander.individual).not.toHaveProperty('filters');
    expect(item.commander.participant_roles.map((r: any) => r.role)).toEqual(['Incident Commander']);
    expect(item.total_cost).toBe(db.total_cost);
    const expanded = await a.list({ expand: true });
    const full = expanded.body.items.find((i: any) => i.id === db.id);
    expect(full).toEqual((await a.get(db.id)).body);
  });

  it('answers include[] paths that name no field of a read object, prototype names included, without an error', async () => {
    for (const path of ['tags[].__proto__', '__proto__', 'constructor.name', 'project.prototype', 'nosuch.field']) {
      const res = await a.list({ 'include[]': ['id', path], ...listQuery({ sort: 'id' }) });
      expect(res.status).toBe(200);
      expect(res.body.items.map((i: any) => i.id)).toEqual([db.id, web.id, closed.id]);
    }
  });

  it('keeps only the include[] fields, nested paths and lists included', async () => {
    const res = await a.list({ 'include[]': ['id', 'title', 'incident_priority.name', 'tags[].name'], ...listQuery({ sort: 'id' }) });
    expect(res.body.items).toEqual([
      { id: db.id, title: 'Database latency', incident_priority: { name: 'High' }, tags: [{ name: 'postgres' }] },
      { id: web.id, title: 'Website down', incident_priority: { name: 'Low' }, tags: [{ name: 'nginx' }] },
      { id: closed.id, title: 'Old outage', incident_priority: { name: 'Low' }, tags: [] },
    ]);
    expect(res.body).toMatchObject({ total: 3, page: 1 });
    const fromFull = await a.list({
      'include[]': ['participants[].individual.email'],
      expand: true,
      ...listQuery({ filter: [{ field: 'id', op: '==', value: db.id }] }),
    });
    expect(fromFull.body.items).toEqual([{ participants: [{ individual: { email: 'owner@example.com' } }, { individual: { email: 'dba@corp.example' } }] }]);
  });

  it("the web UI's table (expand, its fields): the whole items cut, and when a responder last said something", async () => {
    const include = ['name', 'title', 'status', 'commander.individual.email', 'last_update_at'];
    const table = async () => (await a.list({ expand: true, 'include[]': include, ...listQuery({ sort: 'id' }) })).body.items;
    const whole = (await a.list({ expand: true, ...listQuery({ sort: 'id' }) })).body.items;
    // The system's own entries (the incident created, people added) are no one's update.
    expect((await table()).find((i: any) => i.title === 'Database latency')).toEqual({
      name: db.name,
      title: 'Database latency',
      status: 'Active',
      commander: { individual: { email: 'dba@corp.example' } },
      last_update_at: null,
    });
    expect((await table()).map((i: any) => i.title)).toEqual(whole.map((i: any) => i.title));
    const newest = async () => (await table()).find((i: any) => i.title === 'Website down').last_update_at;
    // A report is an update…
    await call(w.t.app, 'POST', `/default/incidents/${web.id}/report/tactical`, {
      token: w.owner,
      body: { conditions: 'Edge nodes restarting', actions: 'Draining', needs: 'None' },
    });
    const reported = (await a.get(web.id)).body.last_tactical_report.created_at;
    expect(await newest()).toBe(reported);
    // …and so is a note written after it.
    const at = new Date(Date.parse(reported) + 60_000).toISOString();
    const note = await call(w.t.app, 'POST', `/default/incidents/${web.id}/event`, { token: w.owner, body: { description: 'Edge back', started_at: at } });
    expect(note.status).toBe(200);
    expect(await newest()).toBe(at);
    // Asked for beside fields the table does not read, it is not there (the whole read has no such field).
    const other = (await a.list({ expand: true, 'include[]': ['title', 'events', 'last_update_at'], ...listQuery({ sort: 'id' }) })).body.items;
    expect(other.every((i: any) => !('last_update_at' in i))).toBe(true);
  });

  it('cut by include[], gives the whole items cut: what a kept field is computed from is read too', async () => {
    const costType = await call(w.t.app, 'POST', '/default/incident_cost_types', { token: w.owner, body: { name: 'Credits', project: { name: 'default' } } });
    const current = (await a.get(web.id, w.owner)).body;
    await a.edit(web.id, {
      duplicates: [{ id: closed.id }],
      incident_costs: [...current.incident_costs, { amount: 250, incident_cost_type: { id: costType.body.id } }],
    });
    // As the web UI's dashboard asks, with a field of the people it leaves out.
    const include = ['title', 'total_cost', 'duplicates', 'project', 'tags', 'incident_priority', 'commander.individual.email'];
    const whole = (await a.list(listQuery({ sort: 'id' }))).body.items;
    const cut = (await a.list({ 'include[]': include, ...listQuery({ sort: 'id' }) })).body.items;
    const keep = (i: any) => ({
      title: i.title,
      total_cost: i.total_cost,
      duplicates: i.duplicates,
      project: i.project,
      tags: i.tags,
      incident_priority: i.incident_priority,
      commander: i.commander && { individual: { email: i.commander.individual.email } },
    });
    expect(cut).toEqual(whole.map(keep));
    const down = cut.find((i: any) => i.title === 'Website down');
    // The response cost of its people, and the 250 added.
    expect(down.total_cost).toBeGreaterThanOrEqual(250);
    expect(down.duplicates).toMatchObject([{ id: closed.id }]);
    expect(cut.find((i: any) => i.title === 'Database latency').commander).toEqual({ individual: { email: 'dba@corp.example' } });
  });

  it('filters through related models', async () => {
    expect(titles(await filtered([{ model: 'IncidentPriority', field: 'name', op: '==', value: 'High' }]))).toEqual(['Database latency']);
    expect(titles(await filtered([{ model: 'IncidentSeverity', field: 'name', op: '==', value: 'High' }]))).toEqual(['Database latency']);
    expect(titles(await filtered([{ model: 'IncidentType', field: 'name', op: '==', value: 'Default' }])).length).toBe(3);
    expect(titles(await filtered([{ model: 'Tag', field: 'name', op: '==', value: 'nginx' }]))).toEqual(['Website down']);
    expect(titles(await filtered([{ model: 'TagType', field: 'name', op: '==', value: 'Component' }]))).toEqual(['Database latency']);
    expect(titles(await filtered([{ model: 'IndividualContact', field: 'email', op: '==', value: 'dba@corp.example' }]))).toEqual(['Database latency']);
    expect(titles(await filtered([{ model: 'Project', field: 'name', op: '==', value: 'default' }])).length).toBe(3);
    expect(titles(await filtered([{ model: 'Incident', field: 'status', op: '!=', value: 'Closed' }])).sort()).toEqual(['Database latency', 'Website down']);
    const both = await filtered({
      and: [
        { model: 'Tag', field: 'name', op: 'in', value: ['nginx', 'postgres'] },
        { field: 'status', op: '==', value: 'Active' },
      ],
    });
    expect(both.body.total).toBe(2);
    const unknown = await filtered([{ model: 'Spaceship', field: 'name', value: 'x' }]);
    expect(unknown.status).toBe(422);
  });

  it('sorts, searches and pages', async () => {
    expect(titles(await a.list(listQuery({ sort: 'title' })))).toEqual(['Database latency', 'Old outage', 'Website down']);
    expect(titles(await a.list(listQuery({ sort: 'incident_priority.view_order', descending: true })))[0]).toBe('Database latency');
    expect(titles(await a.list(listQuery({ q: 'slow' })))).toEqual(['Database latency']);
    expect(titles(await a.list(listQuery({ q: db.name })))).toEqual(['Database latency']);
    const page = await a.list(listQuery({ sort: 'title', itemsPerPage: 2, page: 2 }));
    expect(page.body).toMatchObject({ total: 3, page: 2, itemsPerPage: 2 });
    expect(titles(page)).toEqual(['Website down']);
    const none = await a.list({ itemsPerPage: 0 });
    expect(none.body).toMatchObject({ items: [], total: 3 });
  });

  it('sorts by status_order: Active, then Stable, then Closed, newest first within', async () => {
    const byStatus = { 'sortBy[]': ['status_order', 'reported_at'], 'descending[]': ['false', 'true'], itemsPerPage: 10 };
    expect(titles(await a.list(byStatus))).toEqual(['Website down', 'Database latency', 'Old outage']);
    const stable = (await a.list(byStatus)).body.items[0];
    const full = (await call(w.t.app, 'GET', `/default/incidents/${stable.id}`, { token: w.owner })).body;
    await call(w.t.app, 'PUT', `/default/incidents/${stable.id}`, { token: w.owner, body: { ...full, status: 'Stable' } });
    expect(titles(await a.list(byStatus))).toEqual(['Database latency', 'Website down', 'Old outage']);
    // Descending turns the whole order round.
    expect(titles(await a.list({ ...byStatus, 'descending[]': ['true', 'true'] }))[0]).toBe('Old outage');
  });

  it("lists only the organization's incidents", async () => {
    await call(w.t.app, 'POST', '/elsewhere/incidents', { token: w.owner, body: { title: 'Elsewhere', description: 'd' } });
    expect((await a.list({}, w.owner)).body.total).toBe(3);
    const theirs = await call(w.t.app, 'GET', '/elsewhere/incidents', { token: w.owner });
    expect(theirs.body.items.map((i: any) => i.title)).toEqual(['Elsewhere']);
    expect((await call(w.t.app, 'GET', '/elsewhere/incidents', { token: w.member })).status).toBe(403);
  });
});
