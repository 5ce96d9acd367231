import { describe, expect, it } from 'vitest';
import { Batcher, KeyedBatcher, type Settled } from './batcher.ts';
import { singleFlight } from './single-flight.ts';

/** A promise settled from outside. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets scheduled batches start (they start on setImmediate) and their callbacks run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const ok = <O>(value: O | PromiseLike<O>): Settled<O> => ({ ok: true, value });

/** A run that records each batch and holds it until the test releases it. */
function heldRun() {
  const batches: { items: number[]; release: (results?: Settled<string>[]) => void; fail: (error: unknown) => void }[] = [];
  const run = (items: number[]) => {
    const d = deferred<Settled<string>[]>();
    batches.push({ items, release: (results) => d.resolve(results ?? items.map((i) => ok(`v${i}`))), fail: d.reject });
    return d.promise;
  };
  return { batches, run };
}

describe('Batcher', () => {
  it('a lone item runs in a batch of one on the next turn', async () => {
    const { batches, run } = heldRun();
    const b = new Batcher(run, { maxBatch: 10, maxInFlight: 1 });
    const answer = b.submit(7);
    expect(batches).toHaveLength(0); // not synchronously: the rest of this turn may join
    await turn();
    expect(batches.map((x) => x.items)).toEqual([[7]]);
    batches[0].release();
    await expect(answer).resolves.toBe('v7');
    expect(b.idle).toBe(true);
  });

  it('items submitted in the same turn share one batch, each answered with its own result', async () => {
    const { batches, run } = heldRun();
    const b = new Batcher(run, { maxBatch: 10, maxInFlight: 1 });
    const answers = [1, 2, 3].map((i) => b.submit(i));
    await turn();
    expect(batches.map((x) => x.items)).toEqual([[1, 2, 3]]);
    batches[0].release();
    expect(await Promise.all(answers)).toEqual(['v1', 'v2', 'v3']);
  });

  it('respects maxBatch: a burst is cut into batches of at most maxBatch, in order', async () => {
    const { batches, run } = heldRun();
    const b = new Batcher(run, { maxBatch: 2, maxInFlight: 10 });
    const answers = [1, 2, 3, 4, 5].map((i) => b.submit(i));
    await turn();
    expect(batches.map((x) => x.items)).toEqual([[1, 2], [3, 4], [5]]);
    for (const x of batches) x.release();
    expect(await Promise.all(answers)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
  });

  it('respects maxInFlight: later items wait, then go together when a batch finishes', async () => {
    const { batches, run } = heldRun();
    const b = new Batcher(run, { maxBatch: 2, maxInFlight: 2 });
    const answers = [1, 2, 3, 4, 5].map((i) => b.submit(i));
    await turn();
    expect(batches.map((x) => x.items)).toEqual([
      [1, 2],
      [3, 4],
    ]); // 5 waits for a free slot
    const late = [6, 7].map((i) => b.submit(i));
    await turn();
    expect(batches).toHaveLength(2); // still two in flight
    batches[1].release();
    await turn();
    expect(batches.map((x) => x.items)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(b.idle).toBe(false);
    batches[0].release();
    await turn();
    expect(batches.map((x) => x.items)).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    for (const x of batches.slice(2)) x.release();
    expect(await Promise.all([...answers, ...late])).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7']);
    expect(b.idle).toBe(true);
  });

  it('a failed item rejects only that item', async () => {
    const { batches, run } = heldRun();
    const b = new Batcher(run, { maxBatch: 10, maxInFlight: 1 });
    const answers = [1, 2, 3].map((i) => b.submit(i));
    await turn();
    const boom = new Error('item 2');
    batches[0].release([ok('a'), { ok: false, error: boom }, ok('c')]);
    const settled = await Promise.allSettled(answers);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: boom },
      { status: 'fulfilled', value: 'c' },
    ]);
  });

  it('a run that throws rejects every item of its batch, and only of its batch', async () => {
    const { batches, run } = heldRun();
    const b = new Batcher(run, { maxBatch: 2, maxInFlight: 2 });
    const answers = [1, 2, 3].map((i) => b.submit(i));
    await turn();
    const boom = new Error('transaction failed');
    batches[0].fail(boom);
    batches[1].release();
    const settled = await Promise.allSettled(answers);
    expect(settled).toEqual([
      { status: 'rejected', reason: boom },
      { status: 'rejected', reason: boom },
      { status: 'fulfilled', value: 'v3' },
    ]);
    // The batcher goes on after a failure.
    const next = b.submit(4);
    await turn();
    batches[2].release();
    await expect(next).resolves.toBe('v4');
  });

  it('a run answering fewer results than items rejects the items left without one', async () => {
    const b = new Batcher(async (items: number[]) => items.slice(1).map((i) => ok(i)), { maxBatch: 10, maxInFlight: 1 });
    const settled = await Promise.allSettled([1, 2].map((i) => b.submit(i)));
    expect(settled[0]).toEqual({ status: 'fulfilled', value: 2 });
    expect(settled[1]).toMatchObject({ status: 'rejected', reason: { message: 'batch answered fewer results than items' } });
  });

  it('a value that is a promise answers later, while the next batch already runs', async () => {
    const later = deferred<string>();
    const runs: number[][] = [];
    const b = new Batcher(
      async (items: number[]) => {
        runs.push(items);
        return items.map((i) => ok(i === 1 ? later.promise : `v${i}`));
      },
      { maxBatch: 1, maxInFlight: 1 },
    );
    let first: string | undefined;
    const a1 = b.submit(1).then((v) => (first = v));
    const a2 = b.submit(2);
    // The second batch runs and answers although the first item's value is still pending.
    await expect(a2).resolves.toBe('v2');
    expect(runs).toEqual([[1], [2]]);
    expect(first).toBeUndefined();
    later.resolve('v1');
    await a1;
    expect(first).toBe('v1');
  });
});

