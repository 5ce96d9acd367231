// The embedded database's statement runner (embedded-statements.ts): drizzle's statements, named or
// not, give what PGlite's own query() gives for the same text, fail as PostgreSQL fails them, and
// keep to their transaction.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { pgError } from './errors.ts';
import { runStatement } from './statements.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.database.query('CREATE TABLE runner_probe (id int PRIMARY KEY, doc json, tags text[], at timestamptz, flag bool, big bigint, amount numeric)');
  await t.database.query(
    `INSERT INTO runner_probe VALUES (1, '{"a":[1,2]}', '{x,"y z"}', '2026-01-02T03:04:05Z', true, 9007199254740993, 1.5),
      (2, NULL, NULL, NULL, NULL, NULL, NULL)`,
  );
});
afterAll(async () => {
  await t.database.query('DROP TABLE runner_probe');
  await t.cleanup();
});

describe.runIf(process.env.DATABASE_URL === undefined)('statements on the embedded database', () => {
  const probe = sql`SELECT * FROM runner_probe WHERE id >= ${1} ORDER BY id`;

  it('read every type as PGlite reads it, unnamed and named alike', async () => {
    const pglite = t.database.pglite!;
    // drizzle asks for times as PostgreSQL writes them.
    const asText = { parsers: { 1184: (value: string) => value } };
    const { rows: expected } = await pglite.query('SELECT * FROM runner_probe WHERE id >= $1 ORDER BY id', [1], asText);
    const unnamed = await t.database.db.execute(probe);
    const named = await runStatement(t.database.db, probe);
    expect(unnamed.rows).toEqual(expected);
    expect(named).toEqual(expected);
    expect(expected[0]).toMatchObject({ doc: { a: [1, 2] }, tags: ['x', 'y z'], at: '2026-01-02 03:04:05+00', flag: true, big: 9007199254740993n });
  });

  it('count what a write changed, and give a statement with no rows none', async () => {
    const changed = await t.database.db.execute(sql`UPDATE runner_probe SET flag = ${false} WHERE id <= ${2}`);
    expect(changed).toMatchObject({ affectedRows: 2, rows: [] });
    const none = await t.database.db.execute(sql`SELECT id FROM runner_probe WHERE id > ${100}`);
    expect(none.rows).toEqual([]);
  });

  it('fail with PostgreSQL’s error, and the next statement runs', async () => {
    const error = await t.database.db.execute(sql`INSERT INTO runner_probe (id) VALUES (${1})`).catch((e: unknown) => e);
    expect(pgError(error)?.code).toBe('23505');
    expect((await t.database.db.execute(sql`SELECT count(*)::int AS n FROM runner_probe`)).rows).toEqual([{ n: 2 }]);
  });

  it('run inside their transaction, and refuse to run once it has ended', async () => {
    let ended: Parameters<Parameters<typeof t.database.db.transaction>[0]>[0] | undefined;
    await expect(
      t.database.db.transaction(async (tx) => {
        ended = tx;
        await tx.execute(sql`INSERT INTO runner_probe (id) VALUES (${3})`);
        await runStatement(tx, sql`INSERT INTO runner_probe (id) VALUES (${4})`);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await t.database.db.execute(sql`SELECT count(*)::int AS n FROM runner_probe`)).rows).toEqual([{ n: 2 }]);
    await expect(ended!.execute(sql`SELECT 1`)).rejects.toMatchObject({ cause: { message: 'Transaction is closed' } });
  });
});
