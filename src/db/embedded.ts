// Opening the embedded database (PGlite) in a data directory, so that every failure says which
// directory and why: the directory cannot be created or written, it holds something that is not a
// database of this PostgreSQL, its control file is damaged, or another process has it open (the
// embedded database is one process's; two writing the same files would corrupt them). PGlite
// itself says little ("PGlite failed to initialize properly", "Aborted()"): when it fails, it is
// opened once more with PostgreSQL's messages captured, and the first FATAL or PANIC is the cause.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type Extensions, PGlite } from '@electric-sql/pglite';

/** The PostgreSQL major version PGlite embeds: a data directory of another cannot be opened. */
export const EMBEDDED_PG_VERSION = '18';
const PG_CONTROL_SIZE = 8192;
const LOCK_FILE = 'muster.pid';

/** The embedded database cannot be opened: the message names the directory and the cause. */
export class EmbeddedOpenError extends Error {}

const fail = (pgdata: string, cause: string) => new EmbeddedOpenError(`the embedded database in ${pgdata} cannot be opened: ${cause}`);

const errno = (err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  return e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied' : e.code === 'EROFS' ? 'read-only file system' : (e.code ?? e.message);
};

/** Can this process create and remove a file in `dir`? (Root passes permission checks, not a read-only mount.) */
function writable(dir: string): string | undefined {
  const probe = join(dir, `.muster-write-test-${process.pid}`);
  try {
    writeFileSync(probe, '');
    unlinkSync(probe);
    return undefined;
  } catch (err) {
    return errno(err);
  }
}

/** Checks what can be checked before PGlite starts; throws naming the cause. */
function preflight(dataDir: string, pgdata: string) {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw fail(pgdata, `cannot create ${dataDir} (${errno(err)})`);
  }
  const notWritable = writable(dataDir);
  if (notWritable) throw fail(pgdata, `${dataDir} is not writable (${notWritable})`);
  if (!existsSync(pgdata)) return;
  if (!statSync(pgdata).isDirectory()) throw fail(pgdata, 'it is not a directory');
  const pgdataNotWritable = writable(pgdata);
  if (pgdataNotWritable) throw fail(pgdata, `it is not writable (${pgdataNotWritable})`);
  if (readdirSync(pgdata).length === 0) return; // created on first use
  const versionFile = join(pgdata, 'PG_VERSION');
  if (!existsSync(versionFile)) throw fail(pgdata, 'it holds no PostgreSQL database (PG_VERSION is missing)');
  const version = readFileSync(versionFile, 'utf8').trim();
  if (version !== EMBEDDED_PG_VERSION) {
    throw fail(
      pgdata,
      `it was created by PostgreSQL ${version}; this Muster embeds PostgreSQL ${EMBEDDED_PG_VERSION} (move it with muster database dump and restore)`,
    );
  }
  const control = join(pgdata, 'global', 'pg_control');
  if (!existsSync(control)) throw fail(pgdata, 'global/pg_control is missing: the directory is damaged (restore it from a dump)');
  const size = statSync(control).size;
  if (size !== PG_CONTROL_SIZE) {
    throw fail(pgdata, `global/pg_control is damaged (${size} bytes, expected ${PG_CONTROL_SIZE}): restore the database from a dump`);
  }
}

/** Whether `pid` is a live process that may be a Muster (node) one. */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A container restarted may give the old pid to an unrelated process: on Linux, look at it.
  try {
    return /node|muster/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Takes the data directory for this process: a lock file naming its pid, refused while the pid it
 * names is alive, taken over from a process that ended without removing it (a crash, kill -9).
 */
function lock(dataDir: string, pgdata: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          if (Number(readFileSync(file, 'utf8').trim()) === process.pid) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw fail(pgdata, `cannot create ${file} (${errno(err)})`);
    }
    const holder = Number(readFileSync(file, 'utf8').trim());
    if (alive(holder)) {
      throw fail(
        pgdata,
        `it is in use by process ${holder} (a running muster server?); the embedded database is one process's: stop that process first, or use the server's API`,
      );
    }
    rmSync(file, { force: true }); // left behind by a process that ended
  }
  throw fail(pgdata, `cannot take ${file}`);
}

/** PostgreSQL's own explanation of a failed start: its first PANIC or FATAL line (or ERROR), without the log prefix. */
async function diagnose(pgdata: string): Promise<string | undefined> {
  const lines: string[] = [];
  const saved = { log: console.log, error: console.error, warn: console.warn, debug: console.debug, info: console.info };
  const keep = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  Object.assign(console, { log: keep, error: keep, warn: keep, debug: keep, info: keep });
  try {
    const pg = await PGlite.create({ dataDir: pgdata, debug: 1 });
    await pg.close();
  } catch {
    /* the messages are what is wanted */
  } finally {
    Object.assign(console, saved);
  }
  const pick = (level: string) => lines.find((l) => new RegExp(`\\b${level}:`).test(l));
  const line = pick('PANIC') ?? pick('FATAL') ?? pick('ERROR');
  return line?.replace(/^.*?\b(PANIC|FATAL|ERROR):\s*/, '').trim();
}

export interface EmbeddedOptions {
  loadDataDir?: Blob;
  extensions?: Extensions;
}

/**
 * PGlite on `dataDir/pgdata` (in memory without a directory), with data checksums on a new
 * database. Returns the instance and a function that lets the directory go.
 */
export async function openPglite(dataDir: string | undefined, opts: EmbeddedOptions = {}): Promise<{ pglite: PGlite; release: () => void }> {
  // New databases get data checksums (PostgreSQL 18's initdb default, asked for explicitly): a page
  // damaged on disk then fails its read with an error instead of being served.
  const base = { loadDataDir: opts.loadDataDir, extensions: opts.extensions, initDbStartParams: ['--data-checksums'] };
  if (!dataDir) return { pglite: await PGlite.create(base), release: () => {} };
  const pgdata = join(dataDir, 'pgdata');
  preflight(dataDir, pgdata);
  const release = lock(dataDir, pgdata);
  try {
    return { pglite: await PGlite.create({ ...base, dataDir: pgdata }), release };
  } catch (err) {
    const cause = (await diagnose(pgdata).catch(() => undefined)) ?? (err as Error).message;
    release();
    throw fail(pgdata, cause);
  }
}
