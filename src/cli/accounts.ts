// What `muster user` and `muster token` share: the database opened for one command (on the embedded
// database, only while no server holds it: the API does the same while one runs) and times printed
// the same way.
import { loadSettings, type Settings } from '../config.ts';
import { openReady } from '../app/bootstrap.ts';
import type { Executor } from '../db/connection.ts';
import { EmbeddedOpenError } from '../db/embedded.ts';

/** Runs fn on the database, closed afterwards. */
export async function withDatabase<T>(fn: (db: Executor, settings: Settings) => Promise<T>, whileServing: string): Promise<T> {
  const settings = loadSettings();
  let database: Awaited<ReturnType<typeof openReady>>;
  try {
    database = await openReady(settings);
  } catch (err) {
    if (err instanceof EmbeddedOpenError && /in use by process/.test(err.message)) throw new Error(`${err.message}. While it runs: ${whileServing}`);
    throw err;
  }
  try {
    return await fn(database.db, settings);
  } finally {
    await database.close();
  }
}

/** An instant to the second, in UTC; empty when none. */
export const when = (iso: string | null | undefined) => (iso ? iso.replace(/\.\d{3}Z$/, 'Z') : '');
