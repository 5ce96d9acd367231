// Builds one migrated, seeded database once per run and database; every test file then starts from
// it: a PGlite data-directory image of the run's migrated cluster (test/embedded-clusters.ts), opened
// once per test process and put back to its rows between files (test/embedded-reuse.ts), or a copy
// of a PostgreSQL template database when the project's DATABASE_URL is set (vitest.config.ts). The projects of one database (`embedded` and
// `embedded-own-process`, say) share it: their set-ups run in this one process, and the first
// builds it while the other waits for it.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openEmbedded, openPostgres } from '../src/db/connection.ts';
import { initialize } from '../src/app/bootstrap.ts';
import { dropDatabase, runDatabaseName, withDatabaseName } from './db-url.ts';
import { clusters } from './embedded-clusters.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateImage: string;
    serverUrl: string;
    /** The template database on the server at serverUrl. */
    templateDatabase: string;
  }
}

interface Template {
  image: string;
  database: string;
  remove(): Promise<void>;
}

/** Templates by database (the server's URL, or '' for the embedded one), with the projects using each. */
interface Shared {
  template: Promise<Template>;
  users: number;
}
// Each project loads this file anew; what they share hangs on the process's global object.
const templates: Map<string, Shared> = ((globalThis as Record<symbol, unknown>)[Symbol.for('muster.test.templates')] ??= new Map()) as Map<string, Shared>;

async function serverTemplate(url: string): Promise<Template> {
  const database = runDatabaseName('muster_test_template');
  const admin = await openPostgres(url, 1);
  await admin.query(`CREATE DATABASE ${database}`);
  const template = await openPostgres(withDatabaseName(url, database), 1);
  await initialize(template);
  await template.close();
  await admin.close();
  return { image: '', database, remove: () => dropDatabase(url, database) };
}

/** An image of the run's migrated embedded cluster, opened from a copy (opening writes to it). */
async function embeddedTemplate(): Promise<Template> {
  const dir = mkdtempSync(join(tmpdir(), 'muster-test-'));
  cpSync((await clusters()).migrated, join(dir, 'cluster'), { recursive: true });
  const db = await openEmbedded(join(dir, 'cluster'));
  const image = await db.pglite!.dumpDataDir('none');
  await db.close();
  rmSync(join(dir, 'cluster'), { recursive: true, force: true });
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  return { image: file, database: '', remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

export default async function setup(project: TestProject) {
  const url = project.config.env.DATABASE_URL ?? '';
  let shared = templates.get(url);
  if (!shared) {
    shared = { template: url ? serverTemplate(url) : embeddedTemplate(), users: 0 };
    templates.set(url, shared);
  }
  shared.users += 1;
  const template = await shared.template;
  project.provide('serverUrl', url);
  project.provide('templateDatabase', template.database);
  project.provide('templateImage', template.image);
  return async () => {
    if (--shared.users > 0) return;
    templates.delete(url);
    await template.remove();
  };
}
