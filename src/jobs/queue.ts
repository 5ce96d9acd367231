// Durable background jobs on pg-boss, in the same PostgreSQL as the records: on a server through
// the API's `pg` pool, on the embedded database through PGlite. A write enqueues its side effects
// inside its own transaction (enqueue(tx, ...)): a write that rolls back sends nothing, one that
// commits loses nothing. Workers run them with retries and backoff; a job that exhausts its
// retries stays `failed` (the dead-letter state) until an Owner retries it.
import { createHash, randomBytes } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Database, Executor } from '../db/connection.ts';
import { unavailableCause } from '../db/errors.ts';
import { nameOf, runText } from '../db/statements.ts';
import { isRetryLater } from '../lib/retry-later.ts';
import { carried, within } from '../lib/telemetry/context.ts';
import { jobRuns } from '../lib/telemetry/metrics.ts';
import { inSpan, SpanKind } from '../lib/telemetry/tracing.ts';

/** How a kind of job is retried and how long one run may take before it counts as lost. */
export interface QueueSpec {
  name: string;
  /** Further attempts after the first (default 5). */
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time (default 10). */
  retryDelay?: number;
  /** Seconds one run may take; past it the run counts as lost (its process died) and is retried (default 300). */
  expireInSeconds?: number;
  /**
   * `singleton`: jobs with the same `singletonKey` run one at a time, in the order they were
   * enqueued (retries aside), whichever node runs them; jobs without a key are not held back. A
   * job waiting behind one of its key also holds back the jobs after it until that one is done,
   * so keep these jobs short. Default `standard`: no such rule.
   */
  policy?: 'standard' | 'singleton';
}

export interface JobInfo<T = Record<string, unknown>> {
  id: string;
  name: string;
  data: T;
  /** Attempts before this one. */
  retryCount: number;
  /** The request that enqueued the job (or the job that did, and so on), for its log lines. */
  requestId?: string;
}

export type JobHandler = (job: JobInfo) => Promise<unknown>;

const SCHEMA = 'pgboss';
const DEFAULTS = { retryLimit: 5, retryDelay: 10, expireInSeconds: 300 } as const;
/** Failed jobs are kept (listable, retryable) this long before pg-boss archives them. */
const KEEP_FAILED_SECONDS = 30 * 24 * 3600;

