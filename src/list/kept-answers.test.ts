// Dashboard answers kept per version of the tables they read (kept-answers.ts), through the incident
// dashboard over HTTP: the kept bytes are those a fresh read gives, a write to any table the answer
// read is seen by the next request, and no viewer or organization gets another's answer.
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../test/helpers.ts';
import { CASE_DASHBOARD, INCIDENT_DASHBOARD } from '../../test/web-ui/queries.ts';
import { useWorld } from '../../test/worlds/world.ts';
import { keptAnswer, keptStats, type Serialize } from './kept-answers.ts';

const w = useWorld();

const queryOf = (include: string[]) => {
  const qs = new URLSearchParams({ itemsPerPage: '-1' });
  for (const field of include) qs.append('include[]', field);
  qs.append('filter', JSON.stringify({ and: [{ or: [{ model: 'Project', field: 'name', op: '==', value: 'default' }] }] }));
  return qs;
};

type Kind = 'incidents' | 'cases';
const includeOf = (kind: Kind) => (kind === 'incidents' ? INCIDENT_DASHBOARD : CASE_DASHBOARD);

const dashboard = (token: string, opts: { org?: string; kind?: Kind; include?: string[]; headers?: Record<string, string> } = {}) =>
  w.t.app.inject({
    method: 'GET',
    url: `/api/v1/${opts.org ?? 'default'}/${opts.kind ?? 'incidents'}?${queryOf(opts.include ?? includeOf(opts.kind ?? 'incidents'))}`,
    headers: { authorization: `Bearer ${token}`, ...opts.headers },
  });

const db = () => w.t.app.muster.db;
const hits = () => keptStats(db()).hits;

type Item = Record<string, any>;

/** The dashboard for `token`, asked twice: the second answer is the kept one, byte for byte the first. */
async function keptDashboard(token = w.owner, org = 'default', kind: Kind = 'incidents'): Promise<Item[]> {
  const first = await dashboard(token, { org, kind });
  expect(first.statusCode).toBe(200);
  const before = hits();
  const again = await dashboard(token, { org, kind });
  expect(hits()).toBe(before + 1);
  expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
  expect(again.headers.etag).toBe(first.headers.etag);
  return JSON.parse(first.payload).items;
}

