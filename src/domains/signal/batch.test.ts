// Ingestion in batches (flows.ts): concurrent requests of one caller are written together, yet each
// answers as if it had been ingested alone. The answers of new instances are built from what was
// stored (reader.ts readStored), so they are compared here with the instance list's read.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { call, type Res } from '../../../test/helpers.ts';
import { drainJobs } from '../../../test/jobs.ts';
import type { BatcherOptions, Settled } from '../../lib/batcher.ts';
import { useWorld, signals, unique } from '../../../test/worlds/signals.ts';

// The sizes of the batches ingestion runs, to check that a burst really shares batches (else these
// tests would only test one request at a time).
const batchSizes = vi.hoisted(() => [] as number[]);
vi.mock('../../lib/batcher.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../lib/batcher.ts')>();
  class KeyedBatcher<I, O> extends real.KeyedBatcher<I, O> {
    constructor(run: (items: I[]) => Promise<Settled<O>[]>, options: BatcherOptions) {
      super((items) => {
        batchSizes.push(items.length);
        return run(items);
      }, options);
    }
  }
  return { ...real, KeyedBatcher };
});

/** `n` requests sent at once; at least some of them must have been ingested together. */
async function burst(n: number, request: (i: number) => Promise<Res>): Promise<Res[]> {
  batchSizes.length = 0;
  const all = await Promise.all(Array.from({ length: n }, (_, i) => request(i)));
  expect(Math.max(...batchSizes), `batch sizes ${batchSizes}`).toBeGreaterThan(1);
  return all;
}

const w = useWorld();
const s = signals(w);
let hostType: { id: number; name: string };
let userType: { id: number; name: string };
beforeAll(async () => {
  hostType = await s.entityType({ jpath: '$.host' });
  userType = await s.entityType({ regular_expression: '\\buser-[0-9]+\\b' });
});

const count = async () => (await s.instances({ itemsPerPage: 0 })).body.total as number;

