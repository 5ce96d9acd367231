// Builds one migrated, seeded database once per run of a project; every test file then starts from
// a copy of it (a PGlite data-directory image, or a PostgreSQL template database when the project's
// DATABASE_URL is set: see vitest.config.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openEmbedded, openPostgres } from '../src/db/connection.ts';
import { initialize } from '../src/app/bootstrap.ts';
import { TEMPLATE_DB, withDatabaseName } from './db-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateImage: string;
    serverUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const url = project.config.env.DATABASE_URL;
  if (url) {
    const admin = await openPostgres(url, 1);
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    const template = await openPostgres(withDatabaseName(url, TEMPLATE_DB), 1);
    await initialize(template);
    await template.close();
    await admin.close();
    project.provide('serverUrl', url);
    project.provide('templateImage', '');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'muster-test-'));
  const db = await openEmbedded(undefined);
  await initialize(db);
  const image = await db.pglite!.dumpDataDir('none');
  await db.close();
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  project.provide('templateImage', file);
  project.provide('serverUrl', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
