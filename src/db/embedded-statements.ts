// Statements on the embedded database, run as a PostgreSQL server runs them for node-postgres.
// PGlite's query() parses and plans its text on every call (an unnamed statement), so a statement
// the code prepares by name (drizzle's `.prepare(name)`) would be planned again at every run. Here
// such a statement is parsed once under its name, and each run only binds its values and executes:
// the same messages node-postgres sends a server for a named query. Every other statement drizzle
// runs goes the same way as the unnamed statement, parsed at each run: two calls into the database
// where query() makes six, and the results read as below (resultOf).
import { type PGlite, parse, protocol, type QueryOptions, type Results, type Transaction, types } from '@electric-sql/pglite';
import type { Query } from 'drizzle-orm';
import { PgDialect, type PgPreparedQuery, type PgTransactionConfig, type PreparedQueryConfig, type SelectedFieldsOrdered } from 'drizzle-orm/pg-core';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import { PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite/session';
import { ranStatement } from './table-writes.ts';
import { asStatement } from './traced-pglite.ts';

const { serialize } = protocol;

/** What the statement parsed under a name needs at each run: its text (names are unique to one) and its parameters' types. */
interface Parsed {
  text: string;
  paramTypes: number[];
}

const parsedBy = new WeakMap<PGlite, Map<string, Parsed>>();

const joined = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** Holds the database as its own query() does: no transaction or other statement runs in between. */
const exclusive = <T>(pglite: PGlite, run: () => Promise<T>) => pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(run));

async function parseOnce(pglite: PGlite, name: string, text: string): Promise<Parsed> {
  let byName = parsedBy.get(pglite);
  if (!byName) {
    parsedBy.set(pglite, (byName = new Map()));
    // Planned once, as on a server (db/connection.ts, sessionOptions).
    await pglite.execProtocol(serialize.query('SET plan_cache_mode = force_generic_plan'), { syncToFs: false });
  }
  const known = byName.get(name);
  if (known) {
    if (known.text !== text) throw new Error(`statement ${name} is already prepared with another text`);
    return known;
  }
  const { messages } = await pglite.execProtocol(joined([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
    syncToFs: false,
  });
  const parsed = { text, paramTypes: parse.parseDescribeStatementResults(messages) };
  byName.set(name, parsed);
  return parsed;
}

/**
 * Runs the statement prepared as `name` (parsing it first if this database has not yet) with
 * `params`; with the name '', as the unnamed statement, parsed at this run. `inTransaction`: from
 * inside the open transaction, which already holds the database.
 */
export async function runNamed(pglite: PGlite, name: string, text: string, params: unknown[], options?: QueryOptions, inTransaction = false): Promise<Results> {
  // As query() does: a closed database says so ("PGlite is closed"), which answers 503.
  await pglite._checkReady();
  const out = await asStatement(text, () => runExclusive(pglite, name, text, params, options, inTransaction));
  ranStatement(pglite, text, name);
  return out;
}

async function runExclusive(
  pglite: PGlite,
  name: string,
  text: string,
  params: unknown[],
  options: QueryOptions | undefined,
  inTransaction: boolean,
): Promise<Results> {
  // As a transaction's own query() does: between the transaction's statements, nothing else runs.
  const hold = inTransaction ? <T>(run: () => Promise<T>) => pglite._runExclusiveQuery(run) : <T>(run: () => Promise<T>) => exclusive(pglite, run);
  return hold(async () => {
    const paramTypes = name ? (await parseOnce(pglite, name, text)).paramTypes : await parseUnnamed(pglite, text, options);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const write = options?.serializers?.[paramTypes[i]] ?? pglite.serializers[paramTypes[i]];
      return write ? write(value) : String(value);
    });
    const { messages } = await pglite.execProtocol(
      joined([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
    );
    return resultOf(messages, pglite, options);
  });
}

/** Parses `text` as the unnamed statement (it stays until the next one is parsed) and returns its parameters' types. */
async function parseUnnamed(pglite: PGlite, text: string, options: QueryOptions | undefined): Promise<number[]> {
  const { messages } = await pglite.execProtocol(
    joined([serialize.parse({ text, types: options?.paramTypes }), serialize.describe({ type: 'S' }), serialize.sync()]),
    {
      syncToFs: false,
    },
  );
  return parse.parseDescribeStatementResults(messages);
}

type Message = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];
type Parser = (value: string, typeId: number) => unknown;

/**
 * The result of one statement's messages, as PGlite's parse.parseResults gives it for one statement
 * (rows as objects or arrays, each value through the parser of its type: the query's own, else the
 * database's, else PGlite's default). Written out here because parseResults copies the database's
 * hundreds of parsers into a new object on every call, which cost 130-200 µs a statement, more
 * than parsing the rows of most.
 */
