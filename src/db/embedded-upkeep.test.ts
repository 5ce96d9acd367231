// The embedded database's upkeep analyzes and vacuums the tables autovacuum would on a server, and
// leaves the others alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { upkeep } from './embedded-upkeep.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.cleanup());

/** The table's counters as PostgreSQL has them once this backend's pending counts are flushed. */
async function counters(table: string) {
  await t.database.query('SELECT pg_stat_force_next_flush()');
  await t.database.query('SELECT 1');
  const [row] = await t.database.query<{ mods: number; dead: number }>(
    'SELECT n_mod_since_analyze::int AS mods, n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = $1',
    [table],
  );
  return row;
}

describe.runIf(process.env.DATABASE_URL === undefined)('embedded database upkeep', () => {
  it('analyzes a table that changed past the threshold, vacuums one with dead rows, and then finds nothing due', async () => {
    await t.database.query('CREATE TABLE upkeep_probe (id int PRIMARY KEY, v text)');
    await t.database.query(`INSERT INTO upkeep_probe SELECT g, 'x' FROM generate_series(1, 2000) g`);
    await t.database.query(`UPDATE upkeep_probe SET v = 'y' WHERE id <= 1000`);
    expect(await counters('upkeep_probe')).toEqual({ mods: 3000, dead: 1000 });

    const done = await upkeep(t.database);
    expect(done.filter((d) => d.table === 'public.upkeep_probe').map((d) => d.did)).toEqual(['VACUUM (ANALYZE)']);
    expect(await counters('upkeep_probe')).toEqual({ mods: 0, dead: 0 });
    const [{ reltuples }] = await t.database.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'upkeep_probe'`);
    expect(reltuples).toBe(2000);

    // A few changes, below 50 + 10% of the rows: nothing to do for this table.
    await t.database.query(`UPDATE upkeep_probe SET v = 'z' WHERE id <= 10`);
    expect((await counters('upkeep_probe')).mods).toBe(10);
    expect((await upkeep(t.database)).some((d) => d.table === 'public.upkeep_probe')).toBe(false);
  });
});
