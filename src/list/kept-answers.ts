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
// neither uses nor keeps answers. Fields that follow the clock (an open case's cost,
// lib/clock-fields.ts) are set again at every request from the inputs read with the answer, and
// only the items they changed are serialized again: at the first change the answer is split into
// one piece per item.
import type { FastifyReply } from 'fastify';
import type { Executor } from '../db/connection.ts';
import { clockDeclarations, clockedWithin, setAgain } from '../lib/clock-fields.ts';
import { singleFlight } from '../lib/single-flight.ts';
import type { Ctx } from '../server/context.ts';
import { readerKind } from '../server/viewer.ts';
import { etagOf } from '../server/etag.ts';
import { keepsTotals, tableVersions, VERSIONED, versionAmong } from './count-cache.ts';

/** An answer's bytes and their ETag. */
export interface Answer {
  bytes: Buffer;
  etag: string;
}

/** A page of items, as a list's answer is. */
export interface PageOf {
  items: readonly unknown[];
}

/** Serializes a page as the route answers it. */
export type Serialize = (page: PageOf) => string;

/**
 * An answer some of whose items have fields that follow the clock: those are set again at each
 * request, and when they changed, the answer is the page around its items and a piece per item (the
 * comma before it included), split once, of which only the changed items' are serialized again.
 */
interface Clocked {
  page: PageOf;
  /** The items with objects that follow the clock: their place and those objects. */
  items: { index: number; objects: readonly object[] }[];
  /** Every object of the page that follows the clock, once. */
  objects: Set<object>;
  /** The page's text before its first item and after its last, and each item's: split at the first change. */
  split?: { before: string; after: string; pieces: string[] };
}

interface Kept extends Answer {
  /** The tables it read, and their version before it read them. */
  tables: string[];
  version: number;
  clocked: Clocked | undefined;
  /** The bytes it holds (its pieces besides its bytes). */
  size: number;
}

/** An answer just read, with the tables it read (undefined when one of them is not versioned: it is not kept). */
interface Read extends Answer {
  tables: string[] | undefined;
  versions: Map<string, number>;
  clocked: Clocked | undefined;
}

interface Store {
  answers: Map<string, Kept>;
  bytes: number;
  /** Requests answered with a kept answer. */
  hits: number;
  /** Items serialized again for a kept answer, since fields of theirs that follow the clock changed. */
  reserialized: number;
  /** One read per request and versions at once. */
  read: (key: string, versions: Map<string, number>, signature: string, serialize: Serialize, read: () => Promise<Fresh>) => Promise<Read>;
}

/** What a dashboard's read gives: the answer's page, and the tables it read. */
export interface Fresh {
  page: PageOf;
  tables: readonly string[] | undefined;
}

const stores = new WeakMap<object, Store>();

const answerOf = (bytes: Buffer) => ({ bytes, etag: etagOf(bytes) });

function storeOf(db: Executor): Store {
  let store = stores.get(db);
  if (!store)
    stores.set(
      db,
      (store = {
        answers: new Map(),
        bytes: 0,
        hits: 0,
        reserialized: 0,
        read: singleFlight<[string, Map<string, number>, string, Serialize, () => Promise<Fresh>], Read>(
          (key, _versions, signature) => `${key}\n${signature}`,
          async (_key, versions, _signature, serialize, read) => {
            const declared = clockDeclarations();
            const { page, tables } = await read();
            const keepable = tables && tables.length > 0 && tables.every((t) => VERSIONED.has(t));
            // Reads running meanwhile may declare some too: then this page is walked for nothing.
            const clocked = keepable && clockDeclarations() !== declared ? clockedOf(page) : undefined;
            return { ...answerOf(Buffer.from(serialize(page))), tables: keepable ? [...tables] : undefined, versions, clocked };
          },
        ),
      }),
    );
  return store;
}

/** The items of the page that follow the clock (undefined when none does). */
function clockedOf(page: PageOf): Clocked | undefined {
  const memo = new Map<object, readonly object[]>();
  const items = page.items.flatMap((item, index) => {
    const objects = clockedWithin(item, memo);
    return objects.length ? [{ index, objects }] : [];
  });
  return items.length ? { page, items, objects: new Set(items.flatMap((i) => i.objects)) } : undefined;
}

/** Splits the page into its items' pieces, as its serialization writes them. */
function split({ page }: Clocked, serialize: Serialize): NonNullable<Clocked['split']> {
  // The page without items is the page around them: `[` then `]`, where a first item starts with `{`.
  const empty = serialize({ ...page, items: [] });
  const one = serialize({ ...page, items: page.items.slice(0, 1) });
  let at = 0;
  while (at < empty.length && empty[at] === one[at]) at++;
  const [before, after] = [empty.slice(0, at), empty.slice(at)];
  return { before, after, pieces: page.items.map((_, index) => pieceOf(page, index, before, after, serialize)) };
}

