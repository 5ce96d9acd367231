import { beforeAll, describe, expect, it } from 'vitest';
import { later, useWorld, signals, unique } from '../../../test/worlds/signals.ts';

const w = useWorld();
const s = signals(w);
let hostType: { id: number; name: string };
beforeAll(async () => {
  hostType = await s.entityType({ jpath: '$.host' });
});

const T0 = '2030-01-01T00:00:00.000Z';
const onHost = (value: string) => [{ model: 'Entity', field: 'value', op: '==', value }];

/** A definition with these filters (created first, in this order) extracting `host`. */
async function definition(filters: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const ids: number[] = [];
  for (const f of filters) {
    const res = await s.filter(f);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.id);
  }
  const variant = unique('v');
  const def = await s.define({ variant, entity_types: [{ id: hostType.id }], filters: ids.map((id) => ({ id })), ...extra });
  expect(def.status, JSON.stringify(def.body)).toBe(200);
  return { variant, def: def.body, filterIds: ids };
}

describe('deduplicate', () => {
  it('joins the earliest matching instance within the window, inclusive, and not past it', async () => {
    const { variant } = await definition([{ action: 'deduplicate', window: 600, expression: [] }]);
    const first = await s.ingest({ variant, host: 'a' }, { created_at: T0 });
    expect(first.body.case.id).toBeTypeOf('number');
    expect(first.body.filter_action ?? null).toBeNull();
    const edge = await s.ingest({ variant, host: 'a' }, { created_at: later(T0, 600) });
    expect(edge.body.filter_action).toBe('deduplicate');
    expect(edge.body.case.id).toBe(first.body.case.id);
    // Another host: another fingerprint, so its own case.
    const other = await s.ingest({ variant, host: 'b' }, { created_at: later(T0, 601) });
    expect(other.body.filter_action ?? null).toBeNull();
    expect(other.body.case.id).not.toBe(first.body.case.id);
    // 1201 s after the first and 601 s after the second: nothing within the window any more.
    const late = await s.ingest({ variant, host: 'a' }, { created_at: later(T0, 1200.001) });
    expect(late.body.filter_action ?? null).toBeNull();
    expect(late.body.case.id).not.toBe(first.body.case.id);
  });

  it('applies only to instances matching its expression', async () => {
    const { variant } = await definition([{ action: 'deduplicate', expression: onHost('db-1') }]);
    const a1 = await s.ingest({ variant, host: 'db-1' });
    const a2 = await s.ingest({ variant, host: 'db-1' });
    expect(a2.body.filter_action).toBe('deduplicate');
    expect(a2.body.case.id).toBe(a1.body.case.id);
    const b1 = await s.ingest({ variant, host: 'web-1' });
    const b2 = await s.ingest({ variant, host: 'web-1' });
    expect(b2.body.filter_action ?? null).toBeNull();
    expect(b2.body.case.id).not.toBe(b1.body.case.id);
  });

  it('inactive and expired filters do nothing; monitor records what it would have done', async () => {
    const { variant: inactive } = await definition([
      { action: 'deduplicate', mode: 'inactive' },
      { action: 'snooze', mode: 'expired' },
    ]);
    const i1 = await s.ingest({ variant: inactive, host: 'x' });
    const i2 = await s.ingest({ variant: inactive, host: 'x' });
    expect(i2.body.filter_action ?? null).toBeNull();
    expect(i2.body.case.id).not.toBe(i1.body.case.id);
    expect(i2.body.filter_monitor).toEqual([]);

    const { variant, filterIds } = await definition([
      { action: 'deduplicate', mode: 'monitor' },
      { action: 'snooze', mode: 'monitor', expression: onHost('quiet') },
    ]);
    const m1 = await s.ingest({ variant, host: 'quiet' });
    expect(m1.body.filter_monitor).toEqual([expect.objectContaining({ signal_filter_id: filterIds[1], action: 'snooze', case_id: null })]);
    const m2 = await s.ingest({ variant, host: 'quiet' });
    expect(m2.body.filter_action ?? null).toBeNull();
    expect(m2.body.case.id).not.toBe(m1.body.case.id);
    expect(m2.body.filter_monitor).toEqual([
      expect.objectContaining({ signal_filter_id: filterIds[0], action: 'deduplicate', case_id: m1.body.case.id }),
      expect.objectContaining({ signal_filter_id: filterIds[1], action: 'snooze', case_id: null }),
    ]);
  });

  it('concurrent duplicates open exactly one case', async () => {
    const { variant } = await definition([{ action: 'deduplicate' }]);
    const all = await Promise.all(Array.from({ length: 40 }, () => s.ingest({ variant, host: 'burst' })));
    expect(all.map((r) => r.status)).toEqual(Array(40).fill(200));
    const cases = new Set(all.map((r) => r.body.case.id));
    expect(cases.size).toBe(1);
    expect(all.filter((r) => r.body.filter_action === 'deduplicate')).toHaveLength(39);
  });
});