function resultOf(messages: Message[], pglite: PGlite, options: QueryOptions | undefined): Results {
  const asArrays = options?.rowMode === 'array';
  let fields: { name: string; dataTypeID: number }[] = [];
  let parsers: (Parser | undefined)[] = [];
  const rows: unknown[] = [];
  for (const message of messages) {
    if (message instanceof protocol.messages.RowDescriptionMessage) {
      fields = message.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
      parsers = fields.map(({ dataTypeID: id }) => options?.parsers?.[id] ?? pglite.parsers[id] ?? types.parsers[id]);
    } else if (message instanceof protocol.messages.DataRowMessage) {
      const values = message.fields.map((value, i) => (value === null ? null : parsers[i] ? parsers[i](value, fields[i].dataTypeID) : value));
      if (asArrays) rows.push(values);
      else {
        const row: Record<string, unknown> = {};
        for (const [i, { name }] of fields.entries()) row[name] = values[i];
        rows.push(row);
      }
    } else if (message instanceof protocol.messages.CommandCompleteMessage) {
      const words = message.text.split(' ');
      const command = words[0];
      const count = Number.parseInt(words[words.length - 1], 10);
      const affectedRows = ['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command) ? count : 0;
      return { rows, fields, command, affectedRows, ...(Number.isNaN(count) ? {} : { rowCount: count }) } as Results;
    }
  }
  // No command completed (an empty statement): no rows, as parseResults says.
  return { rows: [], fields: [], affectedRows: 0 };
}

/** Where a named statement of the embedded database runs: outside a transaction, or inside whichever is open (one at a time). */
const homes = new WeakMap<PGlite, { outside: object; inside: object }>();

type Session = PgliteSession<Record<string, never>, Record<string, never>>;
/** What prepareQuery takes after its query, fields and name. */
type Tail<T extends PreparedQueryConfig> =
  Parameters<Session['prepareQuery']> extends [unknown, unknown, unknown, boolean, unknown?, ...infer R]
    ? [isResponseInArrayMode: boolean, customResultMapper?: (rows: unknown[][]) => T['execute'], ...rest: R]
    : never;

/**
 * drizzle's session for PGlite, whose queries prepared with a name run as named statements and the
 * others as the unnamed statement (runNamed), in a transaction as outside one.
 */
export class NamingSession extends PgliteSession<Record<string, never>, Record<string, never>> {
  constructor(
    private readonly pglite: PGlite,
    private readonly dialectOf: PgDialect,
    /** The open transaction this session runs in. */
    private readonly tx?: Transaction,
  ) {
    super(tx ?? pglite, dialectOf, undefined);
  }

  /**
   * What a query prepared with a name on this session is bound to: the same for every transaction
   * (each runs its named statements the same way, on the one connection), so that such a query,
   * whose text drizzle builds when it is prepared, is prepared once and not in every transaction.
   */
  get home(): object {
    let home = homes.get(this.pglite);
    if (!home) homes.set(this.pglite, (home = { outside: {}, inside: {} }));
    return this.tx ? home.inside : home.outside;
  }

  /** Runs `text` as the statement prepared as `name`, in this session's transaction if it has one. */
  runNamed(name: string, text: string, params: unknown[]): Promise<Results> {
    return runNamed(this.pglite, name, text, params, undefined, this.tx !== undefined);
  }

  override async transaction<T>(
    run: (tx: PgliteTransaction<Record<string, never>, Record<string, never>>) => Promise<T>,
    config?: PgTransactionConfig,
  ): Promise<T> {
    // As drizzle's own, with a session that keeps naming statements.
    return this.pglite.transaction(async (client) => {
      const tx = new PgliteTransaction<Record<string, never>, Record<string, never>>(
        this.dialectOf,
        new NamingSession(this.pglite, this.dialectOf, client),
        undefined,
      );
      if (config) await tx.setTransaction(config);
      return run(tx);
    });
  }

  override prepareQuery<T extends PreparedQueryConfig = PreparedQueryConfig>(
    query: Query,
    fields: SelectedFieldsOrdered | undefined,
    name: string | undefined,
    ...rest: Tail<T>
  ): PgPreparedQuery<T> {
    const prepared = super.prepareQuery<T>(query, fields, name, ...rest);
    const { pglite, tx } = this;
    // The prepared query calls client.query(text, params, options): the named statement (or the
    // unnamed one) stands in for it. A named one runs in whichever transaction is open (see home);
    // any other belongs to this session's, and is refused once that has ended, as its query() does.
    (prepared as unknown as { client: Pick<PGlite, 'query'> }).client = {
      query: async <T>(text: string, params?: unknown[], options?: QueryOptions) => {
        if (!name && tx?.closed) throw new Error('Transaction is closed');
        return runNamed(pglite, name ?? '', text, params ?? [], options, tx !== undefined) as Promise<Results<T>>;
      },
    };
    return prepared;
  }
}

/** A drizzle database over `pglite` whose named statements are prepared once. */
export function drizzleEmbedded(pglite: PGlite) {
  const dialect = new PgDialect();
  const db = new PgliteDatabase(dialect, new NamingSession(pglite, dialect), undefined);
  return Object.assign(db, { $client: pglite });
}
