// Signal instances of a case the caller may not see: listed (their `case` null), but no filter or
// sort through the case, its id or the instance's `case_id` reveals anything of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { createWorld, signals, type World } from '../../../test/worlds/signals.ts';

let w: World;
let s: ReturnType<typeof signals>;
let hidden: { id: number; name: string; title: string };
let seen: { id: number; name: string; title: string };
let hiddenInstance: string;
let seenInstance: string;

const filterBy = (spec: unknown, token = w.member) => s.instances({ filter: JSON.stringify(spec) }, token);
const ids = (res: any) => res.body.items.map((i: any) => i.id).sort();

beforeAll(async () => {
  w = await createWorld();
  s = signals(w);
  await s.define({ name: 'Secret exfiltration', variant: 'secret' });
  await s.define({ name: 'Noisy scan', variant: 'noisy' });
  const a = await s.ingest({ variant: 'secret', host: 'db-1' }, { token: w.owner });
  const b = await s.ingest({ variant: 'noisy', host: 'web-1' }, { token: w.owner });
  expect([a.status, b.status]).toEqual([200, 200]);
  hiddenInstance = a.body.id;
  seenInstance = b.body.id;
  hidden = a.body.case;
  seen = b.body.case;
  const made = await call(w.t.app, 'PUT', `/default/cases/${hidden.id}`, {
    token: w.owner,
    body: { title: hidden.title, description: 'Restricted now', visibility: 'Restricted' },
  });
  expect(made.status).toBe(200);
});
afterAll(() => w.t.close());

describe('signal instances of a restricted case', () => {
  it('are listed with their case null', async () => {
    const all = await s.instances({}, w.member);
    expect(ids(all)).toEqual([hiddenInstance, seenInstance].sort());
    expect(all.body.items.find((i: any) => i.id === hiddenInstance).case).toBeNull();
  });

  it('a filter through Case matches only cases the caller may see', async () => {
    for (const [field, value] of [
      ['title', hidden.title],
      ['name', hidden.name],
      ['id', hidden.id],
    ] as const) {
      expect((await filterBy([{ model: 'Case', field, op: '==', value }])).body).toMatchObject({ total: 0, items: [] });
      expect((await filterBy([{ model: 'Case', field, op: '==', value }], w.owner)).body.total).toBe(1);
    }
    // Walking the title letter by letter finds nothing either.
    expect((await filterBy([{ model: 'Case', field: 'title', op: 'like', value: 'S%' }])).body.total).toBe(0);
    expect((await filterBy([{ model: 'Case', field: 'title', op: 'like', value: 'S%' }], w.owner)).body.total).toBe(1);
    expect(ids(await filterBy([{ model: 'Case', field: 'title', op: 'like', value: 'N%' }]))).toEqual([seenInstance]);
    // A negation matches as for an unknown title: the hidden case is not there to exclude.
    const not = await filterBy({ not: [{ model: 'Case', field: 'title', op: '==', value: hidden.title }] });
    const unknown = await filterBy({ not: [{ model: 'Case', field: 'title', op: '==', value: 'No such title' }] });
    expect(ids(not)).toEqual(ids(unknown));
  });

  it("the instance's case_id does not name the hidden case", async () => {
    expect((await filterBy([{ field: 'case_id', op: '==', value: hidden.id }])).body.total).toBe(0);
    expect((await filterBy([{ model: 'SignalInstance', field: 'case_id', op: 'in', value: [hidden.id] }])).body.total).toBe(0);
    expect((await filterBy([{ field: 'case_id', op: '==', value: hidden.id }], w.owner)).body.total).toBe(1);
    expect(ids(await filterBy([{ field: 'case_id', op: '==', value: seen.id }]))).toEqual([seenInstance]);
    // As for an instance without a case.
    expect(ids(await filterBy([{ field: 'case_id', op: 'is_null' }]))).toEqual([hiddenInstance]);
    expect((await filterBy([{ field: 'case_id', op: 'is_null' }], w.owner)).body.total).toBe(0);
  });

  it('sorting by the case sorts the hidden one as no case', async () => {
    for (const sortBy of ['case.title', 'case_id']) {
      const res = await s.instances({ 'sortBy[]': sortBy, 'descending[]': false }, w.member);
      expect(res.status).toBe(200);
      expect(res.body.items.map((i: any) => i.id)).toEqual([hiddenInstance, seenInstance]);
    }
  });
});
