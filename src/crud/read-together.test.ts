// Reads of one record by id asked for together run as one statement (read-together.ts), through the
// GETs of incidents, cases and a plain record over HTTP: each answer is byte for byte the one a read
// alone gives, a record the reader may not see is still 404 beside ones they may, and a write is seen
// by the reads asked for after it. Which reads go together is checked on reads asked for in one
// turn, since requests over HTTP by different callers reach the read after their own lookups.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/helpers.ts';
import { readIncidentFor } from '../domains/incident/reader.ts';
import type { Ctx } from '../server/context.ts';
import { cases } from '../../test/worlds/cases.ts';
import { api, useWorld } from '../../test/worlds/incidents.ts';
import { togetherStats } from './read-together.ts';

const w = useWorld();
const incidents = api(w);
const caseApi = cases(w);

const get = (path: string, token = w.owner) => w.t.app.inject({ method: 'GET', url: `/api/v1/default/${path}`, headers: { authorization: `Bearer ${token}` } });
const stats = () => togetherStats(w.t.app.muster.db);

/** The reads and statements `run` made. */
async function counted<T>(run: () => Promise<T>): Promise<{ value: T; reads: number; statements: number }> {
  const before = stats();
  const value = await run();
  const after = stats();
  return { value, reads: after.reads - before.reads, statements: after.statements - before.statements };
}

/** The reader a token's requests read as: its user, and its organization with its role there. */
async function readerOf(token: string): Promise<Ctx> {
  const me = (await call(w.t.app, 'GET', '/default/auth/me', { token })).body;
  const { organization, role } = me.organizations.find((o: { organization: { slug: string } }) => o.organization.slug === 'default');
  return { db: w.t.app.muster.db, user: { id: me.id, email: me.email }, organization, role } as Ctx;
}

let open: number[];
let restricted: number;
let caseIds: number[];
let tagId: number;

beforeAll(async () => {
  open = [];
  for (const title of ['Checkout timeouts', 'Login errors', 'Queue backlog']) open.push((await incidents.create({ title }, w.owner)).body.id);
  restricted = (await incidents.create({ title: 'Restricted one', visibility: 'Restricted' }, w.owner)).body.id;
  caseIds = [];
  for (const title of ['Phishing report', 'Impossible travel']) caseIds.push((await caseApi.create({ title }, w.owner)).body.id);
  const type = await call(w.t.app, 'POST', '/default/tag_types', { token: w.owner, body: { name: 'Component', project: { name: 'default' } } });
  expect(type.status, JSON.stringify(type.body)).toBe(200);
  const tag = await call(w.t.app, 'POST', '/default/tags', {
    token: w.owner,
    body: { name: 'payments', tag_type: { id: type.body.id }, project: { name: 'default' } },
  });
  expect(tag.status, JSON.stringify(tag.body)).toBe(200);
  tagId = tag.body.id;
});

describe('reads of one record asked for together', () => {
  it('run in fewer statements than reads, each answering what a read alone answers, the same id twice and a missing one included', async () => {
    const paths = [...open, open[0], restricted, 999_999].map((id) => `incidents/${id}`);
    const alone = [];
    for (const path of paths) alone.push(await get(path));
    const { value: together, reads, statements } = await counted(() => Promise.all(paths.map((path) => get(path))));
    expect(reads).toBe(paths.length);
    expect(statements).toBeLessThan(reads);
    expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 404]);
    for (const [i, res] of together.entries()) {
      expect(res.rawPayload.equals(alone[i].rawPayload), paths[i]).toBe(true);
      expect(res.headers.etag).toBe(alone[i].headers.etag);
    }
  });

  it('keep a Restricted incident from a Member beside an Owner and an Admin who see it', async () => {
    const value = await Promise.all([
      get(`incidents/${restricted}`, w.owner),
      get(`incidents/${restricted}`, w.admin),
      get(`incidents/${restricted}`, w.member),
      get(`incidents/${open[1]}`, w.member),
    ]);
    expect(value.map((r) => r.statusCode)).toEqual([200, 200, 404, 200]);
    expect(JSON.parse(value[3].payload).title).toBe('Login errors');
  });

  it('in one turn: an Admin and an Owner share a statement, a Member reads apart', async () => {
    const [owner, admin, member] = await Promise.all([w.owner, w.admin, w.member].map(readerOf));
    const { value, statements } = await counted(() =>
      Promise.all([
        readIncidentFor(owner, restricted),
        readIncidentFor(admin, restricted),
        readIncidentFor(member, restricted),
        readIncidentFor(member, open[1]),
      ]),
    );
    expect(value.map((incident) => incident?.title)).toEqual(['Restricted one', 'Restricted one', undefined, 'Login errors']);
    expect(statements).toBe(2);
  });

  it('of cases and of a plain record go together by kind', async () => {
    const { value, statements } = await counted(() => Promise.all([...caseIds.map((id) => get(`cases/${id}`)), get(`tags/${tagId}`), get(`tags/${tagId}`)]));
    expect(value.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(value.map((r) => JSON.parse(r.payload).title ?? JSON.parse(r.payload).name)).toEqual([
      'Phishing report',
      'Impossible travel',
      'payments',
      'payments',
    ]);
    expect(statements).toBeLessThan(4);
  });

  it('see a write committed before they were asked for', async () => {
    expect((await incidents.edit(open[2], { title: 'Queue backlog cleared' })).status).toBe(200);
    const [one, two] = await Promise.all([get(`incidents/${open[2]}`), get(`incidents/${open[2]}`, w.member)]);
    expect(JSON.parse(one.payload).title).toBe('Queue backlog cleared');
    expect(JSON.parse(two.payload).title).toBe('Queue backlog cleared');
  });
});
