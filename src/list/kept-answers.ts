// Whole answers of the dashboards, kept per version of the tables they read. The same dashboard is
// loaded again and again by many people while its data is unchanged, and reading it (3,000 records
// with their tags, costs and duplicates) costs far more than the bytes it ends as. An answer is kept
// with the version (count-cache.ts) of every table it read, in the snapshot of a statement run
// before its read; a request reads the versions again (one statement) and, when those of the
// answer's tables are the same, no change has committed since, and the kept bytes and ETag are its
// answer. Any other version reads the answer again. Identical requests at the same versions share
// one read. Kept per process and per database, apart per organization, per kind of viewer (Admins
// and above see every record; a Member sees the Restricted ones they take part in, so each Member's
// answers are their own) and per request, within a bound in bytes (MUSTER_KEPT_ANSWERS_MB); the
// least recently used go first. A transaction, whose snapshot holds its own uncommitted changes,
// neither uses nor keeps answers.
import type { FastifyReply } from 'fastify';
import type { Executor } from '../db/connection.ts';
import { singleFlight } from '../lib/single-flight.ts';
import { atLeast, type Ctx, provenEmail } from '../server/context.ts';
import { etagOf } from '../server/etag.ts';
import { keepsTotals, tableVersions, VERSIONED, versionAmong } from './count-cache.ts';

/** An answer's bytes and their ETag. */
export interface Answer {
  bytes: Buffer;
  etag: string;
}

interface Kept extends Answer {
  /** The tables it read, and their version before it read them. */
  tables: string[];
  version: number;
}

/** An answer just read, with the tables it read (undefined when one of them is not versioned: it is not kept). */
interface Read extends Answer {
  tables: string[] | undefined;
  versions: Map<string, number>;
}

interface Store {
  answers: Map<string, Kept>;
  bytes: number;
  /** Requests answered with a kept answer. */
  hits: number;
  /** One read per request and versions at once. */
  read: (key: string, versions: Map<string, number>, signature: string, read: () => Promise<Fresh>) => Promise<Read>;
}

/** What a dashboard's read gives: the answer's body as the route serializes it, and the tables it read. */
export interface Fresh {
  body: string;
  tables: readonly string[] | undefined;
}

const stores = new WeakMap<object, Store>();

function storeOf(db: Executor): Store {
  let store = stores.get(db);
  if (!store)
    stores.set(
      db,
      (store = {
        answers: new Map(),
        bytes: 0,
        hits: 0,
        read: singleFlight<[string, Map<string, number>, string, () => Promise<Fresh>], Read>(
          (key, _versions, signature) => `${key}\n${signature}`,
          async (_key, versions, _signature, read) => {
            const fresh = await read();
            const bytes = Buffer.from(fresh.body);
            const keepable = fresh.tables && fresh.tables.length > 0 && fresh.tables.every((t) => VERSIONED.has(t));
            return { bytes, etag: etagOf(bytes), tables: keepable ? [...fresh.tables!] : undefined, versions };
          },
        ),
      }),
    );
  return store;
}

const signatureOf = (versions: Map<string, number>) =>
  [...versions]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([t, n]) => `${t}:${n}`)
    .join(',');

/**
 * The answer for `key` on `db`: the one kept, if the tables it read have not changed since, else
 * `read`'s, kept within `limit` bytes when every table it read is versioned.
 */
export async function keptAnswer(db: Executor, key: string, limit: number, read: () => Promise<Fresh>): Promise<Answer> {
  if (!keepsTotals(db) || limit <= 0) {
    const fresh = await read();
    const bytes = Buffer.from(fresh.body);
    return { bytes, etag: etagOf(bytes) };
  }
  const store = storeOf(db);
  const versions = await tableVersions(db);
  const kept = store.answers.get(key);
  if (kept && versionAmong(versions, kept.tables) === kept.version) {
    // The most recently used last: the bound lets the oldest go.
    store.answers.delete(key);
    store.answers.set(key, kept);
    store.hits++;
    return kept;
  }
  const fresh = await store.read(key, versions, signatureOf(versions), read);
  if (fresh.tables)
    keep(store, key, { bytes: fresh.bytes, etag: fresh.etag, tables: fresh.tables, version: versionAmong(fresh.versions, fresh.tables) }, limit);
  return fresh;
}

function keep(store: Store, key: string, answer: Kept, limit: number) {
  const old = store.answers.get(key);
  if (old) {
    // A read that began at an older version than the one kept (it waited longer) does not replace it.
    if (old.tables.join() === answer.tables.join() && old.version > answer.version) return;
    store.answers.delete(key);
    store.bytes -= old.bytes.length;
  }
  if (answer.bytes.length > limit) return;
  for (const [oldest, kept] of store.answers) {
    if (store.bytes + answer.bytes.length <= limit) break;
    store.answers.delete(oldest);
    store.bytes -= kept.bytes.length;
  }
  store.answers.set(key, answer);
  store.bytes += answer.bytes.length;
}

/** The answers kept on `db`: their bytes, how many, how many requests they answered, and the tables they read. */
export function keptStats(db: Executor): { bytes: number; answers: number; hits: number; tables: string[] } {
  const store = stores.get(db);
  const tables = new Set([...(store?.answers.values() ?? [])].flatMap((answer) => answer.tables));
  return { bytes: store?.bytes ?? 0, answers: store?.answers.size ?? 0, hits: store?.hits ?? 0, tables: [...tables].sort() };
}

/** The request's fields in one order, so that the same request written otherwise is the same key. */
const normalized = (query: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1))));

/**
 * Sends the answer of a dashboard `name` for the caller's request `query`, kept or read by `read`
 * (its page, serialized with the route's own 200 schema, and the tables it read). The ETag goes with
 * the bytes, so that the ETag hook (server/etag.ts) hashes nothing and still answers If-None-Match.
 */
export async function sendKept(
  reply: FastifyReply,
  ctx: Ctx,
  name: string,
  query: Record<string, unknown>,
  read: () => Promise<{ page: unknown; tables: readonly string[] | undefined }>,
): Promise<void> {
  // Who reads: Admins and above see every record alike; a Member, the Restricted records their proven address takes part in.
  const viewer = atLeast(ctx.role, 'Admin') ? 'all' : `member ${ctx.user.id} ${provenEmail(ctx.user)}`;
  const key = `${name}\n${ctx.organization.id}\n${viewer}\n${normalized(query)}`;
  const answer = await keptAnswer(ctx.db, key, ctx.settings.keptAnswersMb * 1024 * 1024, async () => {
    const { page, tables } = await read();
    return { body: reply.serialize(page) as string, tables };
  });
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('etag', answer.etag);
  reply.send(answer.bytes);
}
