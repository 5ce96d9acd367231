import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let token: string;
let member: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  await call(t.app, 'POST', '/organizations', { token, body: { name: 'Other Org' } });
});
afterAll(() => t.close());

describe('alerts', () => {
  it('create, get, update, delete in the organization, with no list and no project', async () => {
    const res = await call(t.app, 'POST', '/default/data/alerts', {
      token: member,
      body: { name: 'Spike', external_link: 'https://example.com/a', project: { name: 'default' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: res.body.id, name: 'Spike', description: null, external_link: 'https://example.com/a', originator: null });
    expect((await call(t.app, 'GET', `/default/data/alerts/${res.body.id}`, { token })).body).toEqual(res.body);
    const upd = await call(t.app, 'PUT', `/default/data/alerts/${res.body.id}`, { token: member, body: { originator: 'grafana' } });
    expect(upd.body).toEqual({ ...res.body, originator: 'grafana' });
    expect((await call(t.app, 'GET', '/default/data/alerts', { token })).status).toBe(405);
    expect((await call(t.app, 'GET', `/other_org/data/alerts/${res.body.id}`, { token })).status).toBe(404);
    expect((await call(t.app, 'PUT', `/other_org/data/alerts/${res.body.id}`, { token, body: { name: 'mine' } })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/other_org/data/alerts/${res.body.id}`, { token })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/default/data/alerts/${res.body.id}`, { token: member })).status).toBe(200);
    expect((await call(t.app, 'GET', `/default/data/alerts/${res.body.id}`, { token })).status).toBe(404);
  });

  it('validates field types', async () => {
    const bad = await call(t.app, 'POST', '/default/data/alerts', { token, body: { name: { a: 1 }, originator: { a: 1 } } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['body.name', 'body.originator']);
  });

  it('an alert attached to a source is detached when the source goes', async () => {
    const a = await call(t.app, 'POST', '/default/data/alerts', { token, body: { name: 'Attached' } });
    const s = await call(t.app, 'POST', '/default/data/sources', { token, body: { name: 'Logs', alerts: [{ id: a.body.id }], project: { name: 'default' } } });
    expect(s.body.alerts).toEqual([a.body]);
    expect((await call(t.app, 'DELETE', `/default/data/alerts/${a.body.id}`, { token })).status).toBe(200);
    expect((await call(t.app, 'GET', `/default/data/sources/${s.body.id}`, { token })).body.alerts).toEqual([]);
  });
});
