// Writes that race, for every record kind the API updates and deletes: ten updates of a record fired
// together with its delete answer 200 or 404 (never a 5xx), the delete holds, and two updates of one
// record fired together leave one of them whole, never a mix. On PostgreSQL the requests run on
// several connections at once; on the embedded database they queue, and the test still holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, LOCAL_PEERS, type Res } from './helpers.ts';
import { createWorld, type World } from './worlds/world.ts';

let w: World;
let projectId: number;
beforeAll(async () => {
  // Workflow instances name a local receiver (never called here): the outbound policy allows loopback.
  w = await createWorld({ outboundAllow: LOCAL_PEERS });
  projectId = (await call(w.t.app, 'GET', '/default/projects', { token: w.owner })).body.items[0].id;
});
afterAll(() => w?.t.close());

let serial = 0;
const unique = (prefix: string) => `${prefix} ${++serial}`;

async function create(path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await call(w.t.app, 'POST', `/default/${path}`, { token: w.owner, body });
  if (res.status !== 200 && res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

const project = () => ({ id: projectId });

/**
 * Every kind with an update and a delete of one record: where it lives, how to make one, and the
 * text field an update changes (the whole read object is sent back, as the web UI does).
 */
interface Kind {
  path: string;
  make(): Promise<Record<string, any>>;
  field?: string;
}

const KINDS: Kind[] = [
  { path: 'incident_cost_types', make: () => create('incident_cost_types', { name: unique('Cost type'), project: project() }) },
  { path: 'cost_models', make: () => create('cost_models', { name: unique('Cost model'), project: project(), activities: [] }) },
  { path: 'tag_types', make: () => create('tag_types', { name: unique('Tag type'), project: project() }) },
  {
    path: 'tags',
    make: async () => {
      const type = await create('tag_types', { name: unique('Tag type'), project: project() });
      return create('tags', { name: unique('Tag'), tag_type: { id: type.id }, project: project() });
    },
  },
  ...['dataFormats', 'environments', 'statuses', 'transports', 'types'].map((k) => ({
    path: `data/sources/${k}`,
    make: () => create(`data/sources/${k}`, { name: unique(k), project: project() }),
  })),
  { path: 'data/sources', make: () => create('data/sources', { name: unique('Source'), project: project() }) },
  {
    path: 'data/queries',
    make: async () => {
      const source = await create('data/sources', { name: unique('Source'), project: project() });
      return create('data/queries', { name: unique('Query'), source: { id: source.id }, project: project() });
    },
  },
  { path: 'data/alerts', make: () => create('data/alerts', { name: unique('Alert') }), field: 'name' },
  { path: 'definitions', make: () => create('definitions', { text: unique('Definition'), project: project() }), field: 'text' },
  { path: 'terms', make: () => create('terms', { text: unique('Term'), project: project() }), field: 'text' },
  { path: 'entity_type', make: () => create('entity_type', { name: unique('Entity type'), project: project() }) },
  {
    path: 'entity',
    make: async () => {
      const type = await create('entity_type', { name: unique('Entity type'), project: project() });
      return create('entity', { name: unique('Entity'), value: 'v', entity_type: { id: type.id }, project: project() });
    },
  },
  { path: 'documents', make: () => create('documents', { name: unique('Document'), project: project() }) },
  { path: 'individuals', make: () => create('individuals', { email: `${unique('person').replace(' ', '')}@example.com`, project: project() }), field: 'name' },
  {
    path: 'notifications',
    make: () => create('notifications', { name: unique('Notification'), type: 'email', target: 'team@example.com', project: project() }),
  },
  { path: 'search/filters', make: () => create('search/filters', { name: unique('Filter'), expression: [], project: project() }) },
  { path: 'services', make: () => create('services', { name: unique('Service'), project: project() }), field: 'name' },
  {
    path: 'teams',
    make: () => create('teams', { name: unique('Team'), email: `${unique('team').replace(' ', '')}@example.com`, project: project() }),
    field: 'name',
  },
  { path: 'incidents', make: () => create('incidents', { title: unique('Incident'), description: 'Racing.' }) },
  {
    path: 'incident_costs',
    make: async () => {
      const type = await create('incident_cost_types', { name: unique('Cost type'), project: project() });
      const incident = await create('incidents', { title: unique('Incident'), description: 'Costly.' });
      return create('incident_costs', { amount: 1, incident_cost_type: { id: type.id }, incident: { id: incident.id }, project: project() });
    },
    field: 'amount',
  },
  {
    path: 'feedback',
    make: async () => {
      const incident = await create('incidents', { title: unique('Incident'), description: 'Rated.' });
      return create('feedback', { feedback: 'Fine.', incident: { id: incident.id } });
    },
    field: 'feedback',
  },
  {
    path: 'tasks',
    make: async () => {
      const incident = await create('incidents', { title: unique('Incident'), description: 'Tasked.' });
      return create('tasks', { description: 'Do it.', incident: { id: incident.id } });
    },
  },
  { path: 'cases', make: () => create('cases', { title: unique('Case'), description: 'Racing.' }) },
  { path: 'signals/filters', make: () => create('signals/filters', { name: unique('Signal filter'), expression: [], project: project() }) },
  { path: 'signals/engagements', make: () => create('signals/engagements', { name: unique('Engagement'), project: project() }) },
  {
    path: 'signals',
    make: () => create('signals', { name: unique('Signal'), owner: 'sec', external_id: unique('ext'), project: project() }),
  },
  {
    path: 'plugins/instances',
    make: () =>
      create('plugins/instances', {
        plugin: { slug: 'muster-workflow' },
        project: project(),
        enabled: false,
        configuration: { url: 'http://127.0.0.1:9/runs' },
      }),
    field: 'enabled',
  },
  {
    path: 'workflows',
    make: async () => {
      const instance = await create('plugins/instances', {
        plugin: { slug: 'muster-workflow' },
        project: project(),
        enabled: false,
        configuration: { url: 'http://127.0.0.1:9/runs' },
      });
      return create('workflows', { name: unique('Workflow'), resource_id: 'r', plugin_instance: { id: instance.id }, project: project() });
    },
  },
  {
    path: 'projects',
    make: () => create('projects', { name: unique('Project').replace(' ', '-'), organization: { name: 'default' } }),
  },
];

/** The read object with its `field` changed to `value` (a number for amounts, a flag for `enabled`). */
function edited(read: Record<string, any>, field: string, n: number): Record<string, any> {
  const value = field === 'amount' ? n : field === 'enabled' ? n % 2 === 0 : `${read[field] || 'Text'} edit ${n}`;
  // Absent references are left out rather than sent as null, and records named by id, as a client does.
  const ref = (v: any) => (v && typeof v === 'object' && !Array.isArray(v) && typeof v.id === 'number' ? { id: v.id } : v);
  const sent = Object.fromEntries(
    Object.entries(read)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, ref(v)]),
  );
  return { ...sent, [field]: value };
}

