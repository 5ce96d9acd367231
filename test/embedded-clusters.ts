// The embedded clusters a run's set-ups start from, made once per process: a data directory right
// after initdb, and a copy of it migrated and seeded as `muster database init` leaves it. The
// `muster` program's tests copy both (test/empty-cluster-setup.ts); the embedded database's template
// is an image of the migrated one (test/global-setup.ts). A run of both kinds of project thus pays
// for one wasm initdb and one migration instead of two of each.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initialize } from '../src/app/bootstrap.ts';
import { openEmbedded } from '../src/db/connection.ts';

export interface Clusters {
  /** Data directories (each holding `pgdata`) after initdb, and after `muster database init`. */
  empty: string;
  migrated: string;
}

async function make(): Promise<Clusters> {
  const dir = mkdtempSync(join(tmpdir(), 'muster-test-cluster-'));
  // Set-ups run one after another in an order of vitest's choosing: the clusters stay until the run ends.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const empty = join(dir, 'empty');
  const migrated = join(dir, 'migrated');
  await (await openEmbedded(empty)).close();
  cpSync(empty, migrated, { recursive: true });
  const db = await openEmbedded(migrated);
  await initialize(db);
  await db.close();
  return { empty, migrated };
}

// Each project loads its set-up anew; what they share hangs on the process's global object.
const store = globalThis as Record<symbol, Promise<Clusters> | undefined>;

/** The run's clusters, made by the first caller. */
export function clusters(): Promise<Clusters> {
  return (store[Symbol.for('muster.test.clusters')] ??= make());
}
