// Nodes starting together against one new server database: each brings it to a servable state, none
// fails on another's half-made schema, and the default organization is seeded once.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { withDatabaseName } from '../../test/db-url.ts';
import { initialize } from '../app/bootstrap.ts';
import { openPostgres, type Database } from './connection.ts';

const serverUrl = inject('serverUrl');

describe.skipIf(!serverUrl)('start-up of nodes starting together', { timeout: 120_000 }, () => {
  const name = `muster_test_startup_${randomBytes(6).toString('hex')}`;
  const opened: Database[] = [];
  let admin: Database | undefined;

  afterAll(async () => {
    await Promise.all(opened.map((d) => d.close()));
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.close();
  });

  it('three nodes initialize one empty database at once; one seeds it', async () => {
    admin = await openPostgres(serverUrl!, 1);
    await admin.query(`CREATE DATABASE ${name}`);
    for (let i = 0; i < 3; i++) opened.push(await openPostgres(withDatabaseName(serverUrl!, name), 2));
    const results = await Promise.all(opened.map((d) => initialize(d)));
    expect(results.filter((r) => r.seeded)).toHaveLength(1);
    expect(results.filter((r) => r.applied > 0)).toHaveLength(1);
    const [orgs] = await opened[0].query<{ n: number }>('SELECT count(*)::int AS n FROM organization');
    expect(orgs.n).toBe(1);
  });
});
