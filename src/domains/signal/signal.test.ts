import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld, signals, unique } from '../../../test/worlds/signals.ts';

const w = useWorld();
const s = signals(w);

const count = async () => (await s.instances({ itemsPerPage: 0 })).body.total as number;

describe('signal definitions', () => {
  it('round trip: defaults, references, tags, entity types and filters in body order', async () => {
    const t1 = await s.entityType({ regular_expression: 'a+' });
    const t2 = await s.entityType({ jpath: '$.b' });
    const f1 = (await s.filter({ action: 'deduplicate' })).body;
    const f2 = (await s.filter({})).body;
    const tagType = await call(w.t.app, 'POST', '/default/tag_types', { token: w.owner, body: { name: unique('Kind'), project: { name: 'default' } } });
    const tag = await call(w.t.app, 'POST', '/default/tags', {
      token: w.owner,
      body: { name: unique('tag'), tag_type: { id: tagType.body.id }, project: { name: 'default' } },
    });
    const caseType = (await call(w.t.app, 'GET', '/default/case_types', { token: w.owner })).body.items[0];
    const res = await call(w.t.app, 'POST', '/default/signals', {
      token: w.member,
      body: {
        name: 'Impossible travel',
        owner: 'secops',
        external_id: 'travel-1',
        project: { name: 'default' },
        case_type: { name: caseType.name },
        tags: [{ name: tag.body.name }],
        entity_types: [{ id: t2.id }, { name: t1.name }],
        filters: [{ id: f2.id }, { name: f1.name }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ enabled: false, create_case: true, case_type: { id: caseType.id }, workflows: [], tags: [{ id: tag.body.id }] });
    expect(res.body.filters.map((f: any) => f.id)).toEqual([f2.id, f1.id]);
    expect(res.body.entity_types.map((t: any) => t.id).sort()).toEqual([t1.id, t2.id].sort());
    const id = res.body.id;
    // An update replaces the lists; an omitted one is emptied.
    const put = (body: Record<string, unknown>, token = w.owner) =>
      call(w.t.app, 'PUT', `/default/signals/${id}`, {
        token,
        body: { id, name: 'Impossible travel', owner: 'secops', external_id: 'travel-1', project: { name: 'default' }, ...body },
      });
    expect((await put({ filters: [] }, w.member)).status).toBe(403);
    const upd = await put({ filters: [{ id: f1.id }, { id: f2.id }], enabled: true });
    expect(upd.status).toBe(200);
    expect(upd.body.filters.map((f: any) => f.id)).toEqual([f1.id, f2.id]);
    expect(upd.body).toMatchObject({ enabled: true, tags: [], entity_types: [] });
    expect((await call(w.t.app, 'GET', `/default/signals/${id}`, { token: w.member })).body.filters.map((f: any) => f.id)).toEqual([f1.id, f2.id]);
    const list = await call(w.t.app, 'GET', '/default/signals', { token: w.member, query: { q: 'travel', itemsPerPage: -1 } });
    expect(list.body.items.map((i: any) => i.id)).toEqual([id]);
  });

  it('refuses unknown references, workflows and references into another organization; writes nothing', async () => {
    const before = (await call(w.t.app, 'GET', '/default/signals', { token: w.owner, query: { itemsPerPage: 0 } })).body.total;
    const base = { name: 'Bad', owner: 'x', external_id: 'bad', project: { name: 'default' } };
    const theirs = await call(w.t.app, 'POST', '/elsewhere/signals/filters', {
      token: w.owner,
      body: { name: 'Their filter', expression: [], project: { id: w.elsewhere.projectId } },
    });
    expect(theirs.status).toBe(200);
    const cases = [
      { body: { ...base, filters: [{ name: 'none such' }] }, loc: ['filters', 0] },
      { body: { ...base, entity_types: [{ id: 999999 }] }, loc: ['entity_types', 0] },
      { body: { ...base, workflows: [{ name: 'Run it' }] }, loc: ['workflows', 0] },
      { body: { ...base, case_priority: { name: 'Nope' } }, loc: ['case_priority'] },
      { body: { ...base, filters: [{ id: theirs.body.id }] }, loc: ['filters', 0] },
    ];
    for (const c of cases) {
      const res = await call(w.t.app, 'POST', '/default/signals', { token: w.owner, body: c.body });
      expect(res.status, JSON.stringify(c.body)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(c.loc);
    }
    const missing = await call(w.t.app, 'POST', '/default/signals', { token: w.owner, body: { name: 'x' } });
    expect(missing.status).toBe(422);
    expect((await call(w.t.app, 'GET', '/default/signals', { token: w.owner, query: { itemsPerPage: 0 } })).body.total).toBe(before);
    expect((await call(w.t.app, 'GET', '/default/signals/999999', { token: w.owner })).status).toBe(404);
  });

  it('delete removes the definition (Admin and above)', async () => {
    const def = await s.define({});
    expect((await call(w.t.app, 'DELETE', `/default/signals/${def.body.id}`, { token: w.member })).status).toBe(403);
    expect((await call(w.t.app, 'DELETE', `/default/signals/${def.body.id}`, { token: w.admin })).status).toBe(200);
    expect((await call(w.t.app, 'GET', `/default/signals/${def.body.id}`, { token: w.admin })).status).toBe(404);
  });
});

describe('idempotent ingestion', () => {
  it('the same raw.id answers the same instance and creates nothing new', async () => {
    const { body: def } = await s.define({ variant: unique('idem') });
    const id = randomUUID();
    const first = await s.ingest({ variant: def.variant, id });
    expect(first.status).toBe(200);
    const total = await count();
    const again = await s.ingest({ variant: def.variant, id });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.case.id).toBe(first.body.case.id);
    expect(await count()).toBe(total);
    // Upper case is the same UUID.
    expect((await s.ingest({ variant: def.variant, id: id.toUpperCase() })).body.id).toBe(first.body.id);
    // A raw.id that is not a UUID is no key.
    await s.ingest({ variant: def.variant, id: 'not-a-uuid' });
    await s.ingest({ variant: def.variant, id: 'not-a-uuid' });
    expect(await count()).toBe(total + 2);
  });

  it('an Idempotency-Key header works the same, also for concurrent retries, per organization', async () => {
    const { body: def } = await s.define({ variant: unique('idem') });
    const key = `key-${randomUUID()}`;
    const total = await count();
    const all = await Promise.all(Array.from({ length: 8 }, () => s.ingest({ variant: def.variant }, { headers: { 'idempotency-key': key } })));
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(all.map((r) => r.body.id)).size).toBe(1);
    expect(await count()).toBe(total + 1);
    const cases = (
      await call(w.t.app, 'GET', '/default/cases', {
        token: w.owner,
        query: { itemsPerPage: -1, filter: JSON.stringify([{ field: 'title', op: '==', value: def.name }]) },
      })
    ).body;
    expect(cases.total).toBe(1);
    const long = await s.ingest({ variant: def.variant }, { headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(long.status).toBe(422);
  });
});

describe('bad input', () => {
  it('refuses an oversized raw with 413, a deeply nested one with 422, and stores nothing', async () => {
    const limit = w.t.settings.signalRawLimit;
    const { body: def } = await s.define({ variant: unique('big'), create_case: false });
    const total = await count();
    const ok = await s.ingest({ variant: def.variant, blob: 'x'.repeat(limit - 200) });
    expect(ok.status).toBe(200);
    const big = await s.ingest({ variant: def.variant, blob: 'x'.repeat(limit + 1) });
    expect(big.status).toBe(413);
    expect(big.body.detail[0].msg).toMatch(new RegExp(`limit is ${limit} bytes`));
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 100; i++) deep = { d: deep };
    const nested = await s.ingest({ variant: def.variant, deep });
    expect(nested.status).toBe(422);
    expect(nested.body.detail[0].loc).toEqual(['body', 'raw']);
    expect(await count()).toBe(total + 1);
  });

  it('a regular expression that would backtrack runs in linear time: the instance is stored, the pattern finding nothing', async () => {
    const evil = await s.entityType({ regular_expression: '^(a+)+$' });
    const { body: def } = await s.define({ variant: unique('evil'), entity_types: [{ id: evil.id }] });
    const total = await count();
    // Hours of backtracking for JavaScript's engine; a linear scan for RE2.
    const res = await s.ingest({ variant: def.variant, text: `${'a'.repeat(20_000)}!`, short: 'aaa' });
    expect(res.status).toBe(200);
    expect(res.body.entities.map((e: any) => e.value)).toEqual(['aaa']);
    expect(await count()).toBe(total + 1);
  });

  it('an entity type saved with a pattern RE2 refuses finds nothing; the others still run', async () => {
    const host = await s.entityType({ jpath: '$.host' });
    const old = await s.entityType({ regular_expression: 'placeholder' });
    // Saved before patterns were checked as they are now.
    await w.t.database.query(`UPDATE entity_type SET regular_expression = '(\\w+)-\\1' WHERE id = $1`, [old.id]);
    const { body: def } = await s.define({ variant: unique('old'), entity_types: [{ id: host.id }, { id: old.id }] });
    const res = await s.ingest({ variant: def.variant, host: 'web-web', text: 'abc-abc' });
    expect(res.status).toBe(200);
    expect(res.body.entities.map((e: any) => e.value)).toEqual(['web-web']);
  });

  it('entity types with invalid JSONPath or regex are refused when saved', async () => {
    for (const body of [{ jpath: '$..[' }, { regular_expression: '(' }]) {
      const res = await call(w.t.app, 'POST', '/default/entity_type', {
        token: w.owner,
        body: { name: unique('Broken'), project: { name: 'default' }, ...body },
      });
      expect(res.status).toBe(422);
    }
  });

  it('raw must be an object, and strings in it are kept as sent', async () => {
    const { body: def } = await s.define({ variant: unique('shape'), create_case: false });
    expect((await call(w.t.app, 'POST', '/default/signals/instances', { token: w.member, body: { project: { name: 'default' }, raw: [1] } })).status).toBe(422);
    expect((await call(w.t.app, 'POST', '/default/signals/instances', { token: w.member, body: { project: { name: 'default' } } })).status).toBe(422);
    const res = await s.ingest({ variant: def.variant, text: '  padded  ' });
    expect(res.body.raw.text).toBe('  padded  ');
  });
});

describe('entity endpoints', () => {
  it('cases and instances of an entity within days_back; process re-runs extraction', async () => {
    const ipType = await s.entityType({ regular_expression: '\\b10\\.0\\.0\\.[0-9]+\\b' });
    const { body: def } = await s.define({ variant: unique('ip'), entity_types: [{ id: ipType.id }] });
    const a = await s.ingest({ variant: def.variant, msg: 'from 10.0.0.5' });
    const b = await s.ingest({ variant: def.variant, msg: 'again 10.0.0.5 and 10.0.0.6' });
    await s.ingest({ variant: def.variant, msg: 'old 10.0.0.5' }, { created_at: new Date(Date.now() - 3 * 86400_000).toISOString() });
    const entityId = a.body.entities[0].id;
    const inst = await call(w.t.app, 'GET', `/default/entity/${entityId}/signal_instances/1`, { token: w.member });
    expect(inst.status).toBe(200);
    expect(inst.body.instances.map((i: any) => i.id).sort()).toEqual([a.body.id, b.body.id].sort());
    expect(inst.body.instances[0].signal.id).toBe(def.id);
    expect((await call(w.t.app, 'GET', `/default/entity/${entityId}/signal_instances/7`, { token: w.member })).body.instances).toHaveLength(3);
    const cases = await call(w.t.app, 'GET', `/default/entity/${entityId}/cases/1`, { token: w.member });
    expect(cases.body.cases.map((c: any) => c.id).sort()).toEqual([a.body.case.id, b.body.case.id].sort());
    expect((await call(w.t.app, 'GET', `/default/entity/999999/cases/30`, { token: w.member })).body).toEqual({ cases: [] });
    expect((await call(w.t.app, 'GET', `/default/entity/${entityId}/cases/99999999999`, { token: w.member })).status).toBe(200);

    // Widen the expression and process: earlier instances get the entities it finds now.
    const proc = await call(w.t.app, 'PUT', `/default/entity_type/${ipType.id}/process`, {
      token: w.owner,
      body: { regular_expression: '\\b10\\.0\\.0\\.6\\b' },
    });
    expect(proc.status).toBe(200);
    expect(proc.body.regular_expression).toBe('\\b10\\.0\\.0\\.6\\b');
    const after = (await s.instances({ filter: JSON.stringify([{ model: 'Signal', field: 'id', op: '==', value: def.id }]) })).body.items;
    const values = Object.fromEntries(after.map((i: any) => [i.id, i.entities.map((e: any) => e.value)]));
    expect(values[a.body.id]).toEqual([]);
    expect(values[b.body.id]).toEqual(['10.0.0.6']);
  });
});
