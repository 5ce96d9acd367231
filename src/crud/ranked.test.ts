// Incident and case priorities and severities through HTTP: one suite per group, since they are one
// kind of record (ranked.ts) with a few fields of their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let owner: string;
let admin: string;
let member: string;
let elsewhere: { projectId: number };

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  admin = await register(t.app, 'admin@example.com');
  const me = await call(t.app, 'GET', '/default/auth/me', { token: admin });
  await call(t.app, 'PUT', `/default/users/${me.body.id}`, { token: owner, body: { id: me.body.id, role: 'Admin' } });
  // An organization the owner of `default` does not belong to, with records of every group.
  await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Elsewhere' } });
  const projects = await call(t.app, 'GET', '/elsewhere/projects', { token: member });
  elsewhere = { projectId: projects.body.items[0].id };
});
afterAll(() => t.close());

interface Kind {
  path: string;
  thing: string;
  seeded: string[];
  seededDefault: string;
  /** Fields of its own, with the values a new record gets when they are omitted. */
  own: Record<string, unknown>;
}

const kinds: Kind[] = [
  {
    path: 'incident_priorities',
    thing: 'An incident priority',
    seeded: ['Low', 'Medium', 'High'],
    seededDefault: 'Low',
    own: { page_commander: false, tactical_report_reminder: 24, executive_report_reminder: 24 },
  },
  {
    path: 'incident_severities',
    thing: 'An incident severity',
    seeded: ['Undetermined', 'Low', 'Medium', 'High', 'Critical'],
    seededDefault: 'Undetermined',
    own: {},
  },
  {
    path: 'case_priorities',
    thing: 'A case priority',
    seeded: ['Low', 'Medium', 'High', 'Critical', 'Optional'],
    seededDefault: 'Low',
    own: { page_assignee: false },
  },
  { path: 'case_severities', thing: 'A case severity', seeded: ['Undetermined', 'Low', 'Medium', 'High', 'Critical'], seededDefault: 'Undetermined', own: {} },
];

const inDefault = { model: 'Project', field: 'name', op: '==', value: 'default' };
const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

