// An embedded cluster as a new data directory holds it after initdb, made once per run: the data
// directories the `muster` program's tests give it start from a copy, instead of each running
// initdb (seconds of CPU each). Muster finds an initialized, empty cluster either way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openEmbedded } from '../src/db/connection.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory's `pgdata` right after initdb. */
    emptyCluster: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'muster-test-cluster-'));
  const db = await openEmbedded(dir);
  await db.close();
  project.provide('emptyCluster', join(dir, 'pgdata'));
  return () => rmSync(dir, { recursive: true, force: true });
}
