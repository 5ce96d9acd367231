// Reads of one record by id (the GET of an incident, a case, any record) that arrive together run as
// one statement: those of one kind of record, by one kind of reader (server/viewer.ts readerKind),
// asked for in the same turn of the event loop or while earlier ones are under way, are read by one
// run of the read's statement with all their ids (lib/batcher.ts). PostgreSQL sets up the whole plan
// of a statement at every run, every nested part of the record (its people, their roles, its tags)
// included, and takes it down after: for a GET of an incident that was more of PostgreSQL's CPU than
// running it (ExecutorStart 39%, ExecutorRun 32%). A run for several ids sets it up once, and the
// read's hooks and the driver's work are done once for them. Each read still runs in a snapshot
// taken after it was asked for, so it sees every write committed before. Inside a transaction,
// whose snapshot is its own, a read runs alone. The objects answered are shared by the reads of the
// same id: they are answers, not to be changed.
import type { TSchema } from '@sinclair/typebox';
import { type Executor, inTransaction } from '../db/connection.ts';
import { KeyedBatcher, type Settled } from '../lib/batcher.ts';
import { readerKind, type UNRESTRICTED, type Viewer } from '../server/viewer.ts';
import { type ReadDef, readObjects } from './reader.ts';

type Row = Record<string, unknown>;
/** A caller reading: the service's own reads (UNRESTRICTED) are not asked for by id over the API. */
type Reader = Exclude<Viewer, typeof UNRESTRICTED>;

interface Read {
  db: Executor;
  def: ReadDef;
  shape: TSchema;
  id: number;
  reader: Reader;
}

/** How many reads by id ran on a database, and in how many statements. */
export interface TogetherStats {
  reads: number;
  statements: number;
}

interface OnDatabase {
  batcher: KeyedBatcher<Read, Row | undefined>;
  stats: TogetherStats;
}

const databases = new WeakMap<Executor, OnDatabase>();

/** The reads by id and the statements they ran in on `db`, so far. */
export const togetherStats = (db: Executor): TogetherStats => ({ ...(databases.get(db)?.stats ?? { reads: 0, statements: 0 }) });

/** The reads of one batch share their db, def, shape and kind of reader: the first one's read for all the ids. */
async function readAll(reads: Read[]): Promise<Settled<Row | undefined>[]> {
  const { db, def, shape, reader } = reads[0];
  const stats = databases.get(db)!.stats;
  stats.reads += reads.length;
  stats.statements++;
  const rows = await readObjects(db, def, shape, [...new Set(reads.map((r) => r.id))], reader, 'visible');
  const byId = new Map(rows.map((row) => [row.id as number, row]));
  return reads.map((r) => ({ ok: true, value: byId.get(r.id) }));
}

// Up to four statements of one key under way at once, so that a slow read (a record with thousands
// of events) does not hold up the others of its reader; one or four measured alike otherwise.
const OPTIONS = { maxBatch: 100, maxInFlight: 4 };

// The defs and shapes are module constants: a number each names them in a key.
const numbers = new WeakMap<object, number>();
let count = 0;
const numberOf = (o: object) => numbers.get(o) ?? numbers.set(o, ++count).get(o)!;

/** The object of `def`'s record `id` as `shape`, when `reader` may see it (else undefined). */
export async function readOneTogether(db: Executor, def: ReadDef, shape: TSchema, id: number, reader: Reader): Promise<Row | undefined> {
  if (inTransaction(db)) return (await readObjects(db, def, shape, [id], reader, 'visible'))[0];
  let on = databases.get(db);
  if (!on) databases.set(db, (on = { batcher: new KeyedBatcher(readAll, OPTIONS), stats: { reads: 0, statements: 0 } }));
  const key = `${numberOf(def)} ${numberOf(shape)} ${reader.organization.id} ${readerKind(reader)}`;
  return on.batcher.submit(key, { db, def, shape, id, reader });
}
