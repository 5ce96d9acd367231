// The incidents suite: 100,000 incidents, inserted in bulk SQL straight into the suite's PostgreSQL
// database once Muster has made its schema and the default project's priorities, types and
// severities (seeding that many over HTTP would take most of the run). Scenarios: one incident by
// id, a page of 20 Active incidents of the 'High' priority newest first, and creating incidents.
// Goals: get-incident >= 40% of baseline B's requests per second; list-incidents p99 < 30 ms.
// PostgreSQL only: 100,000 incidents in the embedded database is not a realistic deployment.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Scenario } from '../lib/load.ts';
import { auth, listQuery, type MusterSession } from '../lib/muster.ts';
import { goalCheck, latencyGoal } from '../lib/report.ts';
import { kindLabel, resultOf, type Suite } from '../lib/suite.ts';

const INCIDENTS = 100_000;
const GOAL_PERCENT_OF_B = 40;
const GOAL_P99_MS = 30;
const LIST_PRIORITY = 'High';

interface IncidentsState {
  someId: number;
  someTitle: string;
  projectId: number;
}

/** The bulk insert: statuses in turn, types/priorities/severities of the project by modulo, reported over two years. */
const SEED_SQL = `
WITH p AS (SELECT id, organization_id FROM project WHERE organization_id = 1 AND name = 'default'),
     ty AS (SELECT array_agg(id ORDER BY id) AS ids FROM incident_type WHERE project_id = (SELECT id FROM p)),
     pr AS (SELECT array_agg(id ORDER BY id) AS ids FROM incident_priority WHERE project_id = (SELECT id FROM p)),
     se AS (SELECT array_agg(id ORDER BY id) AS ids FROM incident_severity WHERE project_id = (SELECT id FROM p))
INSERT INTO incident (organization_id, project_id, title, description, status, visibility,
                      incident_type_id, incident_priority_id, incident_severity_id, reported_at)
SELECT p.organization_id, p.id,
       'Incident ' || g || ': ' || (ARRAY['database latency', 'API errors', 'login failures', 'disk full', 'certificate expiry', 'queue backlog'])[1 + g % 6],
       'Benchmark incident ' || g || ', seeded in bulk: symptoms, impact and first findings.',
       (ARRAY['Active', 'Stable', 'Closed'])[1 + g % 3],
       'Open',
       ty.ids[1 + g % cardinality(ty.ids)],
       pr.ids[1 + (g / 3) % cardinality(pr.ids)],
       se.ids[1 + (g / 7) % cardinality(se.ids)],
       now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second'
FROM generate_series(1, ${INCIDENTS}) AS g, p, ty, pr, se`;

async function seed(_session: MusterSession, databaseUrl: string, progress: (msg: string) => void): Promise<IncidentsState> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const {
      rows: [project],
    } = await client.query<{ id: number }>(`SELECT id FROM project WHERE organization_id = 1 AND name = 'default'`);
    if (!project) throw new Error('project default not found');
    const { rows: counts } = await client.query<{ t: number; p: number; s: number }>(
      `SELECT (SELECT count(*) FROM incident_type WHERE project_id = $1)::int AS t,
              (SELECT count(*) FROM incident_priority WHERE project_id = $1)::int AS p,
              (SELECT count(*) FROM incident_severity WHERE project_id = $1)::int AS s`,
      [project.id],
    );
    if (!counts[0].t || !counts[0].p || !counts[0].s) throw new Error(`project default lacks types/priorities/severities: ${JSON.stringify(counts[0])}`);
    await client.query('BEGIN');
    await client.query(SEED_SQL);
    await client.query(`UPDATE incident SET name = 'muster-default-default-' || id WHERE name IS NULL`);
    await client.query('COMMIT');
    progress(`${INCIDENTS} incidents inserted; analyzing`);
    await client.query('ANALYZE incident');
    const {
      rows: [some],
    } = await client.query<{ id: number; title: string }>(`SELECT id, title FROM incident WHERE project_id = $1 ORDER BY id OFFSET ${INCIDENTS / 2} LIMIT 1`, [
      project.id,
    ]);
    return { someId: some.id, someTitle: some.title, projectId: project.id };
  } finally {
    await client.end();
  }
}

