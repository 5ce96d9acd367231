// `muster database check`: reads a whole database and reports what is damaged. Each table is read
// in full, every value included (TOAST too), which verifies the checksum of every page read when
// data checksums are on; then read again through its primary key, which fetches every row the
// index names: a table file cut short or a lost page shows as an error or as two different counts.
// Where the amcheck extension is available, every B-tree index is verified as well, including that
// it holds every row of its table (bt_index_check with heapallindexed), and every table's pages
// (verify_heapam).
import { sql } from 'drizzle-orm';
import type { Database } from './connection.ts';

export interface CheckReport {
  checksums: string;
  amcheck: boolean;
  tables: number;
  rows: number;
  indexes: number;
  problems: string[];
}

const SCHEMAS = ['public', 'pgboss'];
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The server's own words for a failure (the driver's error, not the query builder's wrapper, which quotes the statement). */
function reason(err: unknown): string {
  for (let e = err as { cause?: unknown; message?: string; code?: string } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return `${e.message} (${e.code})`;
  }
  return (err as Error)?.message ?? String(err);
}

export async function checkDatabase(database: Database, log: (m: string) => void = () => {}): Promise<CheckReport> {
  const problems: string[] = [];
  const [{ data_checksums: checksums }] = await database.query<{ data_checksums: string }>('SHOW data_checksums');

  // amcheck: created for the check when it is available and absent, dropped after.
  let amcheck = false;
  let created = false;
  try {
    const [found] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'amcheck'`);
    if (!found.n) {
      await database.query('CREATE EXTENSION amcheck');
      created = true;
    }
    amcheck = true;
  } catch {
    /* not installed on this server, or no privilege: the reads below still run */
  }

  const tables = await database.query<{ schema: string; name: string; pk: string[] | null }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM pg_index i
               CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
              WHERE i.indrelid = c.oid AND i.indisprimary) AS pk
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = ANY($1) ORDER BY 1, 2`,
    [SCHEMAS],
  );
  let rows = 0;
  for (const t of tables) {
    const rel = `${quote(t.schema)}.${quote(t.name)}`;
    let read: number | undefined;
    try {
      read = await database.db.transaction(async (tx) => {
        for (const s of ['enable_indexscan', 'enable_indexonlyscan', 'enable_bitmapscan']) await tx.execute(sql.raw(`SET LOCAL ${s} = off`));
        const r = await tx.execute(sql.raw(`SELECT count(*)::bigint AS n, sum(length(t::text))::bigint AS bytes FROM ${rel} AS t`));
        return Number((r.rows[0] as { n: number }).n);
      });
      rows += read;
    } catch (err) {
      problems.push(`${rel}: reading the table failed: ${reason(err)}`);
    }
    if (t.pk?.length) {
      try {
        const viaIndex = await database.db.transaction(async (tx) => {
          for (const s of ['enable_seqscan', 'enable_indexonlyscan', 'enable_bitmapscan', 'enable_sort']) await tx.execute(sql.raw(`SET LOCAL ${s} = off`));
          const order = t.pk!.map(quote).join(', ');
          const r = await tx.execute(sql.raw(`SELECT count(*)::bigint AS n FROM (SELECT ${order} FROM ${rel} ORDER BY ${order}) AS s`));
          return Number((r.rows[0] as { n: number }).n);
        });
        if (read !== undefined && viaIndex !== read) {
          problems.push(`${rel}: ${read} rows read from the table, but its primary key names ${viaIndex}: the table file has lost rows`);
        }
      } catch (err) {
        problems.push(`${rel}: reading the table through its primary key failed: ${reason(err)}`);
      }
    }
    if (amcheck) {
      try {
        const found = await database.query<{ blkno: number; msg: string }>(`SELECT blkno, msg FROM verify_heapam($1::regclass) LIMIT 5`, [rel]);
        for (const f of found) problems.push(`${rel}: page ${f.blkno}: ${f.msg}`);
      } catch (err) {
        problems.push(`${rel}: verifying its pages failed: ${reason(err)}`);
      }
    }
  }

  let indexes = 0;
  if (amcheck) {
    const btrees = await database.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am am ON am.oid = c.relam
        -- A partitioned table's index (relkind I, the job queue's) has nothing to check itself; its partitions' indexes are checked.
        WHERE am.amname = 'btree' AND c.relkind = 'i' AND n.nspname = ANY($1) AND i.indisvalid ORDER BY 1`,
      [SCHEMAS],
    );
    for (const ix of btrees) {
      try {
        await database.query('SELECT bt_index_check($1::regclass, true)', [ix.name]);
        indexes++;
      } catch (err) {
        problems.push(`index ${ix.name}: ${reason(err)}`);
      }
    }
  }
  if (created) await database.query('DROP EXTENSION amcheck').catch(() => {});
  log(
    `Checked ${tables.length} tables (${rows} rows)${amcheck ? ` and ${indexes} indexes with amcheck` : ' (amcheck is not available: indexes were not verified)'}; data checksums ${checksums}.`,
  );
  return { checksums, amcheck, tables: tables.length, rows, indexes, problems };
}
