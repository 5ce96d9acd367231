import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let token: string;
let member: string;
const project = { name: 'default' };
const f = (x: unknown) => JSON.stringify(x);

beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  await call(t.app, 'POST', '/organizations', { token, body: { name: 'Other Org' } });
});
afterAll(() => t.close());

describe('entity types', () => {
  it('round trip, defaults, update, process', async () => {
    const res = await call(t.app, 'POST', '/default/entity_type', {
      token: member,
      body: { name: 'IPv4 address', regular_expression: '(\\d{1,3}\\.){3}\\d{1,3}', jpath: '$.hosts[*].ip', project },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: res.body.id,
      name: 'IPv4 address',
      description: null,
      regular_expression: '(\\d{1,3}\\.){3}\\d{1,3}',
      jpath: '$.hosts[*].ip',
      global_find: false,
      enabled: false,
      scope: 'single',
      project: expect.objectContaining({ name: 'default' }),
    });
    expect((await call(t.app, 'GET', `/default/entity_type/${res.body.id}`, { token })).body).toEqual(res.body);

    const upd = await call(t.app, 'PUT', `/default/entity_type/${res.body.id}`, { token: member, body: { enabled: true, jpath: null } });
    expect(upd.body).toMatchObject({ name: 'IPv4 address', enabled: true, jpath: null, regular_expression: '(\\d{1,3}\\.){3}\\d{1,3}' });

    // Process: the same update body and answer, the same checks.
    const processed = await call(t.app, 'PUT', `/default/entity_type/${res.body.id}/process`, {
      token: member,
      body: { description: 'v4', global_find: true },
    });
    expect(processed.status).toBe(200);
    expect(processed.body).toMatchObject({ id: res.body.id, description: 'v4', global_find: true, enabled: true });
    const badProcess = await call(t.app, 'PUT', `/default/entity_type/${res.body.id}/process`, { token, body: { jpath: '$[' } });
    expect(badProcess.body.detail[0].loc).toEqual(['jpath']);
    expect((await call(t.app, 'PUT', '/default/entity_type/424242/process', { token, body: {} })).status).toBe(404);
    expect((await call(t.app, 'PUT', `/other_org/entity_type/${res.body.id}/process`, { token, body: { name: 'Stolen' } })).status).toBe(404);
  });

  it('refuses a regular expression that does not compile and a JSONPath that does not parse, naming the field', async () => {
    const regex = await call(t.app, 'POST', '/default/entity_type', { token, body: { name: 'Broken', regular_expression: '(unclosed', project } });
    expect(regex.status).toBe(422);
    expect(regex.body.detail[0]).toMatchObject({ loc: ['regular_expression'], type: 'value_error' });
    expect(regex.body.detail[0].msg).toMatch(/^Invalid regular expression: /);
    // Patterns run on RE2, in linear time: no backreferences, no lookaround.
    for (const [pattern, what] of [
      ['(\\w+)@\\1', 'backreferences'],
      ['\\d+(?= ms)', 'lookahead and lookbehind assertions'],
    ]) {
      const refused = await call(t.app, 'POST', '/default/entity_type', { token, body: { name: 'Backtracking', regular_expression: pattern, project } });
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toEqual([
        {
          loc: ['regular_expression'],
          msg: `Invalid regular expression: ${what} are not supported (patterns run in linear time, with RE2 syntax)`,
          type: 'value_error',
          ctx: expect.anything(),
        },
      ]);
    }
    const jpath = await call(t.app, 'POST', '/default/entity_type', { token, body: { name: 'Broken', jpath: '$.a[?(@.b)]', project } });
    expect(jpath.body.detail[0]).toMatchObject({
      loc: ['jpath'],
      msg: "Invalid JSONPath expression: expected a quoted name, an index or '*' at position 4",
      type: 'value_error',
    });
    const existing = (await call(t.app, 'GET', '/default/entity_type', { token })).body.items[0];
    const upd = await call(t.app, 'PUT', `/default/entity_type/${existing.id}`, { token, body: { regular_expression: '[z-a]' } });
    expect(upd.body.detail[0].loc).toEqual(['regular_expression']);
    expect((await call(t.app, 'GET', `/default/entity_type/${existing.id}`, { token })).body.regular_expression).toBe(existing.regular_expression);
    // Empty strings mean "none" and are accepted.
    const empty = await call(t.app, 'POST', '/default/entity_type', { token, body: { name: 'Manual', regular_expression: '', jpath: '', project } });
    expect(empty.status).toBe(200);
  });

  it('checks the name rule, requires a name and keeps names unique per project', async () => {
    const short = await call(t.app, 'POST', '/default/entity_type', { token, body: { name: '  ab ', project } });
    expect(short.body.detail[0].loc).toEqual(['body', 'name']);
    const blank = await call(t.app, 'POST', '/default/entity_type', { token, body: { name: '     ', project } });
    expect(blank.status).toBe(422);
    const none = await call(t.app, 'POST', '/default/entity_type', { token, body: { project } });
    expect(none.body.detail[0]).toMatchObject({ loc: ['name'], type: 'value_error.missing' });
    const dup = await call(t.app, 'POST', '/default/entity_type', { token, body: { name: 'IPv4 address', project } });
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], msg: 'An entity type with this name already exists.', type: 'value_error.exists' });
    const elsewhere = await call(t.app, 'POST', '/other_org/entity_type', { token, body: { name: 'IPv4 address', project } });
    expect(elsewhere.status).toBe(200);
  });

  it('lists with filters, q, sort and paging', async () => {
    const enabled = await call(t.app, 'GET', '/default/entity_type', { token, query: { filter: f([{ field: 'enabled', op: '==', value: true }]) } });
    expect(enabled.body.items.map((x: { name: string }) => x.name)).toEqual(['IPv4 address']);
    const q = await call(t.app, 'GET', '/default/entity_type', { token, query: { q: 'manual' } });
    expect(q.body.items.map((x: { name: string }) => x.name)).toEqual(['Manual']);
    const page = await call(t.app, 'GET', '/default/entity_type', { token, query: { 'sortBy[]': 'name', 'descending[]': true, itemsPerPage: 1, page: 2 } });
    expect(page.body).toMatchObject({ total: 2, items: [{ name: 'IPv4 address' }] });
  });
});

