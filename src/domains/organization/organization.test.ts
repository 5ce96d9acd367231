import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { slugify } from '../../lib/slug.ts';

let t: TestApp;
let owner: string;
let member: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
});
afterAll(() => t.close());

describe('slugs', () => {
  it('derive as Dispatch does', () => {
    expect(slugify('My Org!')).toBe('my_org');
    expect(slugify('  Café  Münster -- Ops ')).toBe('cafe_munster_ops');
    expect(slugify('Security Team', '-')).toBe('security-team');
  });
});

describe('organizations', () => {
  it('creates one with a slug, its default project, and makes the creator Owner', async () => {
    const res = await call(t.app, 'POST', '/organizations', { token: member, body: { name: 'Blue Team', banner_color: 'red', banner_text: 'Hello there' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Blue Team', slug: 'blue_team', banner_color: '#ff0000', default: false, banner_enabled: false });
    const projects = await call(t.app, 'GET', '/blue_team/projects', { token: member });
    expect(projects.body.items.map((p: { name: string }) => p.name)).toEqual(['default']);
    const me = await call(t.app, 'GET', '/blue_team/auth/me', { token: member });
    expect(me.body.organizations.find((o: { organization: { slug: string } }) => o.organization.slug === 'blue_team').role).toBe('Owner');
  });

  it('answers 409 to a duplicate name or slug', async () => {
    await call(t.app, 'POST', '/organizations', { token: owner, body: { name: 'Red Team' } });
    const dup = await call(t.app, 'POST', '/organizations', { token: owner, body: { name: 'Red Team' } });
    expect(dup.status).toBe(409);
    expect(dup.body.detail[0].msg).toBe('An organization with this name already exists.');
    const slug = await call(t.app, 'POST', '/organizations', { token: owner, body: { name: 'red-team' } });
    expect(slug.status).toBe(409);
  });

  it('validates name, banner text and colour', async () => {
    const bad = await call(t.app, 'POST', '/organizations', { token: owner, body: { name: '  ab  ', banner_text: '   ', banner_color: 'not-a-colour' } });
    expect(bad.status).toBe(422);
    const locs = bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.banner_text', 'body.banner_color']));
    const missing = await call(t.app, 'POST', '/organizations', { token: owner, body: {} });
    expect(missing.body.detail).toEqual([{ loc: ['body', 'name'], msg: 'field required', type: 'value_error.missing' }]);
  });

  it('lists only the organizations the caller belongs to', async () => {
    const res = await call(t.app, 'GET', '/organizations', { token: member, query: { itemsPerPage: -1 } });
    expect(res.body.items.map((o: { slug: string }) => o.slug).sort()).toEqual(['blue_team', 'default']);
  });

  it('shows one organization to its members only: 403 to others, 404 when unknown', async () => {
    const [blue] = (await call(t.app, 'GET', '/organizations', { token: member, query: { q: 'blue' } })).body.items;
    expect((await call(t.app, 'GET', `/organizations/${blue.id}`, { token: member })).status).toBe(200);
    expect((await call(t.app, 'GET', `/organizations/${blue.id}`, { token: owner })).status).toBe(403);
    expect((await call(t.app, 'GET', '/organizations/999999', { token: owner })).status).toBe(404);
    expect((await call(t.app, 'GET', '/blue_team/projects', { token: owner })).status).toBe(403);
    expect((await call(t.app, 'GET', '/no_such_org/projects', { token: owner })).status).toBe(404);
  });

  it('lets only an Owner update, never the name', async () => {
    const updated = await call(t.app, 'PUT', '/organizations/1', {
      token: owner,
      body: { name: 'Renamed', description: 'Ops', banner_enabled: true, banner_color: 'rgb(0, 128, 255)' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'default', slug: 'default', description: 'Ops', banner_enabled: true, banner_color: '#0080ff' });
    const denied = await call(t.app, 'PUT', '/organizations/1', { token: member, body: { description: 'x' } });
    expect(denied.status).toBe(403);
  });
});
