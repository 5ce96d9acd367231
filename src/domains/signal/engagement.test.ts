// Signal engagements (beyond 0.1.0) through the calls of the web UI's signal definition editor: the
// engagement picker's list, the create dialog, and the get, update and delete of its api.js. The
// path is no longer read as a signal id.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld } from '../../../test/worlds/world.ts';

const w = useWorld();
const url = '/default/signals/engagements';
let project: { id: number; name: string };
let entityType: Record<string, unknown> & { id: number };

beforeAll(async () => {
  project = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items[0];
  entityType = (await call(w.t.app, 'POST', '/default/entity_type', { token: w.owner, body: { name: 'Email address', jpath: '$.user.email', project } })).body;
});

/** The picker's query: five at a time in the definition's project, searched by what is typed. */
const picker = (q?: string) => ({
  itemsPerPage: 5,
  filter: JSON.stringify({ and: [{ or: [{ model: 'Project', field: 'id', op: '==', value: project.id }] }] }),
  ...(q ? { q } : {}),
});

describe('signal engagements', () => {
  let engagement: Record<string, any>;

  it('lists, where 0.1.0 read the path as a signal id (422 "value is not a valid integer")', async () => {
    const res = await call(w.t.app, 'GET', url, { token: w.member, query: picker() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], total: 0 });
  });

  it('creates from the dialog, any member, and reads the entity type nested', async () => {
    // The dialog's selected state: project from the route's query, by name.
    const res = await call(w.t.app, 'POST', url, {
      token: w.member,
      body: {
        name: 'Confirm login',
        description: 'Ask the user whether the login was theirs.',
        require_mfa: true,
        entity_type: entityType,
        message: 'Did you just log in from a new country?',
        project: { name: 'default' },
        loading: false,
      },
    });
    expect(res.status).toBe(200);
    engagement = res.body;
    expect(engagement).toEqual({
      id: expect.any(Number),
      name: 'Confirm login',
      description: 'Ask the user whether the login was theirs.',
      require_mfa: true,
      entity_type: expect.objectContaining({ id: entityType.id, name: 'Email address', jpath: '$.user.email' }),
      message: 'Did you just log in from a new country?',
    });
    const bare = await call(w.t.app, 'POST', url, { token: w.member, body: { name: 'Bare engagement', require_mfa: null, entity_type: null, project } });
    expect(bare.body).toMatchObject({ require_mfa: false, entity_type: null, description: null, message: null });
  });

  it('is listed by the picker with what it shows (name, description), searched, and read by id', async () => {
    const res = await call(w.t.app, 'GET', url, { token: w.member, query: picker() });
    expect(res.body.items.map((e: { name: string }) => e.name).sort()).toEqual(['Bare engagement', 'Confirm login']);
    const q = await call(w.t.app, 'GET', url, { token: w.member, query: picker('login') });
    expect(q.body.items).toEqual([engagement]);
    expect((await call(w.t.app, 'GET', `${url}/${engagement.id}`, { token: w.member })).body).toEqual(engagement);
  });

  it('updates from the read object sent back, Admins and above; Members may not change or remove', async () => {
    expect((await call(w.t.app, 'PUT', `${url}/${engagement.id}`, { token: w.member, body: engagement })).status).toBe(403);
    expect((await call(w.t.app, 'DELETE', `${url}/${engagement.id}`, { token: w.member })).status).toBe(403);
    const res = await call(w.t.app, 'PUT', `${url}/${engagement.id}`, {
      token: w.admin,
      body: { ...engagement, require_mfa: false, message: 'Was this you?' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...engagement, require_mfa: false, message: 'Was this you?' });
    engagement = res.body;
  });

  it('validates names, answers duplicates with 422, and a malformed id on its own parameter', async () => {
    const dup = await call(w.t.app, 'POST', url, { token: w.member, body: { name: 'Confirm login', project } });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'A signal engagement with this name already exists.', type: 'value_error.exists' });
    expect((await call(w.t.app, 'POST', url, { token: w.member, body: { name: ' ', project } })).body.detail[0].loc).toEqual(['body', 'name']);
    const bad = await call(w.t.app, 'GET', `${url}/abc`, { token: w.member });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['path', 'engagement_id']);
  });

  it('keeps its entity type only while it exists, and stays in its organization', async () => {
    const doomed = await call(w.t.app, 'POST', '/default/entity_type', { token: w.owner, body: { name: 'Short lived', jpath: '$.x', project } });
    const res = await call(w.t.app, 'POST', url, { token: w.member, body: { name: 'Engages briefly', entity_type: { id: doomed.body.id }, project } });
    expect(res.body.entity_type.id).toBe(doomed.body.id);
    expect((await call(w.t.app, 'DELETE', `/default/entity_type/${doomed.body.id}`, { token: w.owner })).status).toBe(200);
    expect((await call(w.t.app, 'GET', `${url}/${res.body.id}`, { token: w.member })).body.entity_type).toBeNull();
    expect((await call(w.t.app, 'GET', `/elsewhere/signals/engagements/${engagement.id}`, { token: w.owner })).status).toBe(404);
    expect((await call(w.t.app, 'GET', '/elsewhere/signals/engagements', { token: w.owner })).body.total).toBe(0);
  });

  it('is removed by an Admin', async () => {
    expect(await call(w.t.app, 'DELETE', `${url}/${engagement.id}`, { token: w.admin })).toMatchObject({ status: 200, body: null });
    expect((await call(w.t.app, 'GET', `${url}/${engagement.id}`, { token: w.member })).status).toBe(404);
  });
});
