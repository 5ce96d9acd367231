// A caller kept between requests (the embedded database, caller-cache.ts) never outlives a change to
// it, whoever makes the change: a statement outside any request (a job, the CLI's code, SQL by hand),
// a transaction that commits, one that rolls back. Run on both databases: on PostgreSQL nothing is
// kept and the same answers follow from the lookup every request makes.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from '../../../test/helpers.ts';
import { watchWrites } from '../../db/table-writes.ts';
import { appUser, userOrganization } from './table.ts';

let t: TestApp;
let member: string;
const MEMBER = 'kept@example.com';
const myRole = async (token = member) => {
  const res = await call(t.app, 'GET', '/default/auth/myrole', { token });
  return res.status === 200 ? res.body : res.status;
};

beforeAll(async () => {
  t = await createTestApp();
  await register(t.app, 'owner@example.com');
  member = await register(t.app, MEMBER);
});
afterAll(() => t.close());

describe('a caller kept between requests', () => {
  it('is refused at the next request once its tokens are ended by a statement outside any request', async () => {
    expect(await myRole()).toBe('Member');
    expect(await myRole()).toBe('Member');
    await t.database.query(`UPDATE app_user SET tokens_valid_after = now() + interval '2 seconds' WHERE email = $1`, [MEMBER]);
    expect(await myRole()).toBe(401);
    await t.database.query('UPDATE app_user SET tokens_valid_after = NULL WHERE email = $1', [MEMBER]);
    expect(await myRole()).toBe('Member');
  });

  it('takes a new role once its transaction commits, and keeps the old one when it rolls back', async () => {
    const db = t.app.muster.db;
    const [user] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.email, MEMBER));
    const mine = and(eq(userOrganization.user_id, user.id), eq(userOrganization.organization_id, 1));
    expect(await myRole()).toBe('Member');
    await expect(
      db.transaction(async (tx) => {
        await tx.update(userOrganization).set({ role: 'Admin' }).where(mine);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await myRole()).toBe('Member');
    await db.transaction(async (tx) => {
      await tx.update(userOrganization).set({ role: 'Admin' }).where(mine);
    });
    expect(await myRole()).toBe('Admin');
    await db.update(userOrganization).set({ role: 'Member' }).where(mine);
    expect(await myRole()).toBe('Member');
  });

  it('is refused once deactivated, and not a member once its membership is removed', async () => {
    const db = t.app.muster.db;
    expect(await myRole()).toBe('Member');
    await db.update(appUser).set({ deactivated_at: new Date() }).where(eq(appUser.email, MEMBER));
    expect(await myRole()).toBe(401);
    await db.update(appUser).set({ deactivated_at: null }).where(eq(appUser.email, MEMBER));
    expect(await myRole()).toBe('Member');
    await db.execute(sql`DELETE FROM user_organization WHERE user_id = (SELECT id FROM app_user WHERE email = ${MEMBER})`);
    expect(await myRole()).toBe(403);
  });

  it('is unknown once its user is deleted', async () => {
    const other = await register(t.app, 'gone@example.com');
    expect(await myRole(other)).toBe('Member');
    await t.database.query(`WITH gone AS (DELETE FROM "app_user" WHERE email = 'gone@example.com' RETURNING id) SELECT count(*) FROM gone`);
    expect(await myRole(other)).toBe(401);
  });
});

describe.runIf(process.env.DATABASE_URL === undefined)('writes seen on the embedded database', () => {
  it('by the tables each statement writes, quoted or not, in a CTE too, and only those', async () => {
    const pglite = t.database.pglite!;
    let seen = 0;
    const stop = watchWrites(pglite, ['organization'], () => seen++);
    try {
      await t.database.query('SELECT * FROM "organization" WHERE id = $1 FOR UPDATE', [1]);
      await t.database.query(`UPDATE "organization_x" SET a = 1`).catch(() => undefined);
      expect(seen).toBe(0);
      await t.database.query('UPDATE organization SET name = name WHERE id = 1');
      await t.database.query(`WITH o AS (UPDATE "organization" SET name = name WHERE id = $1 RETURNING id) SELECT id FROM o`, [1], 'muster_test_org_touch');
      await t.database.query(`WITH o AS (UPDATE "organization" SET name = name WHERE id = $1 RETURNING id) SELECT id FROM o`, [1], 'muster_test_org_touch');
      expect(seen).toBe(3);
    } finally {
      stop();
    }
  });
});