/** The text of the page's item at `index` (a comma before it past the first), as the page's serialization writes it. */
function pieceOf(page: PageOf, index: number, before: string, after: string, serialize: Serialize): string {
  const text = serialize({ ...page, items: [page.items[index]] });
  if (!text.startsWith(before) || !text.endsWith(after)) throw new Error('a page serializes its items other than one after another');
  return `${index > 0 ? ',' : ''}${text.slice(before.length, text.length - after.length)}`;
}

/** Sets the kept answer's clock-following fields at `now`, and serializes again the items they changed. */
function bringTo(kept: Kept, clocked: Clocked, now: Date, serialize: Serialize, store: Store) {
  const changed = setAgain(clocked.objects, now);
  if (changed.size === 0) return;
  const fresh = !clocked.split;
  clocked.split ??= split(clocked, serialize);
  const { before, after, pieces } = clocked.split;
  for (const { index, objects } of clocked.items) {
    if (!objects.some((o) => changed.has(o))) continue;
    // A page split just now was serialized with the fields set.
    if (!fresh) pieces[index] = pieceOf(clocked.page, index, before, after, serialize);
    store.reserialized++;
  }
  Object.assign(kept, answerOf(Buffer.from(before + pieces.join('') + after)));
}

const signatureOf = (versions: Map<string, number>) =>
  [...versions]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([t, n]) => `${t}:${n}`)
    .join(',');

/**
 * The answer for `key` on `db`: the one kept, if the tables it read have not changed since (its
 * fields that follow the clock set at this time), else `read`'s, serialized by `serialize` and kept
 * within `limit` bytes when every table it read is versioned.
 */
export async function keptAnswer(db: Executor, key: string, limit: number, serialize: Serialize, read: () => Promise<Fresh>): Promise<Answer> {
  if (!keepsTotals(db) || limit <= 0) return answerOf(Buffer.from(serialize((await read()).page)));
  const store = storeOf(db);
  const versions = await tableVersions(db);
  const kept = store.answers.get(key);
  if (kept && versionAmong(versions, kept.tables) === kept.version) {
    if (kept.clocked) bringTo(kept, kept.clocked, new Date(), serialize, store);
    // The most recently used last: the bound lets the oldest go.
    store.answers.delete(key);
    store.answers.set(key, kept);
    store.hits++;
    return { bytes: kept.bytes, etag: kept.etag };
  }
  const fresh = await store.read(key, versions, signatureOf(versions), serialize, read);
  if (fresh.tables) {
    const { bytes, etag, tables, clocked } = fresh;
    const size = bytes.length * (clocked ? 2 : 1);
    keep(store, key, { bytes, etag, tables, version: versionAmong(fresh.versions, tables), clocked, size }, limit);
  }
  return { bytes: fresh.bytes, etag: fresh.etag };
}

function keep(store: Store, key: string, answer: Kept, limit: number) {
  const old = store.answers.get(key);
  if (old) {
    // A read that began at an older version than the one kept (it waited longer) does not replace it.
    if (old.tables.join() === answer.tables.join() && old.version > answer.version) return;
    store.answers.delete(key);
    store.bytes -= old.size;
  }
  if (answer.size > limit) return;
  for (const [oldest, kept] of store.answers) {
    if (store.bytes + answer.size <= limit) break;
    store.answers.delete(oldest);
    store.bytes -= kept.size;
  }
  store.answers.set(key, answer);
  store.bytes += answer.size;
}

/**
 * The answers kept on `db`: their bytes, how many, how many requests they answered, how many items
 * were serialized again as the clock moved, and the tables they read.
 */
export function keptStats(db: Executor): { bytes: number; answers: number; hits: number; reserialized: number; tables: string[] } {
  const store = stores.get(db);
  const tables = new Set([...(store?.answers.values() ?? [])].flatMap((answer) => answer.tables));
  return {
    bytes: store?.bytes ?? 0,
    answers: store?.answers.size ?? 0,
    hits: store?.hits ?? 0,
    reserialized: store?.reserialized ?? 0,
    tables: [...tables].sort(),
  };
}

/** The request's fields in one order, so that the same request written otherwise is the same key. */
const normalized = (query: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1))));

/**
 * Sends the answer of a dashboard `name` for the caller's request `query`, kept or read by `read`
 * (its page, serialized with the route's own 200 schema, and the tables it read). The ETag goes with
 * the bytes, so that the ETag hook (server/etag.ts) hashes nothing and still answers If-None-Match.
 */
export async function sendKept(reply: FastifyReply, ctx: Ctx, name: string, query: Record<string, unknown>, read: () => Promise<Fresh>): Promise<void> {
  const key = `${name}\n${ctx.organization.id}\n${readerKind(ctx)}\n${normalized(query)}`;
  const answer = await keptAnswer(ctx.db, key, ctx.settings.keptAnswersMb * 1024 * 1024, (page) => reply.serialize(page) as string, read);
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('etag', answer.etag);
  reply.send(answer.bytes);
}
