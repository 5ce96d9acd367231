// The global search: every key of the answer present, hits of several kinds ranked by relevance
// (records whose name or title holds the words first), Restricted incidents (and their tasks) and
// cases only for those who may see them, in either tier, nothing of another organization, and the
// request the web UI's search box sends.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { cases } from '../../../test/worlds/cases.ts';
import { api, person, problems, useWorld } from '../../../test/worlds/incidents.ts';
import { SEARCH_TYPES } from './schema.ts';
import { SEARCH_LIMIT_PER_TYPE } from './service.ts';

const w = useWorld();
const incidents = api(w);

const KEYS = ['documents', 'incidents', 'tasks', 'tags', 'terms', 'definitions', 'sources', 'queries', 'teams', 'individuals', 'services', 'cases'];

const search = (query: Record<string, string | string[] | number>, token = w.member, org = 'default') =>
  call(w.t.app, 'GET', `/${org}/search`, { token, query: { 'type[]': [...SEARCH_TYPES], ...query } });

/** Per key, the titles (or names, texts, descriptions) of the hits, in their order. */
const labels = (body: any, key: string) => body.results[key].map((x: any) => x.title ?? x.name ?? x.text ?? x.description);

let ids: Record<string, number> = {};

async function ok(res: Promise<{ status: number; body: any }>) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

beforeAll(async () => {
  const post = (path: string, body: unknown, token = w.owner) => ok(call(w.t.app, 'POST', `/default/${path}`, { token, body }));
  const project = { name: 'default' };
  const projectId = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items[0].id;
  // Created from the least relevant to the most, so that an order by id could not pass for one by rank.
  const low = await ok(incidents.create({ title: 'Harbour outage', description: 'The kraken broke the reef.' }, w.owner));
  const high = await ok(incidents.create({ title: 'Kraken reef alarm', description: 'Sirens.' }, w.owner));
  const shared = await ok(
    incidents.create({ title: 'Kraken reef shared', description: 'Sirens.', visibility: 'Restricted', commander: person('member@example.com') }, w.owner),
  );
  const secret = await ok(incidents.create({ title: 'Kraken reef secret', description: 'Sirens.', visibility: 'Restricted' }, w.owner));
  await ok(incidents.create({ title: 'Kraken only', description: 'No second word.' }, w.owner));
  await post('tasks', { incident: { id: low.id }, description: 'Fence the kraken reef' });
  await post('tasks', { incident: { id: secret.id }, description: 'Hide the kraken reef' });
  const type = await post('tag_types', { name: 'Sea', project: { id: projectId } });
  await post('tags', { name: 'Seabed', description: 'Where kraken and reef meet', tag_type: { id: type.id }, project: { id: projectId } });
  await post('tags', { name: 'Kraken reef', tag_type: { id: type.id }, project: { id: projectId } });
  await post('documents', { name: 'Kraken reef runbook', project });
  await post('terms', { text: 'kraken reef', project: { id: projectId } });
  await ok(cases(w).create({ title: 'Kraken reef case' }, w.owner));
  await ok(cases(w).create({ title: 'Kraken reef hidden case', visibility: 'Restricted' }, w.owner));
  await ok(call(w.t.app, 'POST', '/elsewhere/incidents', { token: w.owner, body: { title: 'Kraken reef abroad', description: 'Far away.' } }));
  ids = { low: low.id, high: high.id, shared: shared.id, secret: secret.id };
});

