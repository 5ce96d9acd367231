// Builds one migrated, seeded database once per run of a project; every test file then starts from
// a copy of it (a PGlite data-directory image, or a PostgreSQL template database when the project's
// DATABASE_URL is set: see vitest.config.ts). Each project has its own template database, as
// projects on the same server set theirs up at the same time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openEmbedded, openPostgres } from '../src/db/connection.ts';
import { initialize } from '../src/app/bootstrap.ts';
import { withDatabaseName } from './db-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateImage: string;
    serverUrl: string;
    /** The template database on the server at serverUrl. */
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const url = project.config.env.DATABASE_URL;
  if (url) {
    const templateDb = `muster_test_template_${project.name.replace(/\W/g, '_')}`;
    const admin = await openPostgres(url, 1);
    await admin.query(`DROP DATABASE IF EXISTS ${templateDb} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${templateDb}`);
    const template = await openPostgres(withDatabaseName(url, templateDb), 1);
    await initialize(template);
    await template.close();
    await admin.close();
    project.provide('serverUrl', url);
    project.provide('templateDatabase', templateDb);
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
  project.provide('templateDatabase', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
