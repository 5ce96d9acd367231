import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { call } from '../../../test/helpers.ts';
import { api, useWorld } from '../../../test/worlds/incidents.ts';
import { createScheduler } from '../../app/tasks.ts';
import { neighboursOf, recommend } from './model.ts';

const w = useWorld();
const log = pino({ level: 'silent' });

async function projectId() {
  return (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items[0].id as number;
}

async function newTag(name: string, typeId: number, discoverable = true) {
  const r = await call(w.t.app, 'POST', '/default/tags', {
    token: w.owner,
    body: { name, tag_type: { id: typeId }, discoverable, project: { id: await projectId() } },
  });
  expect(r.status).toBe(200);
  return r.body.id as number;
}

async function newTagType(name: string, exclusive = false) {
  const r = await call(w.t.app, 'POST', '/default/tag_types', { token: w.owner, body: { name, exclusive, project: { id: await projectId() } } });
  expect(r.status).toBe(200);
  return r.body.id as number;
}

const runTask = async (name: string) => {
  const s = createScheduler(w.t.database, w.t.settings, log, [name]);
  await s.runEagerly(s.tasks);
};

const tagNames = (res: { body: { tags: { name: string }[] } }) => res.body.tags.map((t) => t.name).sort();

describe('tag models', () => {
  it('rank tags by Jaccard similarity, best first, without the tag itself', () => {
    // Records 1-3: a with b on 1 and 2, a with c on 3; b alone on 4.
    const model = neighboursOf([
      { record: 1, tag: 1 },
      { record: 1, tag: 2 },
      { record: 2, tag: 1 },
      { record: 2, tag: 2 },
      { record: 3, tag: 1 },
      { record: 3, tag: 3 },
      { record: 4, tag: 2 },
    ]);
    // a: {1,2,3}, b: {1,2,4}, c: {3}: J(a,b) = 2/4, J(a,c) = 1/3.
    expect(model[1]).toEqual([
      [2, 0.5],
      [3, 1 / 3],
    ]);
    expect(model[3]).toEqual([[1, 1 / 3]]);
    expect(recommend(model, [3])).toEqual([1]);
    expect(recommend(model, [1, 3])).toEqual([2]);
  });
});

describe('the incident tagger and tag recommendations', () => {
  it('tags open incidents whose text names a discoverable tag, once, one per exclusive type, on the timeline', async () => {
    const service = await newTagType('Service');
    const env = await newTagType('Environment', true);
    await newTag('payments', service);
    await newTag('ledger-db', service);
    await newTag('hidden', service, false);
    await newTag('production', env);
    await newTag('staging', env);
    const a = (await api(w).create({ title: 'Payments down', description: 'ledger-db in production and staging refuses hidden writes' })).body;
    const b = (await api(w).create({ title: 'Unrelated', description: 'paymentsx is not a word match' })).body;
    const closed = (await api(w).create({ title: 'payments closed', description: 'old', status: 'Closed' })).body;

    await runTask('incident-tagger');
    const after = await api(w).get(a.id, w.owner);
    expect(tagNames(after)).toEqual(['ledger-db', 'payments', 'production']);
    expect(after.body.events.map((e: { description: string }) => e.description)).toContain(
      'Incident tags added by the auto-tagger: ledger-db, payments, production',
    );
    expect(tagNames(await api(w).get(b.id, w.owner))).toEqual([]);
    expect(tagNames(await api(w).get(closed.id, w.owner))).toEqual([]);

    // Run again: nothing more to add, no second event.
    await runTask('incident-tagger');
    const again = await api(w).get(a.id, w.owner);
    expect(again.body.events.filter((e: { description: string }) => e.description.startsWith('Incident tags added')).length).toBe(1);
  });

  it('recommends tags found with the record’s own, never learned from Restricted incidents', async () => {
    const kind = await newTagType('Kind');
    const ids = Object.fromEntries(await Promise.all(['outage', 'latency', 'dns', 'secret-project'].map(async (n) => [n, await newTag(n, kind, false)])));
    const tags = (...names: string[]) => names.map((n) => ({ id: ids[n] }));
    await api(w).create({ tags: tags('outage', 'latency') });
    await api(w).create({ tags: tags('outage', 'latency', 'dns') });
    await api(w).create({ tags: tags('outage', 'secret-project'), visibility: 'Restricted' }, w.owner);
    const target = (await api(w).create({ tags: tags('outage') })).body;

    // No model yet: built on first use.
    const first = await call(w.t.app, 'GET', `/default/tags/recommendations/incident/${target.id}`, { token: w.member });
    expect(first.status).toBe(200);
    expect(first.body.items.map((t: { name: string }) => t.name)).toEqual(['latency', 'dns']);
    expect(first.body.total).toBe(2);

    await runTask('tag-model-builder');
    const rebuilt = await call(w.t.app, 'GET', `/default/tags/recommendations/incident/${target.id}`, { token: w.member });
    expect(rebuilt.body.items.map((t: { name: string }) => t.name)).not.toContain('secret-project');
  });

  it('answers 404 for an unknown model, an unknown record, or one the caller may not see', async () => {
    const hidden = (await api(w).create({ visibility: 'Restricted' }, w.owner)).body;
    for (const path of ['signal/1', 'incident/999999', `incident/${hidden.id}`]) {
      const r = await call(w.t.app, 'GET', `/default/tags/recommendations/${path}`, { token: w.member });
      expect(r.status).toBe(404);
      expect(r.body.detail[0].msg).toMatch(/^No model found\. ModelName: \w+ Id: \d+$/);
    }
    const other = await call(w.t.app, 'GET', `/elsewhere/tags/recommendations/incident/${hidden.id}`, { token: w.owner });
    expect(other.status).toBe(404);
  });
});