const post = async (path: string, body: unknown, token = w.owner) => {
  const res = await call(w.t.app, 'POST', `/default/${path}`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const put = async (path: string, body: unknown, token = w.owner) => {
  const res = await call(w.t.app, 'PUT', `/default/${path}`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const get = async (path: string) => (await call(w.t.app, 'GET', `/default/${path}`, { token: w.owner })).body;
/** Sends a record's read object back with `changes`, as the web UI does. */
const edit = async (path: string, changes: Record<string, unknown>) => put(path, { ...(await get(path)), ...changes });

const project = { name: 'default' };
const newIncident = (title: string, extra: Record<string, unknown> = {}) => post('incidents', { title, description: `${title}.`, project, ...extra });

describe('a kept dashboard answer', () => {
  it('is the bytes and the ETag of a fresh read, and answers If-None-Match with 304', async () => {
    await newIncident('Kept');
    await keptDashboard();
    // The same fields asked in another order: another request, read afresh.
    const fresh = await dashboard(w.owner, { include: [...INCIDENT_DASHBOARD].reverse() });
    const kept = await dashboard(w.owner);
    expect(kept.rawPayload.equals(fresh.rawPayload)).toBe(true);
    expect(kept.headers.etag).toBe(fresh.headers.etag);
    const before = hits();
    const notModified = await dashboard(w.owner, { headers: { 'if-none-match': String(kept.headers.etag) } });
    expect(hits()).toBe(before + 1);
    expect(notModified.statusCode).toBe(304);
    expect(notModified.payload).toBe('');
    expect(notModified.headers.etag).toBe(kept.headers.etag);
  });

  it('follows a write to each table the answer reads', async () => {
    const incident = await newIncident('Followed');
    const other = await newIncident('Other');
    const item = async () => {
      const items = await keptDashboard();
      const found = items.find((i) => i.name === incident.name);
      expect(found).toBeDefined();
      return found!;
    };
    /** `write`, then the next answer shows what `shows` expects of the incident's item. */
    const follows = async (write: () => Promise<unknown>, shows: (item: Item) => void) => {
      await item();
      await write();
      shows(await item());
    };

    await follows(
      () => edit(`incidents/${incident.id}`, { title: 'Followed, renamed' }),
      (i) => expect(i.title).toBe('Followed, renamed'),
    );
    const tagType = await post('tag_types', { name: 'Kind', project });
    const tag = await post('tags', { name: 'Urgent', tag_type: { id: tagType.id }, project });
    await follows(
      () => edit(`incidents/${incident.id}`, { tags: [{ id: tag.id }] }),
      (i) => expect(i.tags.map((t: Item) => t.name)).toEqual(['Urgent']),
    );
    await follows(
      () => edit(`tags/${tag.id}`, { name: 'Very urgent' }),
      (i) => expect(i.tags[0].name).toBe('Very urgent'),
    );
    await follows(
      () => edit(`tag_types/${tagType.id}`, { name: 'Sort' }),
      (i) => expect(i.tags[0].tag_type.name).toBe('Sort'),
    );
    const costType = await post('incident_cost_types', { name: 'Overtime', project, category: 'Primary', default: false });
    const costs = (await get(`incidents/${incident.id}`)).incident_costs as Item[];
    const before = costs.reduce((n, c) => n + c.amount, 0);
    await follows(
      () => edit(`incidents/${incident.id}`, { incident_costs: [...costs, { amount: 250, incident_cost_type: { id: costType.id } }] }),
      (i) => expect(i.total_cost).toBe(before + 250),
    );
    const added = ((await get(`incidents/${incident.id}`)).incident_costs as Item[]).find((c) => c.incident_cost_type.id === costType.id)!;
    await follows(
      () => edit(`incident_costs/${added.id}`, { amount: 300 }),
      (i) => expect(i.total_cost).toBe(before + 300),
    );
    await follows(
      () => edit(`incidents/${incident.id}`, { duplicates: [{ id: other.id }] }),
      (i) => expect(i.duplicates.map((d: Item) => d.name)).toEqual([other.name]),
    );
    await follows(
      () => edit(`incident_types/${incident.incident_type.id}`, { name: 'Renamed type' }),
      (i) => expect(i.incident_type.name).toBe('Renamed type'),
    );
    await follows(
      () => edit(`incident_priorities/${incident.incident_priority.id}`, { name: 'Renamed priority' }),
      (i) => expect(i.incident_priority.name).toBe('Renamed priority'),
    );
    await follows(
      () => edit(`incident_severities/${incident.incident_severity.id}`, { name: 'Renamed severity' }),
      (i) => expect(i.incident_severity.name).toBe('Renamed severity'),
    );
    await follows(
      () => edit(`projects/${incident.project.id}`, { display_name: 'Renamed project' }),
      (i) => expect(i.project.display_name).toBe('Renamed project'),
    );
    await follows(
      () => edit(`incidents/${incident.id}`, { status: 'Stable' }),
      (i) => expect(i.stable_at).toEqual(expect.any(String)),
    );
  });

  it('is read again after a statement on any table it read', async () => {
    await keptDashboard();
    const { tables } = keptStats(db());
    // The list's tables, the projection's and those of what it reads after its statement (derived, not listed by hand).
    expect(tables).toEqual(
      expect.arrayContaining(['incident', 'participant', 'individual_contact', 'project', 'incident_type', 'incident_priority', 'incident_severity']),
    );
    expect(tables).toEqual(expect.arrayContaining(['incident_tag', 'tag', 'tag_type', 'incident_duplicate', 'incident_cost', 'participant_role']));
    for (const table of tables) {
      await keptDashboard();
      // A statement that changes no row still moves the table's version: nothing is assumed about what it did.
      await db().execute(sql.raw(`DELETE FROM "${table}" WHERE false`));
      const before = hits();
      expect((await dashboard(w.owner)).statusCode).toBe(200);
      expect(hits(), table).toBe(before);
    }
  });

  it("is a Member's own: never an Owner's, and it follows what makes a Restricted incident theirs", async () => {
    const hidden = await newIncident('Restricted', { visibility: 'Restricted' });
    expect((await keptDashboard(w.owner)).map((i) => i.name)).toContain(hidden.name);
    expect((await keptDashboard(w.member)).map((i) => i.name)).not.toContain(hidden.name);
    // The Admin sees what the Owner sees: the same answer.
    expect((await keptDashboard(w.admin)).map((i) => i.name)).toContain(hidden.name);
    await edit(`incidents/${hidden.id}`, { reporter: { individual: { email: 'member@example.com' } } });
    expect((await keptDashboard(w.member)).map((i) => i.name)).toContain(hidden.name);
  });

  it("is the organization's own", async () => {
    expect((await keptDashboard(w.owner)).length).toBeGreaterThan(0);
    const elsewhere = await dashboard(w.owner, { org: 'elsewhere' });
    expect(elsewhere.statusCode).toBe(200);
    expect(JSON.parse(elsewhere.payload)).toMatchObject({ items: [], total: 0 });
  });
});

describe('a kept case dashboard answer', () => {
  const HOUR = 3_600_000;
  const newCase = (title: string, extra: Record<string, unknown> = {}) => post('cases', { title, description: `${title}.`, project, ...extra });
  const keptCases = (token = w.owner, org = 'default') => keptDashboard(token, org, 'cases');
  const itemOf = (items: Item[], name: string) => items.find((i) => i.name === name)!;

  afterEach(() => {
    vi.useRealTimers();
  });

  it("is a fresh read's bytes and ETag at a later time: the costs of the open cases follow the clock", async () => {
    const open = await newCase('Open case', { assignee: { individual: { email: 'analyst@example.com' } } });
    const closed = await newCase('Closed case', { assignee: { individual: { email: 'analyst@example.com' } } });
    await edit(`cases/${closed.id}`, { status: 'Closed', resolution_reason: 'False Positive' });
    const before = await keptCases();
    const reserialized = keptStats(db()).reserialized;

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5 * HOUR });
    const kept = await dashboard(w.owner, { kind: 'cases' });
    // Another request (the same fields in another order), read afresh at the same time.
    const fresh = await dashboard(w.owner, { kind: 'cases', include: [...CASE_DASHBOARD].reverse() });
    expect(kept.rawPayload.equals(fresh.rawPayload)).toBe(true);
    expect(kept.headers.etag).toBe(fresh.headers.etag);
    const items: Item[] = JSON.parse(kept.payload).items;
    // Assignee 5 h × 1 and Reporter 5 h × 0.5 more, at 25 an hour (each amount rounded up), as the case's own read gives it.
    const grown = itemOf(items, open.name).total_cost_classic - itemOf(before, open.name).total_cost_classic;
    expect([187, 188]).toContain(grown);
    expect(itemOf(items, open.name).total_cost_classic).toBe((await get(`cases/${open.id}`)).total_cost_classic);
    expect(itemOf(items, closed.name).total_cost_classic).toBe(itemOf(before, closed.name).total_cost_classic);
    for (const item of items) expect(Object.keys(item).sort()).toEqual([...CASE_DASHBOARD].sort());
    // Only the items whose costs changed were serialized again.
    const opened = items.filter((i) => i.status === 'New' || i.status === 'Triage').length;
    expect(keptStats(db()).reserialized - reserialized).toBe(opened);

    // The same time again: the same answer, nothing serialized again, and If-None-Match answers 304.
    const again = await dashboard(w.owner, { kind: 'cases', headers: { 'if-none-match': String(kept.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(keptStats(db()).reserialized - reserialized).toBe(opened);
  });

  it("is read again after a statement on any table it read, its costs' inputs included", async () => {
    await newCase('Read again');
    await keptCases();
    const { tables } = keptStats(db());
    expect(tables).toEqual(expect.arrayContaining(['case', 'participant', 'participant_role', 'project', 'case_type', 'case_tag', 'case_duplicate']));
    expect(tables).toEqual(expect.arrayContaining(['event', 'cost_model', 'cost_model_activity', 'plugin_event', 'individual_contact']));
    for (const table of tables) {
      await keptCases();
      await db().execute(sql.raw(`DELETE FROM "${table}" WHERE false`));
      const before = hits();
      expect((await dashboard(w.owner, { kind: 'cases' })).statusCode).toBe(200);
      expect(hits(), table).toBe(before);
    }
  });

  it('follows a write to a case and to what its costs are computed from', async () => {
    const followed = await newCase('Followed case', { assignee: { individual: { email: 'analyst@example.com' } } });
    const item = async () => itemOf(await keptCases(), followed.name);
    await item();
    await edit(`cases/${followed.id}`, { title: 'Followed case, renamed' });
    expect((await item()).title).toBe('Followed case, renamed');
    // Closed an hour later: its cost stops growing there, whatever the time of the next request.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + HOUR });
    await edit(`cases/${followed.id}`, { status: 'Closed', resolution_reason: 'False Positive' });
    const closed = await item();
    expect(closed.status).toBe('Closed');
    vi.setSystemTime(Date.now() + 10 * HOUR);
    expect((await item()).total_cost_classic).toBe(closed.total_cost_classic);
    expect(closed.total_cost_classic).toBe((await get(`cases/${followed.id}`)).total_cost_classic);
  });

  it("is a Member's own, and the organization's own", async () => {
    const hidden = await newCase('Restricted case', { visibility: 'Restricted' });
    expect((await keptCases(w.owner)).map((i) => i.name)).toContain(hidden.name);
    expect((await keptCases(w.member)).map((i) => i.name)).not.toContain(hidden.name);
    expect((await keptCases(w.admin)).map((i) => i.name)).toContain(hidden.name);
    const elsewhere = await dashboard(w.owner, { org: 'elsewhere', kind: 'cases' });
    expect(elsewhere.statusCode).toBe(200);
    expect(JSON.parse(elsewhere.payload)).toMatchObject({ items: [], total: 0 });
  });
});

describe('kept answers', () => {
  const tables = ['incident'];
  const page = (n: number) => ({ items: [], n, pad: 'x'.repeat(400_000) });
  const serialize: Serialize = JSON.stringify;

  it('are read once by identical requests at one version', async () => {
    let reads = 0;
    const read = async () => {
      reads++;
      return { page: page(1), tables };
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => keptAnswer(db(), 'together', 1 << 30, serialize, read)));
    expect(reads).toBe(1);
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
  });

  it('are neither used nor kept inside a transaction, nor when a table read is not versioned', async () => {
    let reads = 0;
    const read = (read: string[]) => async () => {
      reads++;
      return { page: page(2), tables: read };
    };
    await db().transaction(async (tx) => {
      await keptAnswer(tx, 'in a transaction', 1 << 30, serialize, read(tables));
      await keptAnswer(tx, 'in a transaction', 1 << 30, serialize, read(tables));
    });
    expect(reads).toBe(2);
    await keptAnswer(db(), 'unversioned', 1 << 30, serialize, read(['incident', 'task']));
    await keptAnswer(db(), 'unversioned', 1 << 30, serialize, read(['incident', 'task']));
    expect(reads).toBe(4);
  });

  it('stay within their bound in bytes, the least recently used going first', async () => {
    const limit = 1_000_000;
    let reads = 0;
    const read = (n: number) => async () => {
      reads++;
      return { page: page(n), tables };
    };
    for (const n of [1, 2, 3]) await keptAnswer(db(), `bounded ${n}`, limit, serialize, read(n));
    expect(keptStats(db()).bytes).toBeLessThanOrEqual(limit);
    expect(keptStats(db()).answers).toBe(2);
    await keptAnswer(db(), 'bounded 3', limit, serialize, read(3));
    expect(reads).toBe(3);
    await keptAnswer(db(), 'bounded 1', limit, serialize, read(1));
    expect(reads).toBe(4);
    // An answer larger than the bound is not kept.
    await keptAnswer(db(), 'too large', 100_000, serialize, read(4));
    await keptAnswer(db(), 'too large', 100_000, serialize, read(4));
    expect(reads).toBe(6);
    // A write to a table read: read again.
    await db().execute(sql`UPDATE incident SET title = title WHERE false`);
    await keptAnswer(db(), 'bounded 1', limit, serialize, read(1));
    expect(reads).toBe(7);
  });
});