/** A definition (its filters created first), answered as stored. */
async function definition(body: Record<string, unknown>, filters: Record<string, unknown>[] = []) {
  const ids: number[] = [];
  for (const f of filters) ids.push((await s.filter(f)).body.id);
  const res = await s.define({
    variant: unique('batch'),
    entity_types: [{ id: hostType.id }, { id: userType.id }],
    filters: ids.map((id) => ({ id })),
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; name: string; variant: string };
}

/** The stored instances of a definition, read through the instance list, by id. */
async function storedOf(defId: number): Promise<Map<string, any>> {
  const res = await s.instances({ filter: JSON.stringify([{ model: 'Signal', field: 'id', op: '==', value: defId }]) });
  expect(res.status).toBe(200);
  return new Map(res.body.items.map((i: any) => [i.id, i]));
}

const FIELDS = ['id', 'created_at', 'fingerprint', 'filter_action', 'filter_monitor', 'project', 'signal', 'entities', 'case', 'raw'];

/** The POST answer is the stored instance: field by field (raw deep-equal: jsonb reorders keys), and nothing else. */
function expectSameAsStored(answer: any, stored: any) {
  expect(stored, `instance ${answer.id} is stored`).toBeDefined();
  for (const field of FIELDS) expect(answer[field], field).toEqual(stored[field]);
  expect(Object.keys(answer).sort()).toEqual(Object.keys(stored).sort());
}

const statuses = (all: Res[]) => all.map((r) => r.status);

describe('the answer of a new instance', () => {
  it('is what the instance list reads back: entities, case, monitor hits and raw', async () => {
    // A monitor filter so that filter_monitor is not empty; raw with keys out of jsonb's order.
    const def = await definition({ description: 'Read back' }, [{ action: 'snooze', mode: 'monitor' }]);
    const raw = { variant: def.variant, zeta: 1, host: 'web-1', actor: 'user-7', nested: { b: [1, 'two', null, { y: true }], a: 1.5 }, ünï: 'çødé ✓' };
    const res = await s.ingest(raw, { created_at: '2031-02-03T04:05:06.789Z' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created_at).toBe('2031-02-03T04:05:06.789Z');
    expect(res.body.entities.map((e: any) => e.value).sort()).toEqual(['user-7', 'web-1']);
    expect(res.body.filter_monitor).toEqual([expect.objectContaining({ action: 'snooze', case_id: null })]);
    expect(res.body.case).toMatchObject({ title: def.name, description: 'Read back' });
    expect(res.body.raw).toEqual(raw);
    expectSameAsStored(res.body, (await storedOf(def.id)).get(res.body.id));
  });

  it('is what is stored for every instance of a burst: opened, deduplicated, caseless', async () => {
    // A monitoring deduplicate filter before the active one: a duplicate records the case it would
    // have joined, which is opened in the same batch.
    const dedup = await definition({}, [{ action: 'deduplicate', mode: 'monitor' }, { action: 'deduplicate' }]);
    const quiet = await definition({ create_case: false });
    const all = await burst(12, (i) =>
      s.ingest(i % 3 === 2 ? { variant: quiet.variant, host: `q-${i}` } : { variant: dedup.variant, host: `h-${i % 2}`, actor: 'user-1', n: i }),
    );
    expect(statuses(all)).toEqual(Array(12).fill(200));
    // Two fingerprints in the deduplicated definition: two openers, six duplicates.
    const actions = all.filter((r) => r.body.signal.id === dedup.id).map((r) => r.body.filter_action ?? null);
    expect(actions.filter((a) => a === null)).toHaveLength(2);
    expect(actions.filter((a) => a === 'deduplicate')).toHaveLength(6);
    for (const r of all.filter((x) => x.body.filter_action === 'deduplicate')) {
      expect(r.body.filter_monitor).toEqual([expect.objectContaining({ action: 'deduplicate', case_id: r.body.case.id })]);
    }
    const stored = new Map([...(await storedOf(dedup.id)), ...(await storedOf(quiet.id))]);
    expect(stored.size).toBe(12);
    for (const r of all) expectSameAsStored(r.body, stored.get(r.body.id));
  });
});

describe('the cases a batch opens', () => {
  it('each get their tactical group, told on their own timeline', async () => {
    const def = await definition({});
    const all = await burst(6, (i) => s.ingest({ variant: def.variant, host: `grouped-${i}` }));
    expect(statuses(all)).toEqual(Array(6).fill(200));
    await drainJobs(w.t.database, w.t.settings);
    for (const r of all) {
      const read = (await call(w.t.app, 'GET', `/default/cases/${r.body.case.id}`, { token: w.owner })).body;
      expect(read.groups, `case ${read.id}`).toEqual([expect.objectContaining({ email: expect.stringContaining(read.name.toLowerCase()) })]);
      const told = read.events.filter((e: any) => e.description.startsWith('Tactical group created'));
      expect(told.map((e: any) => e.details.group.email)).toEqual([read.groups[0].email]);
    }
  });
});

describe('a burst of requests', () => {
  it('good ones are stored, each bad one fails alone with its own error, nothing half-written', async () => {
    const good = await definition({});
    const off = [await definition({ enabled: false, name: unique('Off') }), await definition({ enabled: false, name: unique('Off') })];
    const before = await count();
    const bodies = Array.from({ length: 30 }, (_, i) => {
      if (i % 5 === 1) return { variant: `missing-${i}` };
      if (i % 5 === 3) return { variant: off[i % 2].variant };
      return { variant: good.variant, host: `host-${i}` };
    });
    const all = await burst(bodies.length, (i) => s.ingest(bodies[i]));
    all.forEach((r, i) => {
      if (i % 5 === 1) {
        expect(r.status, `#${i}`).toBe(404);
        expect(r.body).toEqual({ detail: [{ msg: `No signal definition found. Id: None Variant: missing-${i}` }] });
      } else if (i % 5 === 3) {
        expect(r.status, `#${i}`).toBe(400);
        expect(r.body).toEqual({ detail: [{ msg: `Signal definition not enabled. SignalName: ${off[i % 2].name}` }] });
      } else {
        expect(r.status, `#${i}`).toBe(200);
        expect(r.body.raw).toEqual(bodies[i]);
        expect(r.body.entities.map((e: any) => e.value)).toEqual([`host-${i}`]);
      }
    });
    const goodIds = all.filter((r) => r.status === 200).map((r) => r.body.id);
    expect(goodIds).toHaveLength(18);
    expect(new Set(goodIds).size).toBe(18);
    expect(await count()).toBe(before + 18);
    expect([...(await storedOf(good.id)).keys()].sort()).toEqual(goodIds.sort());
    // Each stored instance opened its own case (one case per instance, no orphans).
    const cases = await call(w.t.app, 'GET', '/default/cases', {
      token: w.owner,
      query: { itemsPerPage: 0, filter: JSON.stringify([{ field: 'title', op: '==', value: good.name }]) },
    });
    expect(cases.body.total).toBe(18);
  });

  it('a request PostgreSQL refuses fails the batch transaction: the others are ingested alone and succeed', async () => {
    // jsonb has no \u0000: the insert of the whole batch fails, then each request is retried by itself.
    const def = await definition({ create_case: false });
    const before = await count();
    const bodies = Array.from({ length: 9 }, (_, i) =>
      i === 4 ? { variant: def.variant, text: 'nul \u0000 inside' } : { variant: def.variant, host: `n-${i}` },
    );
    const all = await burst(bodies.length, (i) => s.ingest(bodies[i]));
    expect(statuses(all)).toEqual([200, 200, 200, 200, 422, 200, 200, 200, 200]);
    expect(all[4].body.detail[0]).toMatchObject({ loc: ['body'], msg: 'Invalid value: unsupported Unicode escape sequence' });
    expect(await count()).toBe(before + 8);
    const stored = await storedOf(def.id);
    for (const r of all.filter((x) => x.status === 200)) expectSameAsStored(r.body, stored.get(r.body.id));
  });

  it('duplicates of one fingerprint open exactly one case; the first opens it, the others join it', async () => {
    const def = await definition({}, [{ action: 'deduplicate' }]);
    // Two fingerprints interleaved: one case each.
    const all = await burst(16, (i) => s.ingest({ variant: def.variant, host: i % 2 ? 'odd' : 'even', n: i }));
    expect(statuses(all)).toEqual(Array(16).fill(200));
    for (const host of ['even', 'odd']) {
      const group = all.filter((r) => r.body.raw.host === host).map((r) => r.body);
      expect(group).toHaveLength(8);
      expect(new Set(group.map((i) => i.fingerprint)).size).toBe(1);
      const openers = group.filter((i) => (i.filter_action ?? null) === null);
      expect(openers).toHaveLength(1);
      const [opener] = openers;
      expect(opener.case.id).toBeTypeOf('number');
      expect(group.filter((i) => i.filter_action === 'deduplicate')).toHaveLength(7);
      expect(new Set(group.map((i) => i.case.id))).toEqual(new Set([opener.case.id]));
      // The opener is the first by creation time.
      for (const i of group) expect(Date.parse(i.created_at)).toBeGreaterThanOrEqual(Date.parse(opener.created_at));
    }
    expect(all.find((r) => r.body.raw.host === 'even')!.body.case.id).not.toBe(all.find((r) => r.body.raw.host === 'odd')!.body.case.id);
    const cases = await call(w.t.app, 'GET', '/default/cases', {
      token: w.owner,
      query: { itemsPerPage: -1, filter: JSON.stringify([{ field: 'title', op: '==', value: def.name }]) },
    });
    expect(cases.body.total).toBe(2);
    const stored = [...(await storedOf(def.id)).values()];
    expect(stored).toHaveLength(16);
    expect(stored.filter((i) => i.filter_action === 'deduplicate')).toHaveLength(14);
  });
});

describe('batches of several callers racing (one batch per caller; on PostgreSQL they run side by side)', () => {
  const callers = () => [w.member, w.owner, w.admin];

  it('duplicates still open exactly one case', async () => {
    const def = await definition({}, [{ action: 'deduplicate' }]);
    const all = await burst(12, (i) => s.ingest({ variant: def.variant, host: 'raced', n: i }, { token: callers()[i % 3] }));
    expect(statuses(all)).toEqual(Array(12).fill(200));
    expect(new Set(all.map((r) => r.body.case.id)).size).toBe(1);
    expect(all.filter((r) => (r.body.filter_action ?? null) === null)).toHaveLength(1);
  });

  it('a new entity found by several batches at once is one entity, linked to every instance', async () => {
    // The batches that lose the race to create it find it afterwards (store.ts linkLateEntities).
    const def = await definition({ create_case: false });
    const value = `fresh-${randomUUID()}`;
    const all = await burst(12, (i) => s.ingest({ variant: def.variant, host: value, n: i }, { token: callers()[i % 3] }));
    expect(statuses(all)).toEqual(Array(12).fill(200));
    const entityIds = all.map((r) => r.body.entities.map((e: any) => e.id));
    expect(entityIds.every((ids) => ids.length === 1)).toBe(true);
    expect(new Set(entityIds.flat()).size).toBe(1);
    const stored = await storedOf(def.id);
    for (const r of all) expectSameAsStored(r.body, stored.get(r.body.id));
    const linked = await call(w.t.app, 'GET', `/default/entity/${entityIds[0][0]}/signal_instances/1`, { token: w.member });
    expect(linked.body.instances.map((i: any) => i.id).sort()).toEqual(all.map((r) => r.body.id).sort());
  });
});

describe('idempotency keys within a burst', () => {
  it('requests sharing a key (header or raw.id) answer one instance, stored once; others are unaffected', async () => {
    const def = await definition({});
    const header = `burst-${randomUUID()}`;
    const rawId = randomUUID();
    const before = await count();
    const all = await burst(15, (i) => {
      if (i < 6) return s.ingest({ variant: def.variant, host: `hk-${i}` }, { headers: { 'idempotency-key': header } });
      if (i < 12) return s.ingest({ variant: def.variant, id: i % 2 ? rawId : rawId.toUpperCase(), host: `rid-${i}` });
      return s.ingest({ variant: def.variant, host: `free-${i}` });
    });
    expect(statuses(all)).toEqual(Array(15).fill(200));
    const byHeader = all.slice(0, 6).map((r) => r.body);
    const byRawId = all.slice(6, 12).map((r) => r.body);
    expect(new Set(byHeader.map((i) => i.id)).size).toBe(1);
    expect(new Set(byRawId.map((i) => i.id)).size).toBe(1);
    expect(byHeader[0].id).not.toBe(byRawId[0].id);
    // Everyone with the key gets the same instance: one body, one case.
    for (const i of byHeader) expect(i).toEqual(byHeader[0]);
    for (const i of byRawId) expect(i).toEqual(byRawId[0]);
    expect(new Set(all.slice(12).map((r) => r.body.id)).size).toBe(3);
    expect(await count()).toBe(before + 5);
    const stored = await storedOf(def.id);
    expect(stored.size).toBe(5);
    expectSameAsStored(byHeader[0], stored.get(byHeader[0].id));
  });

  it('one key from three callers at once (a batch each, racing) is still one instance', async () => {
    const def = await definition({});
    const key = `two-callers-${randomUUID()}`;
    const before = await count();
    const tokens = [w.member, w.owner, w.admin, w.member, w.owner, w.admin];
    const all = await burst(6, (i) => s.ingest({ variant: def.variant, host: `c-${i}` }, { token: tokens[i], headers: { 'idempotency-key': key } }));
    expect(statuses(all)).toEqual(Array(6).fill(200));
    expect(new Set(all.map((r) => r.body.id)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('when the first request of a key fails, the others with that key fail the same way', async () => {
    const key = `fails-${randomUUID()}`;
    const before = await count();
    const all = await burst(4, () => s.ingest({ variant: 'nobody-has-this' }, { headers: { 'idempotency-key': key } }));
    expect(statuses(all)).toEqual([404, 404, 404, 404]);
    for (const r of all) expect(r.body).toEqual({ detail: [{ msg: 'No signal definition found. Id: None Variant: nobody-has-this' }] });
    expect(await count()).toBe(before);
  });
});

describe('idempotency keys and failures', () => {
  // A request leads its key only once it can be ingested: when the first request fails on its own
  // (here a filter whose expression was saved before it could be checked), nothing is stored under
  // the key, so the next request with the key is ingested (as it would be one after the other).
  it('a key whose first request fails does not fail another request with that key', async () => {
    const broken = (await s.filter({ action: 'snooze' })).body;
    await w.t.database.query(`UPDATE signal_filter SET expression = '[{"model":"Nowhere","field":"x","op":"==","value":1}]'::jsonb WHERE id = $1`, [broken.id]);
    const bad = await definition({ filters: [{ id: broken.id }] });
    const good = await definition({ create_case: false });
    const headers = { 'idempotency-key': `leader-fails-${randomUUID()}` };
    const all = await burst(2, (i) => s.ingest(i === 0 ? { variant: bad.variant, host: 'h' } : { variant: good.variant, host: 'h' }, { headers }));
    expect(statuses(all)).toEqual([422, 200]);
  });
});

describe('entity extraction in a burst', () => {
  it('a regular expression that would backtrack holds up no request of the batch: all are extracted and stored', async () => {
    const evil = await s.entityType({ regular_expression: '^(a+)+$' });
    const bad = await definition({ entity_types: [{ id: evil.id }] });
    const good = await definition({ create_case: false });
    const before = await count();
    const all = await burst(9, (i) =>
      i === 3 ? s.ingest({ variant: bad.variant, text: `${'a'.repeat(20_000)}!` }) : s.ingest({ variant: good.variant, host: `ok-${i}`, who: `user-${i}` }),
    );
    expect(statuses(all)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200]);
    expect(all[3].body.entities).toEqual([]);
    all.forEach((r, i) => {
      if (i !== 3) expect(r.body.entities.map((e: any) => e.value).sort()).toEqual([`ok-${i}`, `user-${i}`]);
    });
    expect(await count()).toBe(before + 9);
    expect((await storedOf(bad.id)).size).toBe(1);
  });
});
