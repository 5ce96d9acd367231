// The web UI's tag pickers and tag type settings, and the signal definition editor's entity types
// (reference/dispatch-ui.md): tag types' discoverable_* flags and entity types' scope, filtered as
// the UI sends them.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers.ts';
import { names, useWorld } from '../worlds/world.ts';

const w = useWorld();
const project = { name: 'default' };
const FLAGS = ['discoverable_incident', 'discoverable_case', 'discoverable_signal', 'discoverable_query', 'discoverable_source', 'discoverable_document'];
const get = (path: string, query: Record<string, any>) => call(w.t.app, 'GET', `/default/${path}`, { token: w.member, query });

describe('tag types', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    ids = {};
    for (const [name, extra] of [
      ['Everywhere', {}],
      ['Cases only', { discoverable_incident: false, discoverable_signal: false }],
      ['Hidden', Object.fromEntries(FLAGS.map((f) => [f, false]))],
    ] as const) {
      const res = await call(w.t.app, 'POST', '/default/tag_types', { token: w.admin, body: { name, project, ...extra } });
      expect(res.status).toBe(200);
      ids[name] = res.body.id;
      await call(w.t.app, 'POST', '/default/tags', { token: w.admin, body: { name: `${name} tag`, tag_type: { id: res.body.id }, project } });
    }
  });

  it('read every discoverable flag, true unless set, and keep them on an update that leaves them out', async () => {
    const everywhere = await call(w.t.app, 'GET', `/default/tag_types/${ids.Everywhere}`, { token: w.member });
    expect(everywhere.body).toMatchObject(Object.fromEntries(FLAGS.map((f) => [f, true])));
    const cases = (await call(w.t.app, 'GET', `/default/tag_types/${ids['Cases only']}`, { token: w.member })).body;
    expect(cases).toMatchObject({ discoverable_incident: false, discoverable_signal: false, discoverable_case: true });
    const upd = await call(w.t.app, 'PUT', `/default/tag_types/${ids['Cases only']}`, {
      token: w.admin,
      body: { name: 'Cases only', description: 'For cases' },
    });
    expect(upd.body).toMatchObject({ discoverable_incident: false, discoverable_signal: false, discoverable_case: true, description: 'For cases' });
    const back = await call(w.t.app, 'PUT', `/default/tag_types/${ids['Cases only']}`, { token: w.admin, body: { ...upd.body, discoverable_signal: true } });
    expect(back.body).toMatchObject({ discoverable_incident: false, discoverable_signal: true });
    await call(w.t.app, 'PUT', `/default/tag_types/${ids['Cases only']}`, { token: w.admin, body: { name: 'Cases only', discoverable_signal: false } });
  });

  it('filter on discoverable_incident and discoverable_signal as the tag pickers send them', async () => {
    for (const value of ['true', true]) {
      const leaf = { model: 'TagType', field: 'discoverable_incident', op: '==', value };
      const res = await get('tag_types', { itemsPerPage: -1, filter: JSON.stringify({ and: [{ or: [leaf] }] }), 'sortBy[]': 'name', 'descending[]': false });
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(['Everywhere']);
    }
    const cases = await get('tag_types', { itemsPerPage: -1, filter: JSON.stringify([{ field: 'discoverable_case', op: '==', value: 'true' }]) });
    expect(names(cases).sort()).toEqual(['Cases only', 'Everywhere']);
    const signals = await get('tag_types', {
      itemsPerPage: -1,
      filter: JSON.stringify([{ model: 'TagType', field: 'discoverable_signal', op: '==', value: 'false' }]),
    });
    expect(names(signals).sort()).toEqual(['Cases only', 'Hidden']);
  });

  it("serve the tag picker's list: discoverable tags of types discoverable for the record, sorted by type", async () => {
    const pick = (kind: string) =>
      get('tags', {
        itemsPerPage: 100,
        'sortBy[]': 'tag_type.name',
        'descending[]': false,
        filter: JSON.stringify({
          and: [
            { or: [{ model: 'Project', field: 'name', op: '==', value: 'default' }] },
            { or: [{ model: 'Tag', field: 'discoverable', op: '==', value: 'true' }] },
            { or: [{ model: 'TagType', field: `discoverable_${kind}`, op: '==', value: 'true' }] },
          ],
        }),
      });
    const incident = await pick('incident');
    expect(incident.status).toBe(200);
    expect(names(incident)).toEqual(['Everywhere tag']);
    expect(incident.body.items[0].tag_type).toMatchObject({ name: 'Everywhere', discoverable_incident: true });
    expect(names(await pick('case'))).toEqual(['Cases only tag', 'Everywhere tag']);
    // Without a record kind the picker ORs every kind.
    const any = await get('tags', {
      itemsPerPage: 100,
      filter: JSON.stringify({
        and: [
          { or: ['incident', 'case', 'signal', 'query', 'source'].map((k) => ({ model: 'TagType', field: `discoverable_${k}`, op: '==', value: 'true' })) },
        ],
      }),
    });
    expect(names(any).sort()).toEqual(['Cases only tag', 'Everywhere tag']);
  });

  it("filter on the tag type's id column, as the tags picker sends it", async () => {
    const byType = (value: number[]) => get('tags', { itemsPerPage: -1, filter: JSON.stringify([{ model: 'Tag', field: 'tag_type_id', op: 'in', value }]) });
    const one = await byType([ids.Hidden]);
    expect(one.status).toBe(200);
    expect(names(one)).toEqual(['Hidden tag']);
    expect(names(await byType([ids.Everywhere, ids['Cases only']])).sort()).toEqual(['Cases only tag', 'Everywhere tag']);
  });
});

describe('entity types', () => {
  it('read scope (single unless set: single, multiple or all) and filter on it as the signal definition editor does', async () => {
    const made: Record<string, any> = {};
    for (const [name, scope] of [
      ['Single', undefined],
      ['Multiple', 'multiple'],
      ['Everything', 'all'],
    ] as const) {
      const res = await call(w.t.app, 'POST', '/default/entity_type', { token: w.member, body: { name, project, ...(scope ? { scope } : {}) } });
      expect(res.status).toBe(200);
      made[name] = res.body;
    }
    expect(made.Single.scope).toBe('single');
    expect(made.Multiple.scope).toBe('multiple');
    expect((await call(w.t.app, 'POST', '/default/entity_type', { token: w.member, body: { name: 'Wrong', scope: 'some', project } })).status).toBe(422);
    const kept = await call(w.t.app, 'PUT', `/default/entity_type/${made.Everything.id}`, { token: w.member, body: { description: 'All of them' } });
    expect(kept.body).toMatchObject({ scope: 'all', description: 'All of them' });

    const res = await get('entity_type', {
      itemsPerPage: -1,
      'sortBy[]': 'name',
      'descending[]': false,
      filter: JSON.stringify({ and: [{ model: 'EntityType', field: 'scope', op: 'in', value: ['multiple', 'single'] }] }),
    });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Multiple', 'Single']);
    expect(res.body.items.map((e: { scope: string }) => e.scope)).toEqual(['multiple', 'single']);
  });
});