describe.each(kinds)('$path', ({ path, thing, seeded, seededDefault, own }) => {
  const url = `/default/${path}`;
  // Lists span every project of the organization; these tests look at the default project's records.
  const list = (query: Record<string, string | number | boolean | (string | number | boolean)[]> & { filter?: string }, token = member) =>
    call(t.app, 'GET', url, { token, query: { ...query, filter: JSON.stringify([inDefault, ...(query.filter ? [JSON.parse(query.filter)] : [])]) } });
  const create = (body: Record<string, unknown>, token = admin) => call(t.app, 'POST', url, { token, body: { project: { name: 'default' }, ...body } });

  it('starts with the seeded records of the project, in view order', async () => {
    const res = await list({ itemsPerPage: -1, 'sortBy[]': 'view_order', 'descending[]': false });
    expect(names(res)).toEqual(seeded);
    expect(res.body.items.filter((i: { default: boolean }) => i.default).map((i: { name: string }) => i.name)).toEqual([seededDefault]);
  });

  it('round trips: defaults, colours stored as hex, the project nested, omitted fields kept on update', async () => {
    const res = await create({ name: 'Routine', color: 'Red', view_order: 7, description: 'Business as usual' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Routine',
      description: 'Business as usual',
      color: '#ff0000',
      default: false,
      enabled: true,
      view_order: 7,
      ...own,
      project: expect.objectContaining({ name: 'default' }),
    });
    const got = await call(t.app, 'GET', `${url}/${res.body.id}`, { token: member });
    expect(got.body).toEqual(res.body);
    const upd = await call(t.app, 'PUT', `${url}/${res.body.id}`, { token: admin, body: { name: 'Routine Work', color: 'rgb(0, 128, 0)', enabled: false } });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...res.body, name: 'Routine Work', color: '#008000', enabled: false });
    const bare = await create({ name: 'Bare' });
    expect(bare.body).toMatchObject({ view_order: 9999, color: null, description: null, default: false, enabled: true });
  });

  it('goes to the default project when the body names none, and to the named one by id', async () => {
    const res = await call(t.app, 'POST', url, { token: admin, body: { name: 'No Project' } });
    expect(res.body.project.name).toBe('default');
    const byId = await create({ name: 'By Id', project: { id: res.body.project.id } });
    expect(byId.body.project.id).toBe(res.body.project.id);
  });

  it('keeps one default per project, on create and on update', async () => {
    const first = await create({ name: 'First Default', default: true });
    const defaults = async () => names(await list({ itemsPerPage: -1, filter: JSON.stringify([{ field: 'default', op: '==', value: true }]) }));
    expect(await defaults()).toEqual(['First Default']);
    const seededOne = (await list({ filter: JSON.stringify([{ field: 'name', op: '==', value: seededDefault }]) })).body.items[0];
    const upd = await call(t.app, 'PUT', `${url}/${seededOne.id}`, { token: admin, body: { name: seededDefault, default: true } });
    expect(upd.body.default).toBe(true);
    expect(await defaults()).toEqual([seededDefault]);
    expect((await call(t.app, 'GET', `${url}/${first.body.id}`, { token: member })).body.default).toBe(false);
  });

  it('validates names, colours and types, naming the field', async () => {
    const short = await create({ name: 'ab' });
    expect(short.status).toBe(422);
    expect(short.body.detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'value_error.any_str.min_length' });
    const blank = await create({ name: '     ' });
    expect(blank.body.detail[0].loc).toEqual(['body', 'name']);
    const missing = await call(t.app, 'POST', url, { token: admin, body: { color: '#fff' } });
    expect(missing.body.detail).toEqual([{ loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }]);
    const colour = await create({ name: 'Bad Colour', color: 'not-a-colour' });
    expect(colour.status).toBe(422);
    expect(colour.body.detail[0].loc).toEqual(['body', 'color']);
    const order = await create({ name: 'Bad Order', view_order: 'first' });
    expect(order.body.detail[0]).toMatchObject({ loc: ['body', 'view_order'], type: 'type_error.integer' });
    const updMissing = await call(t.app, 'PUT', `${url}/1`, { token: admin, body: { color: 'red' } });
    expect(updMissing.body.detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'value_error.missing' });
  });

  it.runIf(path === 'incident_priorities')('refuses negative reminder hours, on create and update; 0 (no reminder) is taken', async () => {
    for (const field of ['tactical_report_reminder', 'executive_report_reminder']) {
      const negative = await create({ name: `Negative ${field}`, [field]: -1 });
      expect(negative.status).toBe(422);
      expect(negative.body.detail).toEqual([expect.objectContaining({ loc: ['body', field], type: 'value_error.number.not_ge', ctx: { limit_value: 0 } })]);
    }
    const none = await create({ name: 'No Reminders', tactical_report_reminder: 0, executive_report_reminder: 0 });
    expect(none).toMatchObject({ status: 200, body: { tactical_report_reminder: 0, executive_report_reminder: 0 } });
    const update = await call(t.app, 'PUT', `${url}/${none.body.id}`, { token: admin, body: { ...none.body, tactical_report_reminder: -24 } });
    expect(update.status).toBe(422);
    expect(update.body.detail[0].loc).toEqual(['body', 'tactical_report_reminder']);
    expect((await call(t.app, 'GET', `${url}/${none.body.id}`, { token: member })).body.tactical_report_reminder).toBe(0);
  });

  it('answers 422 value_error.exists to a duplicate name in the project, on create and update', async () => {
    const dup = await create({ name: seeded[0] });
    expect(dup.status).toBe(422);
    expect(dup.body.detail).toEqual([{ loc: ['name'], msg: `${thing} with this name already exists.`, type: 'value_error.exists', ctx: expect.any(Object) }]);
    const other = await create({ name: 'Renamed Later' });
    const upd = await call(t.app, 'PUT', `${url}/${other.body.id}`, { token: admin, body: { name: seeded[1] } });
    expect(upd.status).toBe(422);
    expect(upd.body.detail[0].type).toBe('value_error.exists');
    // The same name in another project is fine.
    const project = await call(t.app, 'POST', '/default/projects', { token: owner, body: { name: `Other for ${path}`, organization: { name: 'default' } } });
    expect((await create({ name: 'Renamed Later', project: { id: project.body.id } })).status).toBe(200);
  });

  it('lets Admins and above write and every member read', async () => {
    expect((await create({ name: 'By Member' }, member)).status).toBe(403);
    expect((await create({ name: 'By Owner' }, owner)).status).toBe(200);
    const one = (await list({})).body.items[0];
    expect((await call(t.app, 'PUT', `${url}/${one.id}`, { token: member, body: { name: one.name } })).status).toBe(403);
    expect((await call(t.app, 'GET', `${url}/${one.id}`, { token: member })).status).toBe(200);
  });

  it('has no delete, and answers 404 for an unknown id', async () => {
    expect((await call(t.app, 'DELETE', `${url}/1`, { token: owner })).status).toBe(405);
    const gone = await call(t.app, 'GET', `${url}/999999`, { token: member });
    expect(gone).toMatchObject({ status: 404, body: { detail: [{ msg: `${thing} with this id does not exist.` }] } });
    expect((await call(t.app, 'PUT', `${url}/999999`, { token: admin, body: { name: 'Nothing' } })).status).toBe(404);
  });

  it('lists with filter, q, sort and paging', async () => {
    const sorted = await list({ itemsPerPage: 2, page: 2, 'sortBy[]': 'name', 'descending[]': true });
    const all = names(await list({ itemsPerPage: -1, 'sortBy[]': 'name', 'descending[]': true }));
    expect(names(sorted)).toEqual(all.slice(2, 4));
    expect(sorted.body).toMatchObject({ page: 2, itemsPerPage: 2, total: all.length });
    const q = await list({ q: seeded[1].slice(0, 3).toLowerCase() });
    expect(names(q)).toContain(seeded[1]);
    const ilike = await list({
      itemsPerPage: -1,
      filter: JSON.stringify({
        or: [
          { field: 'name', op: 'ilike', value: 'rout%' },
          { field: 'view_order', op: '==', value: 1 },
        ],
      }),
    });
    expect(names(ilike).sort()).toEqual(['Routine Work', seeded[0]].sort());
  });

  it("never reads or references another organization's records", async () => {
    const theirs = await call(t.app, 'POST', `/elsewhere/${path}`, { token: member, body: { name: 'Private', project: { id: elsewhere.projectId } } });
    expect(theirs.status).toBe(200);
    expect((await call(t.app, 'GET', `${url}/${theirs.body.id}`, { token: owner })).status).toBe(404);
    expect((await call(t.app, 'PUT', `${url}/${theirs.body.id}`, { token: owner, body: { name: 'Stolen' } })).status).toBe(404);
    expect(names(await list({ itemsPerPage: -1 }, owner))).not.toContain('Private');
    const cross = await create({ name: 'Cross', project: { id: elsewhere.projectId } });
    expect(cross.status).toBe(422);
    expect(cross.body.detail[0]).toMatchObject({ loc: ['project'], msg: 'Project not found.', type: 'value_error.not_found' });
  });
});
