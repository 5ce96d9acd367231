// The search suite: the web UI's search box (GET /{organization}/search) over 100,000 incidents and
// 100,000 cases seeded in bulk SQL, whose titles and descriptions are composed from a vocabulary of
// components and symptoms (../lib/lifecycle.ts). Every request asks for two words, a component and
// a symptom drawn at random, over every kind the UI asks for and cases. Goal: p99 < 50 ms.
// PostgreSQL only, as the incidents and cases suites; not in `all` (its seeding is long).
import { COMPONENTS, SYMPTOMS, seedRecords, seedSummary, type SeededRecords } from '../lib/lifecycle.ts';
import type { Scenario, SentRequest } from '../lib/load.ts';
import { auth, pick, uiQuery, type MusterSession } from '../lib/muster.ts';
import { cpuPerRequest, latencyGoal } from '../lib/report.ts';
import { kindLabel, resultOf, type Suite } from '../lib/suite.ts';
import { RECORDS } from './lifecycle.ts';

const GOAL_P99_MS = 50;

/**
 * The kinds the web UI's search store asks for (search/store.js: Document, Incident, Tag, Task,
 * Source, Query), Case added: the goal covers cases, and Muster searches them.
 */
const TYPES = ['Incident', 'Case', 'Document', 'Tag', 'Task', 'Source', 'Query'];

interface SearchState {
  incidents: SeededRecords;
  cases: SeededRecords;
}

/** Two words, both found (as prefixes) in the name, title or description of every hit. */
function checkHits(b: any, sent: SentRequest): string | undefined {
  const words = (new URL(sent.url).searchParams.get('q') ?? '').split(' ');
  const results = b?.results;
  if (!results || !Array.isArray(results.incidents) || !Array.isArray(results.cases))
    return `no results.incidents or results.cases: ${JSON.stringify(b).slice(0, 200)}`;
  if (results.incidents.length === 0 || results.cases.length === 0)
    return `"${words.join(' ')}" found ${results.incidents.length} incidents, ${results.cases.length} cases; expected some of both`;
  const text = (r: any) => `${r?.name} ${r?.title} ${r?.description}`.toLowerCase();
  const missing = [...results.incidents, ...results.cases].find((r) => words.some((w) => !text(r).includes(w)));
  if (missing) return `a hit without one of "${words.join(' ')}": ${JSON.stringify(missing).slice(0, 200)}`;
}

function scenarios(s: MusterSession): Scenario[] {
  const path = new URL(`${s.api}/${s.organization}/search`).pathname;
  const query = (q: string) =>
    uiQuery([
      ['q', q],
      ['type', TYPES],
    ]);
  return [
    {
      name: 'search',
      url: `${s.api}/${s.organization}/search?${query(`${COMPONENTS[0]} ${SYMPTOMS[0]}`)}`,
      nextPath: () => `${path}?${query(`${pick(COMPONENTS)} ${pick(SYMPTOMS)}`)}`,
      headers: auth(s),
      check: checkHits,
    },
  ];
}

export const searchSuite: Suite<SearchState> = {
  name: 'search',
  title: `search over ${RECORDS.toLocaleString('en')} incidents and ${RECORDS.toLocaleString('en')} cases`,
  kinds: ['postgres'],
  skipReason: `${(2 * RECORDS).toLocaleString('en')} records in PGlite is not a realistic deployment`,
  inAll: false,
  async seed(_session, ctx) {
    if (!ctx.databaseUrl) throw new Error('the search suite seeds in SQL and needs its PostgreSQL database URL');
    const incidents = await seedRecords(ctx.databaseUrl, 'incident', RECORDS, ctx.progress);
    const cases = await seedRecords(ctx.databaseUrl, 'case', RECORDS, ctx.progress);
    return {
      state: { incidents, cases },
      summary: `${seedSummary('incident', RECORDS)}; ${seedSummary('case', RECORDS)}`,
      records: 2 * RECORDS,
      how: 'in bulk SQL',
    };
  },
  scenarios,
  goals(kind, results) {
    if (kind !== 'postgres') return [];
    const search = resultOf(results, 'search');
    return [latencyGoal(kindLabel(kind), search, GOAL_P99_MS), ...cpuPerRequest(kindLabel(kind), search, 'search')];
  },
  notes: [`search: q is a component and a symptom of the seed's vocabulary (${COMPONENTS.length} x ${SYMPTOMS.length} pairs); type[] ${TYPES.join(', ')}.`],
};
