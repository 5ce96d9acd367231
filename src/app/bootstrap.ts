// Bringing a database to a servable state: schema created or upgraded to the newest revision,
// then the `default` organization and project seeded. Idempotent, and safe for nodes starting
// together: the whole of it runs under one lock on a server (db/startup-lock.ts).
import type { Settings } from '../config.ts';
import { ensureDefaultOrganization } from '../domains/organization/service.ts';
import { openDatabase, type Database } from '../db/connection.ts';
import { upgrade } from '../db/migrate.ts';
import { oneStartupAtATime } from '../db/startup-lock.ts';
import { ensureCatalogue } from '../domains/plugin/catalogue.ts';
import { jobQueue } from './jobs.ts';

export function initialize(database: Database, log: (m: string) => void = () => {}) {
  return oneStartupAtATime(database, () => initializeNow(database, log));
}

async function initializeNow(database: Database, log: (m: string) => void) {
  const applied = await upgrade(database, 'heads', log);
  await jobQueue(database).install();
  const catalogue = await ensureCatalogue(database.db);
  if (catalogue) log(`Installed plugins: ${catalogue.added.join(', ')}`);
  const seeded = await ensureDefaultOrganization(database.db);
  if (seeded) log('Created organization "default" with project "default"');
  return { applied, seeded, pluginsAdded: catalogue?.added ?? [] };
}

export type Initialized = Awaited<ReturnType<typeof initialize>>;

/**
 * The configured database, upgraded and seeded. On a server the upgrade runs on a connection of
 * its own without statement timeouts (a migration may take longer than any API statement); the
 * database returned carries the API's timeouts.
 */
export async function openReady(settings: Settings, log?: (m: string) => void, onReady?: (r: Initialized) => void): Promise<Database> {
  const maintenance = await openDatabase(settings, { maintenance: true });
  try {
    const initialized = await initialize(maintenance, log);
    onReady?.(initialized);
  } catch (err) {
    await maintenance.close();
    throw err;
  }
  if (maintenance.kind === 'embedded') return maintenance;
  await maintenance.close();
  return openDatabase(settings);
}