describe('snooze', () => {
  it('snoozes matching instances until its expiration, exclusive', async () => {
    const { variant } = await definition([{ action: 'snooze', expiration: later(T0, 60), expression: onHost('noisy') }]);
    const before = await s.ingest({ variant, host: 'noisy' }, { created_at: later(T0, 59.999) });
    expect(before.body.filter_action).toBe('snooze');
    expect(before.body.case ?? null).toBeNull();
    const other = await s.ingest({ variant, host: 'calm' }, { created_at: later(T0, 1) });
    expect(other.body.filter_action ?? null).toBeNull();
    expect(other.body.case.id).toBeTypeOf('number');
    const at = await s.ingest({ variant, host: 'noisy' }, { created_at: later(T0, 60) });
    expect(at.body.filter_action ?? null).toBeNull();
    expect(at.body.case.id).toBeTypeOf('number');
  });

  it('an expression through the signal or the project (joined under an alias) matches', async () => {
    const { variant, def } = await definition([
      {
        action: 'snooze',
        expression: [
          { model: 'Signal', field: 'variant', op: 'like', value: 'v %' },
          { model: 'Project', field: 'name', op: '==', value: 'default' },
        ],
      },
    ]);
    const res = await s.ingest({ variant, host: 'x' });
    expect(res.status).toBe(200);
    expect(res.body.filter_action).toBe('snooze');
    expect(res.body.signal.id).toBe(def.id);
  });

  it('an expression over the instance itself and its entity types matches the new instance as it will be stored', async () => {
    const { variant } = await definition([
      {
        action: 'snooze',
        expression: [
          { field: 'raw', op: 'like', value: '%"host": "loud"%' },
          { field: 'case_id', op: '==', value: null },
        ],
      },
      { action: 'deduplicate', expression: [{ or: [{ model: 'EntityType', field: 'id', op: '==', value: hostType.id }] }] },
    ]);
    const loud = await s.ingest({ variant, host: 'loud' });
    expect(loud.body.filter_action).toBe('snooze');
    const first = await s.ingest({ variant, host: 'calm' });
    expect(first.body.filter_action ?? null).toBeNull();
    const again = await s.ingest({ variant, host: 'calm' });
    expect(again.body.filter_action).toBe('deduplicate');
    expect(again.body.case.id).toBe(first.body.case.id);
  });

  it('without expiration snoozes for good; an empty expression matches everything; the first filter that acts wins', async () => {
    const { variant } = await definition([{ action: 'snooze' }, { action: 'deduplicate' }]);
    const a = await s.ingest({ variant, host: 'q' });
    const b = await s.ingest({ variant, host: 'q' });
    expect([a.body.filter_action, b.body.filter_action]).toEqual(['snooze', 'snooze']);
  });

  it('snoozed instances are not what later duplicates join', async () => {
    const { variant } = await definition([{ action: 'snooze', expiration: later(T0, 10) }, { action: 'deduplicate' }]);
    const snoozed = await s.ingest({ variant, host: 'z' }, { created_at: T0 });
    expect(snoozed.body.filter_action).toBe('snooze');
    const next = await s.ingest({ variant, host: 'z' }, { created_at: later(T0, 20) });
    expect(next.body.filter_action ?? null).toBeNull();
    expect(next.body.case.id).toBeTypeOf('number');
    const dup = await s.ingest({ variant, host: 'z' }, { created_at: later(T0, 30) });
    expect(dup.body.filter_action).toBe('deduplicate');
    expect(dup.body.case.id).toBe(next.body.case.id);
  });
});

describe('filter records', () => {
  it('refuse expressions ingestion could not run, when saved', async () => {
    const bad = [
      [{ field: 'nope', op: '==', value: 1 }],
      [{ model: 'Entity', field: 'value', op: 'regex', value: 'x' }],
      [{ model: 'Incident', field: 'title', value: 'x' }],
      [{ and: [] }],
      [{ field: 'created_at', op: '>', value: 'not a date' }],
    ];
    for (const expression of bad) {
      const res = await s.filter({ expression });
      expect(res.status, JSON.stringify(expression)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['expression']);
    }
    const ok = await s.filter({
      expression: [
        {
          or: [
            { model: 'EntityType', field: 'name', op: 'in', value: ['a', 'b'] },
            { model: 'Signal', field: 'name', op: 'ilike', value: '%x%' },
          ],
        },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ mode: 'active', action: 'snooze', window: 600, expiration: null });
    const upd = await s.filter({ expression: [] });
    const bad2 = await w.t.app.inject({
      method: 'PUT',
      url: `/api/v1/default/signals/filters/${upd.body.id}`,
      headers: { authorization: `Bearer ${w.owner}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ id: upd.body.id, name: upd.body.name, expression: [{ field: 'x', value: 1 }] }),
    });
    expect(bad2.statusCode).toBe(422);
  });

  it('list, update and delete; duplicate names are 422; members may not change them', async () => {
    const name = unique('Named filter');
    const f = await s.filter({ name, action: 'deduplicate', window: 30, mode: 'monitor' });
    expect(f.body).toMatchObject({ name, action: 'deduplicate', window: 30, mode: 'monitor' });
    const dup = await s.filter({ name });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0]).toMatchObject({ loc: ['name'], type: 'value_error.exists' });
    const call = (method: string, token: string, body?: unknown) =>
      w.t.app.inject({
        method: method as never,
        url: `/api/v1/default/signals/filters/${f.body.id}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await call('PUT', w.member, { id: f.body.id, name, expression: [] })).statusCode).toBe(403);
    const upd = await call('PUT', w.admin, { id: f.body.id, name, expression: onHost('h'), mode: 'active', expiration: T0 });
    expect(upd.statusCode).toBe(200);
    expect(JSON.parse(upd.body)).toMatchObject({ mode: 'active', action: 'deduplicate', window: 30, expiration: T0, expression: onHost('h') });
    const list = await w.t.app.inject({
      method: 'GET',
      url: `/api/v1/default/signals/filters?itemsPerPage=-1&filter=${encodeURIComponent(JSON.stringify([{ field: 'name', op: '==', value: name }]))}`,
      headers: { authorization: `Bearer ${w.member}` },
    });
    expect(JSON.parse(list.body).total).toBe(1);
    expect((await call('DELETE', w.admin)).statusCode).toBe(200);
    expect((await call('DELETE', w.admin)).statusCode).toBe(404);
  });
});
