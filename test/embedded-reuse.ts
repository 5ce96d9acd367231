// The embedded database of a test file, opened once per test process and put back between files.
// Opening PGlite from the template image costs about a second of CPU (its WebAssembly instance and
// PostgreSQL's start); emptying the tables and writing back the template's rows costs about a third
// of that. The files of a worker run one after another (vitest.config.ts, isolate: false), so one
// instance serves them all: each file gets it as the template left it, its rows and sequences.
// What rows cannot restore (a table, function or role added, a setting stored in the catalog, a
// temporary table) changes the catalog's fingerprint: the instance is then closed and a fresh one
// opened from the image, as before.
import type { PGlite } from '@electric-sql/pglite';
import { type Database, fromPglite, openEmbedded } from '../src/db/connection.ts';
import { openPglite } from '../src/db/embedded.ts';

/** The template's state as rows: each non-empty table's rows, every sequence's position. */
interface Seed {
  /** Every table, emptied at a reset (the same while the catalog's fingerprint is). */
  all: string[];
  tables: { name: string; columns: string; rows: string }[];
  sequences: { name: string; last: string; called: boolean }[];
  catalog: string;
}

interface Kept {
  pglite: PGlite;
  seed: Seed;
}

const USER_TABLES = `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables ORDER BY 1`;

/**
 * What a test can change outside the rows of the template's tables: relations (temporary ones
 * included), columns, functions, triggers and whether they fire, types, constraints, roles and
 * stored settings. Truncation keeps every object's oid, so the same objects give the same text.
 */
const CATALOG = `SELECT md5(string_agg(x, ',' ORDER BY x)) AS catalog FROM (
  SELECT 'c' || c.oid || c.relname || c.relkind::text AS x FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
  UNION ALL SELECT 'a' || attrelid || '.' || attnum || '.' || atttypid || attnotnull || attisdropped || atthasdef FROM pg_attribute WHERE attrelid >= 16384
  UNION ALL SELECT 'p' || oid FROM pg_proc WHERE oid >= 16384
  UNION ALL SELECT 't' || oid || tgenabled::text FROM pg_trigger
  UNION ALL SELECT 'e' || oid || evtenabled::text FROM pg_event_trigger
  UNION ALL SELECT 'y' || oid FROM pg_type WHERE oid >= 16384
  UNION ALL SELECT 'k' || oid FROM pg_constraint WHERE oid >= 16384
  UNION ALL SELECT 'r' || oid || rolname FROM pg_authid
  UNION ALL SELECT 's' || setdatabase || '.' || setrole || array_to_string(setconfig, ' ') FROM pg_db_role_setting
) catalog`;

async function catalogOf(pglite: PGlite): Promise<string> {
  return (await pglite.query<{ catalog: string }>(CATALOG)).rows[0].catalog;
}