function scenarios(s: MusterSession, state: IncidentsState): Scenario[] {
  const path = `${s.api}/${s.organization}/incidents`;
  const tag = randomBytes(3).toString('hex');
  let created = 0;
  return [
    {
      name: 'get-incident',
      url: `${path}/${state.someId}`,
      headers: auth(s),
      check: (b: any) =>
        b?.id === state.someId &&
        b?.title === state.someTitle &&
        b?.incident_priority?.name &&
        b?.incident_type?.name &&
        b?.incident_severity?.name &&
        b?.project?.name === 'default'
          ? undefined
          : JSON.stringify(b).slice(0, 300),
    },
    {
      name: 'list-incidents',
      url: `${path}?${listQuery({
        page: 1,
        itemsPerPage: 20,
        filter: [
          { model: 'Incident', field: 'status', op: '==', value: 'Active' },
          { model: 'IncidentPriority', field: 'name', op: '==', value: LIST_PRIORITY },
        ],
        sortBy: ['reported_at'],
        descending: [true],
      })}`,
      headers: auth(s),
      check: (b: any) => {
        const items: any[] = b?.items ?? [];
        if (!(b?.total > 0) || items.length !== 20) return `expected total > 0 and 20 items; got total ${b?.total}, ${items.length} items`;
        if (items.some((i) => i?.status !== 'Active' || i?.incident_priority?.name !== LIST_PRIORITY))
          return 'an item is not Active or not of the High priority';
        const at = items.map((i) => Date.parse(i?.reported_at));
        if (at.some((t, k) => k > 0 && at[k - 1] < t)) return 'not sorted by reported_at descending';
      },
    },
    {
      // Last: every request adds an incident.
      name: 'create-incident',
      method: 'POST',
      url: path,
      headers: auth(s),
      nextBody: () => {
        const n = created++;
        return { title: `New incident ${tag}-${n}`, description: `Reported during the benchmark (${tag}, ${n}).`, project: { name: 'default' } };
      },
      check: (b: any) =>
        typeof b?.id === 'number' && typeof b?.title === 'string' && b.title.startsWith(`New incident ${tag}-`) ? undefined : JSON.stringify(b).slice(0, 300),
    },
  ];
}

export const incidentsSuite: Suite<IncidentsState> = {
  name: 'incidents',
  title: `${INCIDENTS.toLocaleString('en')} incidents`,
  kinds: ['postgres'],
  skipReason: `${INCIDENTS.toLocaleString('en')} incidents in PGlite is not a realistic deployment`,
  inAll: false,
  async seed(session, ctx) {
    if (!ctx.databaseUrl) throw new Error('the incidents suite seeds in SQL and needs its PostgreSQL database URL');
    const state = await seed(session, ctx.databaseUrl, ctx.progress);
    return {
      state,
      summary: `${INCIDENTS.toLocaleString('en')} incidents in project default (statuses Active/Stable/Closed in turn, the project's types, priorities and severities by modulo, reported over two years), then ANALYZE`,
      records: INCIDENTS,
      how: 'in bulk SQL',
    };
  },
  scenarios,
  goals(kind, results, baselines) {
    if (kind !== 'postgres') return [];
    const b = baselines.find((x) => x.key === 'B')!;
    return [
      goalCheck(kindLabel(kind), resultOf(results, 'get-incident'), b, GOAL_PERCENT_OF_B),
      latencyGoal(kindLabel(kind), resultOf(results, 'list-incidents'), GOAL_P99_MS),
    ];
  },
  notes: ['create-incident adds an incident with every request; they stay (the reads are measured before it).'],
};
