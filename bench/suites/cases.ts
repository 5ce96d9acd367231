// The cases suite: 100,000 cases, inserted in bulk SQL straight into the suite's PostgreSQL database
// once Muster has made its schema and the default project's case priorities, types and severities.
// Scenarios: one case by id (the full shape), a page of 20 Triage cases of the 'High' priority newest
// first, and creating cases. Goals as for incidents: get-case >= 40% of baseline B's requests per
// second; list-cases p99 < 30 ms. PostgreSQL only, as the incidents suite.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Scenario } from '../lib/load.ts';
import { auth, listQuery, type MusterSession } from '../lib/muster.ts';
import { goalCheck, latencyGoal } from '../lib/report.ts';
import { kindLabel, resultOf, type Suite } from '../lib/suite.ts';

const CASES = 100_000;
const GOAL_PERCENT_OF_B = 40;
const GOAL_P99_MS = 30;
const LIST_PRIORITY = 'High';
const LIST_STATUS = 'Triage';

interface CasesState {
  someId: number;
  someTitle: string;
}

/** The bulk insert: statuses in turn, types/priorities/severities of the project by modulo, reported over two years. */
const SEED_SQL = `
WITH p AS (SELECT id, organization_id FROM project WHERE organization_id = 1 AND name = 'default'),
     ty AS (SELECT array_agg(id ORDER BY id) AS ids FROM case_type WHERE project_id = (SELECT id FROM p)),
     pr AS (SELECT array_agg(id ORDER BY id) AS ids FROM case_priority WHERE project_id = (SELECT id FROM p)),
     se AS (SELECT array_agg(id ORDER BY id) AS ids FROM case_severity WHERE project_id = (SELECT id FROM p))
INSERT INTO "case" (organization_id, project_id, title, description, status, visibility,
                    case_type_id, case_priority_id, case_severity_id, reported_at, triage_at)
SELECT p.organization_id, p.id,
       'Case ' || g || ': ' || (ARRAY['suspicious login', 'phishing report', 'malware alert', 'data exfiltration', 'policy violation', 'lost laptop'])[1 + g % 6],
       'Benchmark case ' || g || ', seeded in bulk: what was seen, where, and the first findings.',
       (ARRAY['New', 'Triage', 'Escalated', 'Stable', 'Closed'])[1 + g % 5],
       'Open',
       ty.ids[1 + g % cardinality(ty.ids)],
       pr.ids[1 + (g / 5) % cardinality(pr.ids)],
       se.ids[1 + (g / 7) % cardinality(se.ids)],
       now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second',
       CASE WHEN g % 5 = 0 THEN NULL ELSE now() - (g % 730) * interval '1 day' END
FROM generate_series(1, ${CASES}) AS g, p, ty, pr, se`;

async function seed(databaseUrl: string, progress: (msg: string) => void): Promise<CasesState> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const {
      rows: [counts],
    } = await client.query<{ t: number; p: number; s: number }>(
      `SELECT (SELECT count(*) FROM case_type t JOIN project p ON p.id = t.project_id WHERE p.organization_id = 1 AND p.name = 'default')::int AS t,
              (SELECT count(*) FROM case_priority t JOIN project p ON p.id = t.project_id WHERE p.organization_id = 1 AND p.name = 'default')::int AS p,
              (SELECT count(*) FROM case_severity t JOIN project p ON p.id = t.project_id WHERE p.organization_id = 1 AND p.name = 'default')::int AS s`,
    );
    if (!counts.t || !counts.p || !counts.s) throw new Error(`project default lacks case types/priorities/severities: ${JSON.stringify(counts)}`);
    await client.query('BEGIN');
    await client.query(SEED_SQL);
    await client.query(`UPDATE "case" SET name = 'muster-default-default-' || id WHERE name IS NULL`);
    await client.query('COMMIT');
    progress(`${CASES} cases inserted; analyzing`);
    await client.query('ANALYZE "case"');
    const {
      rows: [some],
    } = await client.query<{ id: number; title: string }>(`SELECT id, title FROM "case" ORDER BY id OFFSET ${CASES / 2} LIMIT 1`);
    return { someId: some.id, someTitle: some.title };
  } finally {
    await client.end();
  }
}

