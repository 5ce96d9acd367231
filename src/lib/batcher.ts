// Group commit: work that arrives while earlier work is being written is written together, by one
// call of `run` (one transaction with a fixed number of statements) instead of one call each. A lone
// item goes at once, in a batch of one; under a burst the batches grow by themselves, and the round
// trips per item shrink as the load grows. Nothing is shared between nodes: a batch is only the
// requests this process holds at the moment, and each answers when its batch has committed.

/**
 * The outcome of one item of a batch: its value, or the error that item (alone) failed with. The
 * value may be a promise: the item answers when it settles, while the batch's turn ends when `run`
 * returns (a later stage, such as reading the answers back, overlaps the next batch).
 */
export type Settled<O> = { ok: true; value: O | PromiseLike<O> } | { ok: false; error: unknown };

export interface BatcherOptions {
  /** The most items one call of `run` takes. */
  maxBatch: number;
  /** The most calls of `run` at once (each holds a database connection). */
  maxInFlight: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O | PromiseLike<O>) => void;
  reject: (error: unknown) => void;
}

export class Batcher<I, O> {
  private queue: Waiting<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;

  /** `run` answers one Settled per item, in order; a throw fails the whole batch. */
  constructor(
    private readonly run: (items: I[]) => Promise<Settled<O>[]>,
    private readonly options: BatcherOptions,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Nothing queued or running. */
  get idle(): boolean {
    return this.queue.length === 0 && this.inFlight === 0;
  }

  // Batches start on the next turn of the event loop, so that the requests parsed in one turn share one.
  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain() {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      // Through a promise, so that a `run` that throws at once fails its batch, not the batcher.
      Promise.resolve()
        .then(() => this.run(batch.map((w) => w.item)))
        .then(
          (results) =>
            batch.forEach((w, i) => {
              const r = results[i];
              if (!r) w.reject(new Error('batch answered fewer results than items'));
              else if (r.ok) w.resolve(r.value);
              else w.reject(r.error);
            }),
          (error) => {
            for (const w of batch) w.reject(error);
          },
        )
        .finally(() => {
          this.inFlight--;
          if (this.queue.length > 0) this.drain();
          else this.onIdle?.();
        });
    }
  }

  /** Called when the last batch finishes with nothing queued (a keyed pool forgets the batcher). */
  onIdle?: () => void;
}

/** One batcher per key (a batch holds the work of one key only), forgotten when idle. */
export class KeyedBatcher<I, O> {
  private readonly batchers = new Map<string, Batcher<I, O>>();

  constructor(
    private readonly run: (items: I[]) => Promise<Settled<O>[]>,
    private readonly options: BatcherOptions,
  ) {}

  submit(key: string, item: I): Promise<O> {
    let batcher = this.batchers.get(key);
    if (!batcher) {
      const created = new Batcher(this.run, this.options);
      created.onIdle = () => {
        if (created.idle && this.batchers.get(key) === created) this.batchers.delete(key);
      };
      this.batchers.set(key, (batcher = created));
    }
    return batcher.submit(item);
  }
}
