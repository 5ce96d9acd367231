// Backups as plain SQL that restore into either database: the embedded one is dumped with
// PGlite's pg_dump, a server with the pg_dump on this machine. Restore runs the statements itself,
// in one transaction, on whichever database is configured, tolerating session settings the target
// server does not know (a PostgreSQL 18 dump carries some a 15 server rejects).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Database } from './connection.ts';

export const DEFAULT_DUMP_FILE = 'muster-backup.sql';
const DUMP_ARGS = ['--no-owner', '--no-privileges', '--column-inserts'];
const MUSTER_SCHEMAS = ['public', 'pgboss'];

function findPgDump(): string {
  const dirs = (process.env.PATH ?? '').split(':');
  for (const d of dirs) if (existsSync(`${d}/pg_dump`)) return `${d}/pg_dump`;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(`${root}/${v}/bin/pg_dump`))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return `${root}/${versions[0]}/bin/pg_dump`;
  }
  throw new Error('pg_dump was not found on PATH; install the PostgreSQL client tools matching your server');
}

export async function dump(database: Database, file: string): Promise<number> {
  let text: string;
  if (database.pglite) {
    const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump');
    text = await (await pgDump({ pg: database.pglite, args: DUMP_ARGS })).text();
  } else {
    const { stdout } = await promisify(execFile)(findPgDump(), [...DUMP_ARGS, '--dbname', database.url!], { maxBuffer: 1 << 30 });
    text = stdout;
  }
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}

/** Splits a SQL script into statements, minding quotes, dollar quotes, comments and psql lines. */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let cur = '';
  let i = 0;
  const n = script.length;
  const atStatementStart = () => cur.trim() === '';
  while (i < n) {
    const c = script[i];
    const next = script[i + 1];
    if (c === '\\' && atStatementStart()) {
      // psql meta-command (\connect, \restrict ...): not SQL; skip the line.
      const eol = script.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
      continue;
    }
    if (c === '-' && next === '-') {
      const eol = script.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
      cur += '\n';
      continue;
    }
    if (c === '/' && next === '*') {
      const end = script.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 2;
      cur += ' ';
      continue;
    }
    if (c === "'" || c === '"') {
      const escapes = c === "'" && /[eE]$/.test(cur) && !/\w[eE]$/.test(cur);
      let j = i + 1;
      while (j < n) {
        if (escapes && script[j] === '\\') j += 2;
        else if (script[j] === c && script[j + 1] === c) j += 2;
        else if (script[j] === c) break;
        else j++;
      }
      cur += script.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '$') {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(script.slice(i, i + 64));
      if (tag && !/[\w$]$/.test(cur)) {
        const end = script.indexOf(tag[0], i + tag[0].length);
        const stop = end === -1 ? n : end + tag[0].length;
        cur += script.slice(i, stop);
        i = stop;
        continue;
      }
    }
    if (c === ';') {
      const stmt = cur.trim();
      if (stmt) out.push(stmt);
      cur = '';
      i++;
      if (/^COPY\s/i.test(stmt) && /FROM\s+stdin$/i.test(stmt)) {
        // COPY data follows until a line holding only \. ; carry it with the statement.
        const start = script.indexOf('\n', i) + 1;
        const end = script.indexOf('\n\\.', start - 1);
        out[out.length - 1] += `\n${script.slice(start, end === -1 ? n : end + 1)}`;
        i = end === -1 ? n : end + 3;
      }
      continue;
    }
    cur += c;
    i++;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function copyField(raw: string): string | null {
  if (raw === '\\N') return null;
  return raw.replace(/\\(.)/g, (_m, ch: string) => ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v' })[ch] ?? ch);
}

/** COPY ... FROM stdin blocks as INSERTs with untyped literals, which both drivers can run. */
function copyToInserts(stmt: string): string[] {
  const [head, ...lines] = stmt.split('\n');
  const m = /^COPY\s+(.+?)\s*(\([^)]*\))?\s+FROM\s+stdin$/i.exec(head.trim());
  if (!m) return [stmt];
  const quote = (v: string | null) => (v === null ? 'NULL' : `'${v.replace(/'/g, "''")}'`);
  return lines.filter((l) => l.length > 0).map((l) => `INSERT INTO ${m[1]} ${m[2] ?? ''} VALUES (${l.split('\t').map(copyField).map(quote).join(', ')})`);
}

/** Statements a target may reject without harm: session settings, ownership, grants, the public schema. */
const TOLERATED =
  /^(SET\s|SELECT\s+pg_catalog\.set_config|RESET\s|COMMENT ON SCHEMA|CREATE SCHEMA public|ALTER SCHEMA public|ALTER\s+\w+(\s+\w+)?\s+.*OWNER TO|GRANT\s|REVOKE\s|CREATE EXTENSION)/is;

export async function isEmpty(database: Database): Promise<boolean> {
  const rows = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = ANY($1)`, [MUSTER_SCHEMAS]);
  return Number(rows[0].n) === 0;
}

/** Removes every table, type and sequence of Muster, leaving an empty database. */
export async function dropAll(database: Database): Promise<void> {
  for (const schema of MUSTER_SCHEMAS) await database.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await database.query('CREATE SCHEMA public');
}

export async function restore(database: Database, file: string): Promise<{ statements: number; skipped: string[] }> {
  const statements = splitStatements(readFileSync(file, 'utf8')).flatMap((s) => (/^COPY\s/i.test(s) ? copyToInserts(s) : [s]));
  const skipped: string[] = [];
  await database.db.transaction(async (tx) => {
    for (const stmt of statements) {
      if (!TOLERATED.test(stmt)) {
        await tx.execute(sql.raw(stmt));
        continue;
      }
      await tx.execute(sql.raw('SAVEPOINT muster_restore'));
      try {
        await tx.execute(sql.raw(stmt));
        await tx.execute(sql.raw('RELEASE SAVEPOINT muster_restore'));
      } catch (err) {
        await tx.execute(sql.raw('ROLLBACK TO SAVEPOINT muster_restore'));
        // The driver's error (the server's reason) is the cause of the query builder's wrapper.
        const reason = ((err as Error).cause as Error | undefined)?.message ?? (err as Error).message;
        skipped.push(`${stmt.split('\n')[0].slice(0, 80)}: ${reason}`);
      }
    }
  });
  return { statements: statements.length, skipped };
}