type Adapter = { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * pg-boss's way into a database. PGlite runs one statement per prepared query, and pg-boss's schema
 * migrations are multi-statement strings without parameters: those go through `exec` (the last
 * result's rows). Statements with parameters (fetching, completing, sending: a few fixed texts, run
 * several times a second by every worker) are prepared once per connection: planned afresh at every
 * run, the fetch's generic plan over every queue's partition of the job table cost more than all of
 * a request's own statements.
 */
function adapterOf(database: Database): Adapter {
  const pglite = database.pglite;
  return {
    async executeSql(text, values) {
      if (values?.length) return { rows: (await database.query(text, values, nameOf(text))) ?? [] };
      if (!pglite) return { rows: (await database.query(text, values)) ?? [] };
      const results = await pglite.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
}

/** How long a worker's statement keeps being retried while the database is unavailable. */
const WORKER_RETRY_MS = 120_000;

/**
 * The workers' way into the database: a statement that fails because the database is unavailable
 * (a primary lost, a failover under way) runs again once it answers. pg-boss completes and fails a
 * job without awaiting it, so a rejection there would end the process; and a completion retried
 * after the failover is not lost (the job is not run again). pg-boss's statements are single
 * statements that tolerate a second run: a completion or a fetch that did commit before its answer
 * was lost changes nothing the second time, or leaves a job active until it expires and runs again.
 */
function workerAdapter(database: Database): Adapter {
  const inner = adapterOf(database);
  // The embedded database is the process's own: it is unavailable only once closed.
  if (database.kind === 'embedded') return inner;
  return {
    async executeSql(text, values) {
      const deadline = Date.now() + WORKER_RETRY_MS;
      for (let wait = 250; ; wait = Math.min(wait * 2, 2_000)) {
        try {
          return await inner.executeSql(text, values);
        } catch (err) {
          const cause = unavailableCause(err);
          // A pool ended by this process's own shutdown does not come back.
          if (!cause || cause === 'database closed' || Date.now() + wait > deadline) throw err;
          await new Promise((r) => setTimeout(r, wait));
        }
      }
    },
  };
}

/**
 * An open transaction (or a database handle), for pg-boss's `db` option. pg-boss's texts are fixed,
 * so each is prepared once per connection under a name of its text (db/statements.ts), as the
 * workers' are: an enqueue in every write no longer parses and plans its INSERT again.
 */
function transactionAdapter(tx: Executor): Adapter {
  return { executeSql: async (text, values) => ({ rows: await runText(tx, text, values ?? []) }) };
}

// Sending needs no started instance: only pg-boss's SQL, run on the connection given with each job.
const sender = new PgBoss({ db: { executeSql: async () => ({ rows: [] }) }, schema: SCHEMA, supervise: false, schedule: false });

export interface EnqueueOptions {
  /** Seconds to wait before the first run. */
  startAfter?: number;
  /**
   * What makes this job unique: a job of the same name and key is enqueued once, however often
   * it is asked for (a retried job that fans out enqueues each child once).
   */
  key?: string;
  /** Jobs of a `singleton` queue with the same one never run at once (what they act on, say). */
  singletonKey?: string;
}

/** A UUID (version 8, name-based) that a job's name and key always give. */
function jobIdOf(name: string, key: string): string {
  const h = createHash('sha256').update(`${name}\u0000${key}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  return uuidText(h);
}

/** The text of a UUID from its first 16 bytes, its variant bits set. */
function uuidText(b: Buffer): string {
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = b.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

// Workers take a queue's jobs in (created_on, id) order. created_on is the time of the enqueuing
// transaction: jobs enqueued in one transaction share it, and so do jobs of the same millisecond on
// the embedded database, whose clock counts milliseconds. Their random ids would then order them
// at random, and a singleton key's jobs would not run in the order they were enqueued.
let lastMs = 0;
let sameMs = 0;

/**
 * A UUID (version 7) that sorts after every one this process made before: the time in milliseconds,
 * then a count within that millisecond (4,096 of them, then the next millisecond's), then random bits.
 */
function orderedJobId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sameMs = 0;
  } else if (++sameMs > 0xfff) {
    lastMs += 1;
    sameMs = 0;
  }
  const b = randomBytes(16);
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (sameMs >> 8);
  b[7] = sameMs & 0xff;
  return uuidText(b);
}

/**
 * Enqueues a job in the caller's transaction (or directly on a database handle): it becomes visible
 * to workers when the transaction commits. Returns the job's id, which side effects use as their
 * idempotency key. Throws when the queue is unknown (it must be declared in the queue list).
 */
export async function enqueue(tx: Executor, name: string, data: object, opts: EnqueueOptions = {}): Promise<string> {
  const id = opts.key === undefined ? orderedJobId() : jobIdOf(name, opts.key);
  const db = transactionAdapter(tx);
  // The enqueuing request's trace and id travel in the job's data; the worker takes them out again.
  const from = carried();
  const sent = await sender.send(name, from ? { ...data, ...from } : data, { id, startAfter: opts.startAfter, singletonKey: opts.singletonKey, db });
  if (sent) return sent;
  // Nothing inserted: a keyed job enqueued before, or a queue nobody declared.
  if (id && (await db.executeSql(`SELECT 1 FROM ${SCHEMA}.job WHERE name = $1 AND id = $2`, [name, id])).rows.length) return id;
  throw new Error(`job queue ${name} does not exist (is it declared, and the schema installed?)`);
}

/**
 * Several unkeyed jobs, of any queues, enqueued in one statement in the caller's transaction: what
 * one write sets off (a batch of new records' effects and resources) costs one round trip, not one
 * per job. Jobs of a queue nobody declared are not inserted.
 */
export async function enqueueAll(tx: Executor, jobs: { name: string; data: object }[]): Promise<void> {
  if (jobs.length === 0) return;
  const from = carried();
  await sender.insert(
    jobs.map(({ name, data }) => ({ id: orderedJobId(), name, data: from ? { ...data, ...from } : data })),
    { db: transactionAdapter(tx) },
  );
}

/**
 * Keeps in a running job's data what it has done so far (`progress` is merged into it), in the
 * caller's transaction: a retry of the job gets it back in `job.data` and skips what is done. For
 * jobs with more than one step that must not be repeated (a message posted, a room created).
 */
export async function saveProgress(tx: Executor, job: Pick<JobInfo, 'id' | 'name'>, progress: object): Promise<void> {
  await transactionAdapter(tx).executeSql(`UPDATE ${SCHEMA}.job SET data = data || $3::jsonb WHERE name = $1 AND id = $2`, [
    job.name,
    job.id,
    JSON.stringify(progress),
  ]);
}

export interface WorkerOptions {
  /** Seconds between polls of an idle queue (default 2). */
  pollingIntervalSeconds?: number;
  /** Seconds between maintenance runs, which retry lost (expired) jobs (default 30). */
  maintenanceIntervalSeconds?: number;
  /** Jobs of one queue run at once per process (default 2). */
  concurrency?: number;
  onError?: (err: Error) => void;
}

/** Job queues over one database: installs the schema, runs workers, lists and retries jobs. */
export class JobQueue {
  private boss?: PgBoss;
  /** The workers' statements and job runs under way (see stop). */
  private inFlight = 0;

  constructor(
    private readonly database: Database,
    private readonly queues: QueueSpec[],
  ) {}

  /** Creates (or upgrades) pg-boss's schema and every declared queue. Idempotent; run at start-up. */
  async install(): Promise<void> {
    const boss = new PgBoss({ db: adapterOf(this.database), schema: SCHEMA, supervise: false, schedule: false, migrate: true });
    boss.on('error', () => {});
    await boss.start();
    try {
      const existing = new Set((await boss.getQueues()).map((q) => q.name));
      for (const q of this.queues) {
        const options = { ...DEFAULTS, ...q, retryBackoff: true };
        if (existing.has(q.name)) await boss.updateQueue(q.name, options);
        else await boss.createQueue(q.name, options);
      }
    } finally {
      await boss.stop({ graceful: false, close: false, wait: true });
    }
  }

  /** Starts workers for the given handlers; jobs of other queues wait for a node that runs them. */
  async start(handlers: Record<string, JobHandler>, opts: WorkerOptions = {}): Promise<void> {
    const boss = new PgBoss({
      db: this.counted(workerAdapter(this.database)),
      schema: SCHEMA,
      migrate: false,
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? 30,
      archiveFailedAfterSeconds: KEEP_FAILED_SECONDS,
    });
    boss.on('error', (err) => opts.onError?.(err));
    await boss.start();
    this.boss = boss;
    const singletons = new Set(this.queues.filter((q) => q.policy === 'singleton').map((q) => q.name));
    for (const [name, handler] of Object.entries(handlers)) {
      for (let i = 0; i < (opts.concurrency ?? 2); i++) {
        await boss.work(name, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2, includeMetadata: true }, ([job]) =>
          this.whileCounted(() => this.runJob(name, handler, job, singletons.has(name))),
        );
      }
    }
  }

  /** Runs one fetched job through its handler, in the span and request context it was queued with. */
  private async runJob(name: string, handler: JobHandler, job: PgBoss.JobWithMetadata<unknown>, singleton: boolean): Promise<unknown> {
    if (singleton && job.singletonKey && (await this.putBackIfAhead(job.id, name))) return undefined;
    const { traceparent, requestId, ...data } = job.data as Record<string, unknown>;
    const info: JobInfo = { id: job.id, name: job.name, data, retryCount: job.retryCount, requestId: requestId as string | undefined };
    const attributes = { 'messaging.system': 'pg-boss', 'messaging.destination.name': name, 'muster.job.attempt': job.retryCount + 1 };
    const timer = jobRuns.startTimer({ queue: name });
    const run = () =>
      inSpan(`job ${name}`, { kind: SpanKind.CONSUMER, attributes }, async () => {
        try {
          const out = await handler(info);
          timer({ outcome: 'completed' });
          return out;
        } catch (err) {
          if (isRetryLater(err) && (await this.retryLater(job.id, name, err.seconds, err.message))) {
            timer({ outcome: 'deferred' });
            return undefined;
          }
          timer({ outcome: 'failed' });
          throw err;
        }
      });
    return within({ traceparent, requestId }, run);
  }

  /**
   * Puts a running job back to wait `seconds` (what the outside system asked for), counting the
   * attempt. pg-boss then finds it no longer active and leaves it be. False when its retries are
   * used up: the caller fails it as any other error.
   */
  private async retryLater(id: string, name: string, seconds: number, message: string): Promise<boolean> {
    const { rows } = await adapterOf(this.database).executeSql(
      `UPDATE ${SCHEMA}.job SET state = 'retry', retry_count = retry_count + 1, start_after = now() + make_interval(secs => $3),
         started_on = NULL, output = jsonb_build_object('message', $4::text)
       WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count < retry_limit RETURNING id`,
      [name, id, Math.max(1, Math.ceil(seconds)), message],
    );
    return rows.length > 0;
  }

  /**
   * Puts a job of a singleton queue back to wait when an older job of its key could run now: each
   * worker fetches the oldest job it can lock and skips the rows other workers' fetches hold, so
   * once a key's job ends, two workers can take its next two jobs at once and the younger becomes
   * active first (the key's unique index then refuses the older). Put back as it was (its attempt
   * not counted), it runs after the older one. Jobs waiting to be retried do not hold it back.
   */
  private async putBackIfAhead(id: string, name: string): Promise<boolean> {
    const { rows } = await adapterOf(this.database).executeSql(
      `UPDATE ${SCHEMA}.job j SET state = CASE WHEN j.retry_count > 0 THEN 'retry'::${SCHEMA}.job_state ELSE 'created'::${SCHEMA}.job_state END,
         started_on = NULL
       WHERE j.name = $1 AND j.id = $2 AND j.state = 'active'
         AND EXISTS (SELECT 1 FROM ${SCHEMA}.job o WHERE o.name = j.name AND o.singleton_key = j.singleton_key AND o.state = 'created'
           AND o.start_after < now() AND (o.created_on, o.id) < (j.created_on, j.id))
       RETURNING j.id`,
      [name, id],
    );
    return rows.length > 0;
  }

  /** Stops taking jobs and waits (up to `timeoutMs`) for the running ones; an unfinished one runs again elsewhere. */
  async stop(timeoutMs = 10_000): Promise<void> {
    const boss = this.boss;
    this.boss = undefined;
    if (!boss) return;
    const until = Date.now() + timeoutMs;
    await boss.stop({ graceful: true, close: false, wait: true, timeout: timeoutMs });
    // pg-boss waits for the jobs its workers hold, not for a fetch under way: the job such a fetch
    // returns would run, and be completed or failed, after stop had returned. It is waited for too.
    while (this.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  }

  private async whileCounted<T>(fn: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await fn();
    } finally {
      this.inFlight--;
    }
  }

  private counted(adapter: Adapter): Adapter {
    return { executeSql: (text, values) => this.whileCounted(() => adapter.executeSql(text, values)) };
  }
}

export const JOB_SCHEMA = SCHEMA;
