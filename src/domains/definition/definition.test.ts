import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let token: string;
let member: string;
const project = { name: 'default' };
const texts = (items: { text: string }[]) => items.map((x) => x.text).sort();

beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
  member = await register(t.app, 'member@example.com');
  await call(t.app, 'POST', '/organizations', { token, body: { name: 'Other Org' } });
});
afterAll(() => t.close());

describe('definitions and terms', () => {
  it('a definition names terms by text, creating the ones not known yet', async () => {
    const known = await call(t.app, 'POST', '/default/terms', { token: member, body: { text: 'SLA', project } });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ id: known.body.id, text: 'SLA', discoverable: true, definitions: [] });

    const res = await call(t.app, 'POST', '/default/definitions', {
      token: member,
      body: { text: 'Service level agreement', source: 'glossary', terms: [{ text: 'SLA' }, { text: 'Service level' }, { text: 'SLA' }], project },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ text: 'Service level agreement', source: 'glossary' });
    expect(res.body.terms).toEqual([
      { id: known.body.id, text: 'SLA' },
      { id: expect.any(Number), text: 'Service level' },
    ]);
    expect((await call(t.app, 'GET', `/default/definitions/${res.body.id}`, { token })).body).toEqual(res.body);

    // The term side reads the same link: its definitions are full definition objects.
    const term = await call(t.app, 'GET', `/default/terms/${known.body.id}`, { token });
    expect(term.body.definitions).toEqual([res.body]);
    const created = await call(t.app, 'GET', '/default/terms', { token, query: { q: 'level' } });
    expect(created.body).toMatchObject({ total: 1, items: [{ text: 'Service level', discoverable: true, definitions: [{ id: res.body.id }] }] });

    // Update replaces the terms; by id works too.
    const upd = await call(t.app, 'PUT', `/default/definitions/${res.body.id}`, {
      token,
      body: { text: 'Service level agreement', terms: [{ id: known.body.id }] },
    });
    expect(upd.body.terms).toEqual([{ id: known.body.id, text: 'SLA' }]);
    expect(upd.body.source).toBe('glossary');
    const dropped = await call(t.app, 'GET', '/default/terms', { token, query: { q: 'level' } });
    expect(dropped.body.items[0].definitions).toEqual([]);
  });

  it('a term names definitions by id or text; they must exist', async () => {
    const d = await call(t.app, 'POST', '/default/definitions', { token, body: { text: 'Mean time to recovery', project } });
    const res = await call(t.app, 'POST', '/default/terms', {
      token,
      body: { text: 'MTTR', discoverable: false, definitions: [{ text: 'Mean time to recovery' }], project },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ text: 'MTTR', discoverable: false, definitions: [{ id: d.body.id, text: 'Mean time to recovery' }] });
    expect((await call(t.app, 'GET', `/default/definitions/${d.body.id}`, { token })).body.terms).toEqual([{ id: res.body.id, text: 'MTTR' }]);
    const missing = await call(t.app, 'POST', '/default/terms', { token, body: { text: 'RTO', definitions: [{ text: 'Nowhere' }], project } });
    expect(missing.body.detail[0]).toMatchObject({ loc: ['definitions', 0], msg: 'Definition not found.', type: 'value_error.not_found' });
    // An update leaves `discoverable` alone when it is not sent.
    const upd = await call(t.app, 'PUT', `/default/terms/${res.body.id}`, { token, body: { text: 'MTTR', definitions: [{ id: d.body.id }] } });
    expect(upd.body).toMatchObject({ discoverable: false, definitions: [{ id: d.body.id }] });
  });

  it("keeps texts unique per project and refuses other organizations' records", async () => {
    const dupDef = await call(t.app, 'POST', '/default/definitions', { token, body: { text: 'Mean time to recovery', project } });
    expect(dupDef.status).toBe(422);
    expect(dupDef.body.detail[0]).toMatchObject({ loc: ['text'], msg: 'A definition with this text already exists.', type: 'value_error.exists' });
    const dupTerm = await call(t.app, 'POST', '/default/terms', { token, body: { text: 'MTTR', project } });
    expect(dupTerm.body.detail[0]).toMatchObject({ loc: ['text'], msg: 'A term with this text already exists.', type: 'value_error.exists' });
    const noText = await call(t.app, 'POST', '/default/definitions', { token, body: { project } });
    expect(noText.body.detail[0]).toMatchObject({ loc: ['body', 'text'], type: 'value_error.missing' });
    const noUpdText = await call(t.app, 'PUT', '/default/definitions/1', { token, body: { source: 'x' } });
    expect(noUpdText.body.detail[0]).toMatchObject({ loc: ['body', 'text'], type: 'value_error.missing' });

    // The same texts in another organization are another organization's business.
    const theirTerm = await call(t.app, 'POST', '/other_org/terms', { token, body: { text: 'MTTR', project } });
    expect(theirTerm.status).toBe(200);
    const theirDef = await call(t.app, 'POST', '/other_org/definitions', {
      token,
      body: { text: 'Mean time to recovery', terms: [{ text: 'MTTR' }], project },
    });
    expect(theirDef.body.terms).toEqual([{ id: theirTerm.body.id, text: 'MTTR' }]);
    const byId = await call(t.app, 'POST', '/default/definitions', { token, body: { text: 'Borrowed', terms: [{ id: theirTerm.body.id }], project } });
    expect(byId.body.detail[0]).toMatchObject({ loc: ['terms', 0], msg: 'Term not found.' });
    const defById = await call(t.app, 'POST', '/default/terms', { token, body: { text: 'Borrowed', definitions: [{ id: theirDef.body.id }], project } });
    expect(defById.body.detail[0]).toMatchObject({ loc: ['definitions', 0], msg: 'Definition not found.' });
    // A refused write leaves nothing behind, not even the terms it would have created.
    const half = await call(t.app, 'POST', '/default/definitions', {
      token,
      body: { text: 'Half', terms: [{ text: 'Fresh term' }, { id: theirTerm.body.id }], project },
    });
    expect(half.status).toBe(422);
    expect((await call(t.app, 'GET', '/default/terms', { token, query: { q: 'Fresh' } })).body.total).toBe(0);
    expect((await call(t.app, 'GET', `/other_org/terms/${theirTerm.body.id}`, { token })).body.definitions).toHaveLength(1);
    expect((await call(t.app, 'GET', `/default/terms/${theirTerm.body.id}`, { token })).status).toBe(404);
  });

  it('lists with filters through the link, sort and paging', async () => {
    const f = (x: unknown) => JSON.stringify(x);
    const defs = await call(t.app, 'GET', '/default/definitions', { token, query: { filter: f([{ model: 'Term', field: 'text', op: '==', value: 'MTTR' }]) } });
    expect(texts(defs.body.items)).toEqual(['Mean time to recovery']);
    const terms = await call(t.app, 'GET', '/default/terms', {
      token,
      query: { filter: f([{ model: 'Definition', field: 'text', op: 'like', value: '%agreement%' }]) },
    });
    expect(texts(terms.body.items)).toEqual(['SLA']);
    const page = await call(t.app, 'GET', '/default/terms', { token, query: { 'sortBy[]': 'text', 'descending[]': true, itemsPerPage: 2, page: 1 } });
    expect(page.body).toMatchObject({ total: 3, itemsPerPage: 2, items: [{ text: 'Service level' }, { text: 'SLA' }] });
    const undiscoverable = await call(t.app, 'GET', '/default/terms', { token, query: { filter: f([{ field: 'discoverable', op: '==', value: false }]) } });
    expect(texts(undiscoverable.body.items)).toEqual(['MTTR']);
  });

  it('deleting either side removes only the link', async () => {
    const terms = await call(t.app, 'GET', '/default/terms', { token, query: { q: 'MTTR' } });
    const mttr = terms.body.items[0];
    const defId = mttr.definitions[0].id;
    expect((await call(t.app, 'DELETE', `/default/terms/${mttr.id}`, { token: member })).status).toBe(200);
    expect((await call(t.app, 'GET', `/default/definitions/${defId}`, { token })).body.terms).toEqual([]);
    const sla = (await call(t.app, 'GET', '/default/terms', { token, query: { q: 'SLA' } })).body.items[0];
    expect((await call(t.app, 'DELETE', `/default/definitions/${sla.definitions[0].id}`, { token: member })).status).toBe(200);
    expect((await call(t.app, 'GET', `/default/terms/${sla.id}`, { token })).body.definitions).toEqual([]);
  });
});