describe('GET /{organization}/search', () => {
  it('answers every key, lower-case and plural, even with no hit', async () => {
    const body = await ok(search({ q: 'nothingmatchesthis' }));
    expect(body).toEqual({ query: 'nothingmatchesthis', results: Object.fromEntries(KEYS.map((k) => [k, []])) });
  });

  it('finds records of every kind holding both words, each kind ranked by relevance, in their read objects', async () => {
    const body = await ok(search({ q: 'kraken reef' }));
    expect(body.query).toBe('kraken reef');
    expect(Object.keys(body.results).sort()).toEqual([...KEYS].sort());
    // A title outranks a description; equal ranks keep their ids' order.
    expect(labels(body, 'incidents')).toEqual(['Kraken reef alarm', 'Kraken reef shared', 'Harbour outage']);
    // A name (weight A) outranks a description (weight B).
    expect(labels(body, 'tags')).toEqual(['Kraken reef', 'Seabed']);
    expect(labels(body, 'tasks')).toEqual(['Fence the kraken reef']);
    // The runbook's name outranks the incidents' and cases' own documents, which hold the words in their text.
    expect(labels(body, 'documents')[0]).toBe('Kraken reef runbook');
    for (const name of labels(body, 'documents').slice(1)) expect(name).toMatch(/^(Incident|Case) document: /);
    expect(labels(body, 'terms')).toEqual(['kraken reef']);
    expect(labels(body, 'cases')).toEqual(['Kraken reef case']);
    // Incidents and cases as their lists answer them (the minimal read), the other kinds in full.
    const listed = (await ok(incidents.list())).items.find((x: any) => x.id === ids.high);
    expect(body.results.incidents[0]).toEqual(listed);
    const listedCase = (await ok(cases(w).list())).items.find((x: any) => x.title === 'Kraken reef case');
    expect(body.results.cases[0]).toEqual(listedCase);
    expect(body.results.tasks[0].incident.id).toBe(ids.low);
    expect(body.results.tags[0].tag_type.name).toBe('Sea');
  });

  it('searches only the kinds asked for, and prefixes: `kra` finds kraken', async () => {
    const body = await ok(search({ q: 'kra ree', 'type[]': ['Tag', 'Term'] }));
    expect(labels(body, 'tags')).toEqual(['Kraken reef', 'Seabed']);
    expect(labels(body, 'terms')).toEqual(['kraken reef']);
    expect(body.results.incidents).toEqual([]);
    expect(body.results.documents).toEqual([]);
  });

  it('shows a Restricted incident, its tasks and a Restricted case only to Admins and above and its participants', async () => {
    const member = await ok(search({ q: 'kraken reef' }));
    expect(labels(member, 'incidents')).not.toContain('Kraken reef secret');
    expect(labels(member, 'incidents')).toContain('Kraken reef shared');
    expect(labels(member, 'tasks')).not.toContain('Hide the kraken reef');
    expect(labels(member, 'cases')).not.toContain('Kraken reef hidden case');

    const admin = await ok(search({ q: 'kraken reef' }, w.admin));
    expect(labels(admin, 'incidents')).toEqual(['Kraken reef alarm', 'Kraken reef shared', 'Kraken reef secret', 'Harbour outage']);
    expect(labels(admin, 'tasks')).toEqual(['Fence the kraken reef', 'Hide the kraken reef']);
    expect(labels(admin, 'cases')).toEqual(['Kraken reef case', 'Kraken reef hidden case']);
  });

  it("never shows another organization's records", async () => {
    const here = await ok(search({ q: 'abroad' }, w.owner));
    expect(here.results.incidents).toEqual([]);
    const there = await ok(search({ q: 'kraken reef' }, w.owner, 'elsewhere'));
    expect(labels(there, 'incidents')).toEqual(['Kraken reef abroad']);
    // Its one incident's own document holds the words too.
    expect(labels(there, 'documents')).toEqual([`Incident document: ${there.results.incidents[0].name}`]);
    for (const key of KEYS.filter((k) => k !== 'incidents' && k !== 'documents')) expect(there.results[key]).toEqual([]);
  });

  it('answers 422 without q or type[], or with an unknown type', async () => {
    const noQ = await call(w.t.app, 'GET', '/default/search', { token: w.member, query: { 'type[]': 'Incident' } });
    expect(noQ.status).toBe(422);
    expect(problems(noQ)).toEqual(['query.q:value_error.missing']);
    const noType = await call(w.t.app, 'GET', '/default/search', { token: w.member, query: { q: 'kraken' } });
    expect(noType.status).toBe(422);
    expect(problems(noType)).toEqual(['query.type[]:value_error.missing']);
    const unknown = await search({ q: 'kraken', 'type[]': 'Alert' });
    expect(unknown.status).toBe(422);
    const badPage = await search({ q: 'kraken', page: -1 });
    expect(badPage.status).toBe(422);
  });

  it('answers the same whatever order type[] names the kinds in, and with a kind named twice', async () => {
    const inOrder = await ok(search({ q: 'kraken reef', 'type[]': ['Incident', 'Task', 'Case'] }));
    const reversed = await ok(search({ q: 'kraken reef', 'type[]': ['Case', 'Task', 'Incident', 'Task'] }));
    expect(reversed).toEqual(inOrder);
    expect(labels(reversed, 'incidents')).toEqual(['Kraken reef alarm', 'Kraken reef shared', 'Harbour outage']);
    expect(labels(reversed, 'tasks')).toEqual(['Fence the kraken reef']);
    expect(labels(reversed, 'cases')).toEqual(['Kraken reef case']);
  });

  it('ignores paging, and accepts the kinds Dispatch drops from its answer', async () => {
    const paged = await ok(search({ q: 'kraken reef', 'type[]': 'Tag', itemsPerPage: 1, page: 3 }));
    expect(labels(paged, 'tags')).toEqual(['Kraken reef', 'Seabed']);
    const dropped = await ok(search({ q: 'kraken', 'type[]': ['Plugin', 'IncidentPriority', 'IncidentType', 'SearchFilter'] }));
    expect(dropped.results).toEqual(Object.fromEntries(KEYS.map((k) => [k, []])));
  });

  it("serves the web UI's search box: its kinds as type[], its query as q, the keys it reads", async () => {
    // The UI sends ?q=<text>&type[]=Document&type[]=Incident&type[]=Tag&type[]=Task&type[]=Source&type[]=Query.
    const res = await w.t.app.inject({
      method: 'GET',
      url: '/api/v1/default/search?q=kraken%20reef&type[]=Document&type[]=Incident&type[]=Tag&type[]=Task&type[]=Source&type[]=Query',
      headers: { authorization: `Bearer ${w.member}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    for (const key of ['incidents', 'tasks', 'documents', 'tags', 'queries', 'sources']) expect(Array.isArray(body.results[key])).toBe(true);
    expect(labels(body, 'incidents')).toEqual(['Kraken reef alarm', 'Kraken reef shared', 'Harbour outage']);
    // The runbook's name outranks the incidents' and cases' own documents, which hold the words in their text.
    expect(labels(body, 'documents')[0]).toBe('Kraken reef runbook');
    for (const name of labels(body, 'documents').slice(1)) expect(name).toMatch(/^(Incident|Case) document: /);
    expect(body.results.terms).toEqual([]);
  });
});

// What a user expects of the ranking, pinned on words no other test uses: a name or title holding the
// words comes before a description mentioning them (however often), a prefix finds the word, two
// words find only records holding both, the best-placed first, and a negated word excludes a record
// wherever it holds it.
describe('GET /{organization}/search ranks as a user expects', () => {
  const titles = (body: any) => labels(body, 'incidents');

  beforeAll(async () => {
    const create = (title: string, description: string, extra: Record<string, unknown> = {}) => ok(incidents.create({ title, description, ...extra }, w.owner));
    await create('Harbour report', 'A narwhal was seen near the lagoon; the narwhal dove, and a narwhal came back.');
    await create('Narwhal sighting', 'Seen from the pier.');
    await create('Lagoon narwhal count', 'Routine.');
    await create('Narwhal tagging', 'Done at the lagoon.');
    await create('Sealed report', 'The narwhal left the lagoon.', { visibility: 'Restricted' });
  });

  it('puts a title holding the word before a description mentioning it, even three times', async () => {
    expect(titles(await ok(search({ q: 'narwhal', 'type[]': 'Incident' })))).toEqual([
      'Narwhal sighting',
      'Lagoon narwhal count',
      'Narwhal tagging',
      'Harbour report',
    ]);
  });

  it('finds the word from its prefix, in the same order', async () => {
    expect(titles(await ok(search({ q: 'narw', 'type[]': 'Incident' })))).toEqual([
      'Narwhal sighting',
      'Lagoon narwhal count',
      'Narwhal tagging',
      'Harbour report',
    ]);
  });

  it('finds only records holding both words, the one whose title holds both first', async () => {
    // Then by ts_rank_cd: a description naming both words near each other, three times, before a
    // title naming one and a description the other.
    expect(titles(await ok(search({ q: 'narwhal lagoon', 'type[]': 'Incident' })))).toEqual(['Lagoon narwhal count', 'Harbour report', 'Narwhal tagging']);
  });

  it('leaves out a record whose title matches when its description holds a negated word', async () => {
    expect(titles(await ok(search({ q: 'narwhal -lagoon', 'type[]': 'Incident' })))).toEqual(['Narwhal sighting']);
  });

  it('hides a Restricted incident found by its description from a Member, and shows it to an Admin', async () => {
    const member = titles(await ok(search({ q: 'narwhal lagoon', 'type[]': 'Incident' })));
    const admin = titles(await ok(search({ q: 'narwhal lagoon', 'type[]': 'Incident' }, w.admin)));
    expect(member).not.toContain('Sealed report');
    expect(admin).toContain('Sealed report');
    expect(admin.filter((t: string) => t !== 'Sealed report')).toEqual(member);
  });
});

// The bound of a kind's hits across both tiers: the title hits first, then the best of the rest up to the bound.
describe('GET /{organization}/search bounds a kind', () => {
  beforeAll(async () => {
    for (let i = 0; i < SEARCH_LIMIT_PER_TYPE - 2; i++) await ok(incidents.create({ title: `Walrus ${i}`, description: 'Counted.' }, w.owner));
    await ok(incidents.create({ title: 'Beach count', description: 'One walrus.' }, w.owner));
    await ok(incidents.create({ title: 'Ice count', description: 'A walrus, then a walrus.' }, w.owner));
    await ok(incidents.create({ title: 'Shore count', description: 'No walrus today, walrus tomorrow, walrus after.' }, w.owner));
  });

  it('fills the bound with the best description hits after every title hit', async () => {
    const found = labels(await ok(search({ q: 'walrus', 'type[]': 'Incident' })), 'incidents');
    expect(found).toHaveLength(SEARCH_LIMIT_PER_TYPE);
    expect(found.slice(0, SEARCH_LIMIT_PER_TYPE - 2)).toEqual(Array.from({ length: SEARCH_LIMIT_PER_TYPE - 2 }, (_, i) => `Walrus ${i}`));
    expect(found.slice(SEARCH_LIMIT_PER_TYPE - 2)).toEqual(['Shore count', 'Ice count']);
  });
});
