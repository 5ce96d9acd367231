// GET case and case lists in one statement (crud/document.ts): the same bytes the readers' objects
// serialize to, the costs and signal instances spliced in, for callers who see all and who do not.
// The cases are closed, so that their costs (counted up to now while open) stay put between reads.
import fastJson from 'fast-json-stringify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { createWorld, type World } from '../../../test/worlds/incidents.ts';
import type { Ctx } from '../../server/context.ts';
import { JsonText } from '../../server/json-text.ts';
import { applyInclude, includeShape } from '../../list/include.ts';
import { Pagination } from '../../server/shapes.ts';
import { resolveCaller } from '../auth/service.ts';
import type { OrganizationRow } from '../organization/table.ts';
import { caseItemsText, caseResponse, readVisibleCases } from './reader.ts';
import { CaseRead, CaseReadMinimal } from './schema.ts';
import { getCase } from './service.ts';

let w: World;
let open: number;
let hidden: number;
const serialize = fastJson(CaseRead as object);
const serializePage = fastJson(includeShape(Pagination(CaseReadMinimal, 'CasePagination')) as object);

async function ctxOf(email: string): Promise<Ctx> {
  const caller = (await resolveCaller(w.t.database.db, email, { slug: 'default' }))!;
  return { db: w.t.database.db, settings: w.t.settings, user: caller.user, organization: caller.organization as OrganizationRow, role: caller.role! };
}

async function closedCase(body: Record<string, unknown>) {
  const created = await call(w.t.app, 'POST', '/default/cases', { token: w.owner, body: { title: 'A case', description: 'It happened.', ...body } });
  expect(created.status).toBe(200);
  const closed = await call(w.t.app, 'PUT', `/default/cases/${created.body.id}`, { token: w.owner, body: { ...created.body, status: 'Closed' } });
  expect(closed.status).toBe(200);
  return created.body.id as number;
}

beforeAll(async () => {
  w = await createWorld();
  hidden = await closedCase({ title: 'Hidden case', visibility: 'Restricted' });
  open = await closedCase({ title: 'Open case "quoted"\n' });
  const current = (await call(w.t.app, 'GET', `/default/cases/${open}`, { token: w.owner })).body;
  expect(
    (await call(w.t.app, 'PUT', `/default/cases/${open}`, { token: w.owner, body: { ...current, related: [{ id: hidden }], duplicates: [{ id: hidden }] } }))
      .status,
  ).toBe(200);
});
afterAll(() => w?.t.close());

describe('cases in one statement', () => {
  for (const who of ['owner', 'member'] as const) {
    it(`GET writes the bytes the readers' object serializes to (${who})`, async () => {
      const ctx = await ctxOf(`${who}@example.com`);
      const answer = await caseResponse(ctx, open, () => Promise.reject(new Error('read through the readers')));
      expect(answer).toBeInstanceOf(JsonText);
      const text = (answer as unknown as JsonText).text;
      expect(text).toBe(serialize(await getCase(ctx, open)));
      expect(JSON.parse(text).related.map((c: { id: number }) => c.id)).toEqual(who === 'owner' ? [hidden] : []);
      const res = await w.t.app.inject({ url: `/api/v1/default/cases/${open}`, headers: { authorization: `Bearer ${w[who]}` } });
      expect(res.body).toBe(text);
    });

    for (const include of [[], ['title', 'total_cost_classic', 'total_cost_new', 'related', 'case_priority', 'tags', 'incidents']]) {
      it(`lists ${include.length ? 'cut to include[]' : 'minimal items'} as the readers' objects serialize (${who})`, async () => {
        const ctx = await ctxOf(`${who}@example.com`);
        const listed = await call(w.t.app, 'GET', '/default/cases', { token: w[who], query: { itemsPerPage: -1 } });
        const ids = (listed.body.items as { id: number }[]).map((i) => i.id);
        expect(ids.includes(hidden)).toBe(who === 'owner');
        const read = await readVisibleCases(ctx, ctx.db, ids, false);
        const expected = serializePage({ items: applyInclude(read, include), itemsPerPage: listed.body.total, page: 1, total: listed.body.total });
        const qs = new URLSearchParams([['itemsPerPage', '-1'], ...include.map((f) => ['include[]', f])]);
        expect((await w.t.app.inject({ url: `/api/v1/default/cases?${qs}`, headers: { authorization: `Bearer ${w[who]}` } })).body).toBe(expected);
        expect(await caseItemsText(ctx.db, ids, ctx, include)).toBe(JSON.stringify(JSON.parse(expected).items));
      });
    }
  }
});