/** Reads the template's rows and sequences from an instance just opened from its image. */
async function seedOf(pglite: PGlite): Promise<Seed> {
  const all = (await pglite.query<{ name: string }>(USER_TABLES)).rows.map((t) => t.name);
  const tables: Seed['tables'] = [];
  for (const name of all) {
    const [{ rows }] = (await pglite.query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${name} t`)).rows;
    if (rows === null) continue;
    // Generated columns are computed again on insert; they cannot be written.
    const [{ columns }] = (
      await pglite.query<{ columns: string }>(
        `SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS columns FROM pg_attribute
          WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''`,
        [name],
      )
    ).rows;
    tables.push({ name, columns, rows });
  }
  const sequences: Seed['sequences'] = [];
  for (const { name } of (await pglite.query<{ name: string }>(`SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences`)).rows) {
    const [row] = (await pglite.query<{ last: string; called: boolean }>(`SELECT last_value::text AS last, is_called AS called FROM ${name}`)).rows;
    sequences.push({ name, ...row });
  }
  return { all, tables, sequences, catalog: await catalogOf(pglite) };
}

/**
 * Puts the template's rows back: every table emptied, the template's rows written again and its
 * sequences set where they were; the session's settings, prepared statements, locks and listens
 * dropped, as a fresh instance has none (each file's handle prepares its own, lend). Triggers are
 * off meanwhile (the audit log refuses truncation, and no timeline or version should record a reset).
 */
async function reset(pglite: PGlite, seed: Seed): Promise<void> {
  await pglite.exec('RESET ALL; DEALLOCATE ALL; UNLISTEN *; SELECT pg_advisory_unlock_all()');
  await pglite.transaction(async (tx) => {
    await tx.query(`SET LOCAL session_replication_role = replica`);
    await tx.query(`TRUNCATE ${seed.all.join(', ')}`);
    for (const t of seed.tables) {
      const insert = `INSERT INTO ${t.name} (${t.columns}) OVERRIDING SYSTEM VALUE`;
      await tx.query(`${insert} SELECT ${t.columns} FROM json_populate_recordset(NULL::${t.name}, $1)`, [t.rows]);
    }
    for (const s of seed.sequences) await tx.query(`SELECT setval($1, $2::bigint, $3)`, [s.name, s.last, s.called]);
  });
  // Counters of changes since the last analyze start again, as in a copy of the template.
  await pglite.query('SELECT pg_stat_reset()');
}

// One instance per test process, idle between files; a second one asked for at once is opened fresh.
let kept: Kept | undefined;
let lent = false;

/** A new in-memory instance of the image, as PGlite opens it: each file's handle adds what the code adds to it (fromPglite). */
async function fresh(image: Blob): Promise<PGlite> {
  return (await openPglite(undefined, { loadDataDir: image })).pglite;
}

/** An embedded database as the template left it; close() gives it back for the next file. */
export async function embeddedFromTemplate(image: () => Blob): Promise<Database> {
  if (lent) return openEmbedded(undefined, image());
  lent = true;
  try {
    if (kept && !kept.pglite.closed && (await catalogOf(kept.pglite)) === kept.seed.catalog) {
      await reset(kept.pglite, kept.seed);
    } else {
      if (kept && !kept.pglite.closed) await kept.pglite.close();
      const pglite = await fresh(image());
      kept = { pglite, seed: await seedOf(pglite) };
    }
  } catch (err) {
    lent = false;
    kept = undefined;
    throw err;
  }
  const { pglite, revoke } = lend(kept.pglite);
  return {
    ...fromPglite(pglite),
    async close() {
      revoke();
      lent = false;
    },
  };
}

/**
 * The instance as one file sees it: once the file gives it back, what the file left running (a job
 * worker past its stop, a timer) finds it closed, as it would a closed instance of its own, instead
 * of reading or writing the next file's rows. Each file's handle is a new object, so what is kept per
 * instance (prepared statements, watched writes) starts anew with it, as on a fresh instance; what
 * the code sets on the instance stays on the handle (db/traced-pglite.ts wraps its statements to
 * tell the handle's watches, db/table-writes.ts, what ran: set on the instance, the first file's
 * wrappers would tell the first file's watches for good, and a later file's cached callers would
 * outlive a password change).
 */
function lend(target: PGlite): { pglite: PGlite; revoke: () => void } {
  let revoked = false;
  const own = new Map<PropertyKey, unknown>();
  const closed = () => Promise.reject(new Error('PGlite is closed'));
  const pglite = new Proxy(target, {
    get(t, key) {
      if (key === 'closed') return revoked || t.closed;
      if (own.has(key)) return revoked && typeof own.get(key) === 'function' ? closed : own.get(key);
      const value = Reflect.get(t, key, t);
      if (typeof value !== 'function') return value;
      return revoked ? closed : value.bind(t);
    },
    set(_t, key, value) {
      own.set(key, value);
      return true;
    },
  });
  return { pglite, revoke: () => (revoked = true) };
}