describe('entities', () => {
  it('round trip with the entity type by name, update, list by entity type', async () => {
    const email = await call(t.app, 'POST', '/default/entity_type', { token, body: { name: 'Email', regular_expression: '\\S+@\\S+', project } });
    const res = await call(t.app, 'POST', '/default/entity', {
      token: member,
      body: { value: '10.0.0.1', source: 'signal', entity_type: { name: 'IPv4 address' }, project },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      value: '10.0.0.1',
      source: 'signal',
      name: null,
      description: null,
      entity_type: { name: 'IPv4 address', project: { name: 'default' } },
      project: { name: 'default' },
    });
    expect((await call(t.app, 'GET', `/default/entity/${res.body.id}`, { token })).body).toEqual(res.body);
    await call(t.app, 'POST', '/default/entity', { token, body: { value: 'bob@example.com', entity_type: { id: email.body.id }, project } });

    const upd = await call(t.app, 'PUT', `/default/entity/${res.body.id}`, { token: member, body: { name: 'web-1' } });
    expect(upd.body).toMatchObject({ name: 'web-1', value: '10.0.0.1', entity_type: { name: 'IPv4 address' } });

    const byType = await call(t.app, 'GET', '/default/entity', {
      token,
      query: { filter: f([{ model: 'EntityType', field: 'name', op: '==', value: 'Email' }]) },
    });
    expect(byType.body.items.map((x: { value: string }) => x.value)).toEqual(['bob@example.com']);
    const q = await call(t.app, 'GET', '/default/entity', { token, query: { q: 'web', 'sortBy[]': 'entity_type.name', 'descending[]': false } });
    expect(q.body).toMatchObject({ total: 1, items: [{ name: 'web-1' }] });
    const all = await call(t.app, 'GET', '/default/entity', { token, query: { 'sortBy[]': 'entity_type.name', 'descending[]': false, itemsPerPage: 1 } });
    expect(all.body).toMatchObject({ total: 2, itemsPerPage: 1, items: [{ value: 'bob@example.com' }] });
  });

  it('requires an entity type of the organization', async () => {
    const none = await call(t.app, 'POST', '/default/entity', { token, body: { value: 'x', project } });
    expect(none.body.detail[0]).toMatchObject({ loc: ['body', 'entity_type'], type: 'value_error.missing' });
    const unknown = await call(t.app, 'POST', '/default/entity', { token, body: { value: 'x', entity_type: { name: 'Nope' }, project } });
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['entity_type'], msg: 'Entity type not found.', type: 'value_error.not_found' });
    const theirs = (await call(t.app, 'GET', '/other_org/entity_type', { token })).body.items[0];
    const foreign = await call(t.app, 'POST', '/default/entity', { token, body: { value: 'x', entity_type: { id: theirs.id }, project } });
    expect(foreign.body.detail[0]).toMatchObject({ loc: ['entity_type'], msg: 'Entity type not found.' });
    const mine = (await call(t.app, 'GET', '/default/entity', { token })).body.items[0];
    const moved = await call(t.app, 'PUT', `/default/entity/${mine.id}`, { token, body: { entity_type: { id: theirs.id } } });
    expect(moved.body.detail[0].loc).toEqual(['entity_type']);
    expect((await call(t.app, 'GET', `/other_org/entity/${mine.id}`, { token })).status).toBe(404);
  });

  it('an entity type with entities cannot be deleted until they are', async () => {
    const type = (await call(t.app, 'GET', '/default/entity_type', { token, query: { q: 'Email' } })).body.items[0];
    const inUse = await call(t.app, 'DELETE', `/default/entity_type/${type.id}`, { token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail[0].msg).toMatch(/entity records/);
    const entities = await call(t.app, 'GET', '/default/entity', {
      token,
      query: { filter: f([{ model: 'EntityType', field: 'id', op: '==', value: type.id }]) },
    });
    for (const e of entities.body.items) expect((await call(t.app, 'DELETE', `/default/entity/${e.id}`, { token: member })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/default/entity_type/${type.id}`, { token: member })).status).toBe(200);
    expect((await call(t.app, 'GET', `/default/entity_type/${type.id}`, { token })).status).toBe(404);
  });
});