describe('KeyedBatcher', () => {
  it('never mixes keys in one batch; keys run side by side', async () => {
    const { batches, run } = heldRun();
    const kb = new KeyedBatcher(run, { maxBatch: 10, maxInFlight: 1 });
    // Items 1x of key a, 2x of key b, interleaved in one turn.
    const answers = [
      ['a', 11],
      ['b', 21],
      ['a', 12],
      ['b', 22],
      ['a', 13],
    ].map(([k, i]) => kb.submit(k as string, i as number));
    await turn();
    // maxInFlight 1 is per key: both keys' batches are in flight at once.
    expect(batches.map((x) => x.items)).toEqual([
      [11, 12, 13],
      [21, 22],
    ]);
    for (const x of batches) x.release();
    expect(await Promise.all(answers)).toEqual(['v11', 'v21', 'v12', 'v22', 'v13']);
  });

  it('a key used again after going idle gets batches again', async () => {
    const runs: string[][] = [];
    const kb = new KeyedBatcher(
      async (items: string[]) => {
        runs.push(items);
        return items.map((i) => ok(i.toUpperCase()));
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    expect(await kb.submit('k', 'x')).toBe('X');
    await turn();
    expect(await Promise.all([kb.submit('k', 'y'), kb.submit('k', 'z')])).toEqual(['Y', 'Z']);
    expect(runs).toEqual([['x'], ['y', 'z']]);
  });
});

describe('singleFlight', () => {
  /** A single-flight function whose calls of `run` are recorded and held. */
  function held() {
    const calls: { args: [string, number]; d: ReturnType<typeof deferred<string>> }[] = [];
    const f = singleFlight(
      (name: string, n: number) => `${name}:${n}`,
      (name: string, n: number) => {
        const d = deferred<string>();
        calls.push({ args: [name, n], d });
        return d.promise;
      },
    );
    return { calls, f };
  }

  it('concurrent identical keys share one call; different keys do not', async () => {
    const { calls, f } = held();
    const a1 = f('ann', 1);
    const a2 = f('ann', 1);
    const b = f('ann', 2);
    expect(calls.map((c) => c.args)).toEqual([
      ['ann', 1],
      ['ann', 2],
    ]);
    calls[0].d.resolve('first');
    calls[1].d.resolve('second');
    expect(await Promise.all([a1, a2, b])).toEqual(['first', 'first', 'second']);
  });

  it('once settled, nothing is kept: the next call runs again', async () => {
    const { calls, f } = held();
    const a1 = f('ann', 1);
    calls[0].d.resolve('old');
    expect(await a1).toBe('old');
    const a2 = f('ann', 1);
    expect(calls).toHaveLength(2);
    calls[1].d.resolve('new');
    expect(await a2).toBe('new');
  });

  it('a rejection reaches every waiter and is not kept', async () => {
    const { calls, f } = held();
    const waiters = [f('ann', 1), f('ann', 1), f('ann', 1)];
    expect(calls).toHaveLength(1);
    const boom = new Error('lookup failed');
    calls[0].d.reject(boom);
    const settled = await Promise.allSettled(waiters);
    expect(settled).toEqual(Array(3).fill({ status: 'rejected', reason: boom }));
    const retry = f('ann', 1);
    expect(calls).toHaveLength(2);
    calls[1].d.resolve('recovered');
    await expect(retry).resolves.toBe('recovered');
  });
});