function scenarios(s: MusterSession, state: CasesState): Scenario[] {
  const path = `${s.api}/${s.organization}/cases`;
  const tag = randomBytes(3).toString('hex');
  let created = 0;
  return [
    {
      name: 'get-case',
      url: `${path}/${state.someId}`,
      headers: auth(s),
      check: (b: any) =>
        b?.id === state.someId &&
        b?.title === state.someTitle &&
        b?.case_priority?.name &&
        b?.case_type?.name &&
        b?.case_severity?.name &&
        b?.project?.name === 'default'
          ? undefined
          : JSON.stringify(b).slice(0, 300),
    },
    {
      name: 'list-cases',
      url: `${path}?${listQuery({
        page: 1,
        itemsPerPage: 20,
        filter: [
          { model: 'Case', field: 'status', op: '==', value: LIST_STATUS },
          { model: 'CasePriority', field: 'name', op: '==', value: LIST_PRIORITY },
        ],
        sortBy: ['reported_at'],
        descending: [true],
      })}`,
      headers: auth(s),
      check: (b: any) => {
        const items: any[] = b?.items ?? [];
        if (!(b?.total > 0) || items.length !== 20) return `expected total > 0 and 20 items; got total ${b?.total}, ${items.length} items`;
        if (items.some((i) => i?.status !== LIST_STATUS || i?.case_priority?.name !== LIST_PRIORITY))
          return `an item is not ${LIST_STATUS} or not of the ${LIST_PRIORITY} priority`;
        const at = items.map((i) => Date.parse(i?.reported_at));
        if (at.some((t, k) => k > 0 && at[k - 1] < t)) return 'not sorted by reported_at descending';
      },
    },
    {
      // Last: every request adds a case.
      name: 'create-case',
      method: 'POST',
      url: path,
      headers: auth(s),
      nextBody: () => {
        const n = created++;
        return { title: `New case ${tag}-${n}`, description: `Reported during the benchmark (${tag}, ${n}).`, project: { name: 'default' } };
      },
      check: (b: any) =>
        typeof b?.id === 'number' && typeof b?.title === 'string' && b.title.startsWith(`New case ${tag}-`) ? undefined : JSON.stringify(b).slice(0, 300),
    },
  ];
}

export const casesSuite: Suite<CasesState> = {
  name: 'cases',
  title: `${CASES.toLocaleString('en')} cases`,
  kinds: ['postgres'],
  skipReason: `${CASES.toLocaleString('en')} cases in PGlite is not a realistic deployment`,
  inAll: false,
  async seed(_session: MusterSession, ctx) {
    if (!ctx.databaseUrl) throw new Error('the cases suite seeds in SQL and needs its PostgreSQL database URL');
    const state = await seed(ctx.databaseUrl, ctx.progress);
    return {
      state,
      summary: `${CASES.toLocaleString('en')} cases in project default (statuses New/Triage/Escalated/Stable/Closed in turn, the project's case types, priorities and severities by modulo, reported over two years), then ANALYZE`,
      records: CASES,
      how: 'in bulk SQL',
    };
  },
  scenarios,
  goals(kind, results, baselines) {
    if (kind !== 'postgres') return [];
    const b = baselines.find((x) => x.key === 'B')!;
    return [
      goalCheck(kindLabel(kind), resultOf(results, 'get-case'), b, GOAL_PERCENT_OF_B),
      latencyGoal(kindLabel(kind), resultOf(results, 'list-cases'), GOAL_P99_MS),
    ];
  },
  notes: ['create-case adds a case with every request; they stay (the reads are measured before it).'],
};