const statuses = (all: Res[]) => all.map((r) => r.status).sort();

/** The record as its kind's read answers it (some kinds are read through their list only); undefined once gone. */
async function current(kind: Kind, id: number): Promise<Record<string, any> | undefined> {
  const one = await call(w.t.app, 'GET', `/default/${kind.path}/${id}`, { token: w.owner });
  if (one.status === 200) return one.body;
  if (one.status === 404 && one.body?.detail?.[0]?.msg) return undefined;
  const all = await call(w.t.app, 'GET', `/default/${kind.path}`, { token: w.owner, query: { itemsPerPage: -1 } });
  expect(all.status).toBe(200);
  return all.body.items.find((item: { id: number }) => item.id === id);
}

describe('writes that race', { timeout: 300_000 }, () => {
  it('covers every record kind the API updates and deletes', async () => {
    const doc = (await call(w.t.app, 'GET', '/docs/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const updatable = Object.entries(doc.paths)
      .filter(([path, ops]) => ops.put && ops.delete && /^\/api\/v1\/\{organization\}\/.+\/\{[a-z_]+\}$/.test(path))
      .map(([path]) => path.replace(/^\/api\/v1\/\{organization\}\//, '').replace(/\/\{[a-z_]+\}$/, ''));
    // Users are members, not records: an Owner updates and removes them one at a time.
    expect(updatable.filter((p) => p !== 'users').sort()).toEqual(KINDS.map((k) => k.path).sort());
  });

  for (const kind of KINDS) {
    it(`${kind.path}: ten updates racing a delete answer 200 or 404, and the delete holds`, async () => {
      const record = await kind.make();
      const url = `/default/${kind.path}/${record.id}`;
      const field = kind.field ?? 'description';
      const requests = Array.from({ length: 10 }, (_, n) => call(w.t.app, 'PUT', url, { token: w.owner, body: edited(record, field, n) }));
      requests.splice(5, 0, call(w.t.app, 'DELETE', url, { token: w.owner }));
      const answers = await Promise.all(requests);
      const [removal] = answers.splice(5, 1);
      expect(removal.status, JSON.stringify(removal.body)).toBe(200);
      const unexpected = answers.filter((r) => r.status !== 200 && r.status !== 404);
      expect(unexpected.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 300)}`)).toEqual([]);
      expect(statuses(answers).length).toBe(10);
      expect(await current(kind, record.id)).toBeUndefined();
    });
  }

  for (const kind of KINDS.filter((k) => k.path !== 'projects')) {
    it(`${kind.path}: two updates of one record leave one of them whole`, async () => {
      const record = await kind.make();
      const url = `/default/${kind.path}/${record.id}`;
      const field = kind.field ?? 'description';
      const bodies = [edited(record, field, 1), edited(record, field, 2)];
      const answers = await Promise.all(bodies.map((body) => call(w.t.app, 'PUT', url, { token: w.owner, body })));
      expect(answers.map((r) => `${r.status} ${r.status === 200 ? '' : JSON.stringify(r.body).slice(0, 300)}`)).toEqual(['200 ', '200 ']);
      const after = await current(kind, record.id);
      expect(bodies.map((b) => b[field])).toContain(after?.[field]);
    });
  }

  for (const path of ['incidents', 'cases']) {
    it(`${path}: two updates naming other titles and tags leave one body's title with the same body's tags`, async () => {
      const type = await create('tag_types', { name: unique('Tag type'), project: project() });
      const tags = await Promise.all([1, 2, 3, 4].map(() => create('tags', { name: unique('Tag'), tag_type: { id: type.id }, project: project() })));
      const record = await create(path, { title: unique('Record'), description: 'Racing.' });
      const url = `/default/${path}/${record.id}`;
      const bodies: Record<string, any>[] = [
        { ...edited(record, 'title', 1), tags: [{ id: tags[0].id }, { id: tags[1].id }] },
        { ...edited(record, 'title', 2), tags: [{ id: tags[2].id }, { id: tags[3].id }] },
      ];
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(bodies.map((body) => call(w.t.app, 'PUT', url, { token: w.owner, body })));
        expect(answers.map((r) => r.status)).toEqual([200, 200]);
        const after = (await call(w.t.app, 'GET', url, { token: w.owner })).body;
        const won = bodies.find((b) => b.title === after.title)!;
        expect(won).toBeDefined();
        expect(after.tags.map((t: { id: number }) => t.id).sort()).toEqual(won.tags.map((t: { id: number }) => t.id).sort());
      }
    });
  }
});
