// Data directories and databases for the `muster` program's tests, made once per run: an embedded
// cluster as a new data directory holds it after initdb, the same cluster migrated and seeded as
// `muster database init` leaves it (test/embedded-clusters.ts), and (when the run has a PostgreSQL
// server) a migrated template database. Tests start from a copy, instead of each running initdb and
// every revision (seconds of CPU each); only the tests of initialization itself start from nothing.
// The `muster` these tests start runs dist/ while it is current (bin/built.js), else compiles every
// source on load: a stale or missing dist/ is built here first, once, instead of on every start.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { initialize } from '../src/app/bootstrap.ts';
import { openPostgres } from '../src/db/connection.ts';
import { dropDatabase, runDatabaseName, withDatabaseName } from './db-url.ts';
import { clusters } from './embedded-clusters.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory's `pgdata` right after initdb. */
    emptyCluster: string;
    /** A data directory's `pgdata` after `muster database init`. */
    migratedCluster: string;
    /** A database on the run's PostgreSQL server after `muster database init` ('' without a server). */
    migratedTemplate: string;
  }
}

const ROOT = new URL('..', import.meta.url);

async function buildIfStale() {
  const built = new URL('bin/built.js', ROOT).href;
  const { builtModule } = (await import(built)) as { builtModule(name: string): string | undefined };
  if (!builtModule('cli/main')) execFileSync(process.execPath, ['bin/build.js'], { cwd: ROOT, stdio: 'inherit' });
}

export default async function setup(project: TestProject) {
  await buildIfStale();
  const { empty, migrated } = await clusters();
  project.provide('emptyCluster', join(empty, 'pgdata'));
  project.provide('migratedCluster', join(migrated, 'pgdata'));

  const url = project.config.env.DATABASE_URL;
  const template = runDatabaseName(`muster_cli_template_${project.name.replace(/\W/g, '_')}`);
  if (url) {
    const admin = await openPostgres(url, 1);
    await admin.query(`CREATE DATABASE ${template}`);
    const db = await openPostgres(withDatabaseName(url, template), 1);
    await initialize(db);
    await db.close();
    await admin.close();
  }
  project.provide('migratedTemplate', url ? template : '');
  return async () => {
    if (url) await dropDatabase(url, template);
  };
}
