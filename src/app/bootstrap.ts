// Bringing a database to a servable state: schema created or upgraded to the newest revision,
// then the `default` organization and project seeded. Idempotent, and safe for nodes starting
// together (migrations serialise on an advisory lock).
import type { Settings } from '../config.ts';
import { ensureDefaultOrganization } from '../domains/organization/service.ts';
import { openDatabase, type Database } from '../db/connection.ts';
import { upgrade } from '../db/migrate.ts';

export async function initialize(database: Database, log: (m: string) => void = () => {}) {
  const applied = await upgrade(database, 'heads', log);
  const seeded = await ensureDefaultOrganization(database.db);
  if (seeded) log('Created organization "default" with project "default"');
  return { applied, seeded };
}

export async function openReady(settings: Settings, log?: (m: string) => void): Promise<Database> {
  const database = await openDatabase(settings);
  try {
    await initialize(database, log);
    return database;
  } catch (err) {
    await database.close();
    throw err;
  }
}
