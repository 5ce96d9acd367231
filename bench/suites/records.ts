// The records suite: the plain record groups (one CRUD mechanism behind tags, documents, services,
// teams, ...), represented by individual contacts. 10,000 of them are seeded over HTTP, spread
// evenly over 20 companies so that a company filter selects 500. Scenarios: one contact by a random
// id of the seed, a filtered and sorted page of 20, and creating contacts (a new email per request).
// Goals: get-individual >= 60% of baseline B's requests per second; list-individuals p99 < 20 ms
// on PostgreSQL.
import { randomBytes } from 'node:crypto';
import type { Scenario, SentRequest } from '../lib/load.ts';
import { auth, callApi, inParallel, listQuery, randomInt, type MusterSession } from '../lib/muster.ts';
import { goalCheck, latencyGoal } from '../lib/report.ts';
import { kindLabel, resultOf, type Suite } from '../lib/suite.ts';

const INDIVIDUALS = 10_000;
const COMPANIES = 20;
const CONCURRENCY = 8;
const LIST_COMPANY = 7;
const GOAL_P99_MS = 20;
const GOAL_PERCENT_OF_B = 60;

const FIRST = [
  'Ada',
  'Boris',
  'Chiara',
  'Dmitri',
  'Elena',
  'Farid',
  'Greta',
  'Hiro',
  'Ines',
  'Jonas',
  'Keiko',
  'Liam',
  'Maya',
  'Nils',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sven',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zoe',
];
const LAST = [
  'Abara',
  'Berg',
  'Castillo',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Usman',
  'Varga',
  'Weber',
  'Yilmaz',
  'Zhang',
];
const TITLES = [
  'SRE',
  'Engineer',
  'Security Analyst',
  'Incident Commander',
  'Support Lead',
  'Product Manager',
  'Legal Counsel',
  'Communications',
  'Director',
  'On-call Engineer',
];

export const companyName = (i: number) => `Company ${String(i % COMPANIES).padStart(2, '0')}`;

/** Deterministic pseudo-random numbers (mulberry32), so every run seeds the same names. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Contact `i` of the seed: a varied name (not in id order), a distinct email, company i mod 20. */
export function individual(i: number, next = random(i + 1)) {
  const first = FIRST[Math.floor(next() * FIRST.length)];
  const last = LAST[Math.floor(next() * LAST.length)];
  return {
    email: `${first}.${last}.${i}@bench.example.com`.toLowerCase(),
    name: `${first} ${last}`,
    company: companyName(i),
    title: TITLES[Math.floor(next() * TITLES.length)],
    project: { name: 'default' },
  };
}

interface RecordsState {
  /** Ids of the seed's contacts: ids[i] is contact i (individual(i)). */
  ids: number[];
  /** Contacts of company LIST_COMPANY. */
  listTotal: number;
}

function scenarios(s: MusterSession, state: RecordsState): Scenario[] {
  const path = `${s.api}/${s.organization}/individuals`;
  const company = companyName(LIST_COMPANY);
  // Unique per run, so creates never collide with the seed or with another run's leftovers.
  const tag = randomBytes(3).toString('hex');
  let created = 0;
  // Which contact of the seed an id is (for the probes' checks).
  const indexOf = new Map(state.ids.map((id, i) => [id, i]));
  const base = new URL(path).pathname;
  return [
    {
      name: 'get-individual',
      url: `${path}/${state.ids[0]}`,
      nextPath: () => `${base}/${state.ids[randomInt(0, INDIVIDUALS - 1)]}`,
      headers: auth(s),
      check: (b: any, sent: SentRequest) => {
        const id = Number(new URL(sent.url).pathname.split('/').at(-1));
        const email = individual(indexOf.get(id) ?? -1).email;
        return b?.id === id && b?.email === email ? undefined : `expected contact ${id} (${email}): ${JSON.stringify(b).slice(0, 200)}`;
      },
    },
    {
      name: 'list-individuals',
      url: `${path}?${listQuery({
        page: 1,
        itemsPerPage: 20,
        filter: [{ model: 'IndividualContact', field: 'company', op: '==', value: company }],
        sortBy: ['name'],
        descending: [false],
      })}`,
      headers: auth(s),
      check: (b: any) => {
        const items: any[] = b?.items ?? [];
        const names = items.map((i) => i?.name as string);
        if (b?.total !== state.listTotal || items.length !== 20 || items.some((i) => i?.company !== company)) {
          return `expected total ${state.listTotal}, 20 items of ${company}; got total ${b?.total}, ${items.length} items, companies ${[...new Set(items.map((i) => i?.company))].join(', ')}`;
        }
        if (names.some((n, k) => k > 0 && names[k - 1] > n)) return `not sorted by name: ${names.join(', ')}`;
      },
    },
    {
      // Last: every request adds a contact (spread over the same 20 companies).
      name: 'create-individual',
      method: 'POST',
      url: path,
      headers: auth(s),
      nextBody: () => {
        const n = created++;
        return { ...individual(INDIVIDUALS + n), email: `new.${tag}.${n}@bench.example.com` };
      },
      check: (b: any) =>
        typeof b?.id === 'number' && typeof b?.email === 'string' && b.email.startsWith(`new.${tag}.`) ? undefined : JSON.stringify(b).slice(0, 200),
    },
  ];
}

export const recordsSuite: Suite<RecordsState> = {
  name: 'records',
  title: 'plain record groups (individual contacts)',
  async seed(session, ctx) {
    const path = `${session.api}/${session.organization}/individuals`;
    const ids: number[] = new Array(INDIVIDUALS);
    let done = 0;
    const started = Date.now();
    await inParallel(INDIVIDUALS, CONCURRENCY, async (i) => {
      const { id } = await callApi<{ id: number }>('POST', path, { token: session.token, body: individual(i) });
      ids[i] = id;
      if (++done % 2000 === 0) ctx.progress(`${done} individuals seeded (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    });
    let listTotal = 0;
    for (let i = 0; i < INDIVIDUALS; i++) if (i % COMPANIES === LIST_COMPANY) listTotal++;
    return {
      state: { ids, listTotal },
      summary: `${INDIVIDUALS.toLocaleString('en')} individuals (${COMPANIES} companies, ${listTotal} in ${companyName(LIST_COMPANY)}), ${CONCURRENCY} at a time`,
      records: INDIVIDUALS,
    };
  },
  scenarios,
  goals(kind, results, baselines) {
    const b = baselines.find((x) => x.key === 'B')!;
    const share = goalCheck(kindLabel(kind), resultOf(results, 'get-individual'), b, GOAL_PERCENT_OF_B);
    return kind === 'postgres' ? [share, latencyGoal(kindLabel(kind), resultOf(results, 'list-individuals'), GOAL_P99_MS)] : [share];
  },
  notes: [`create-individual sends a new email with every request; the contacts it adds stay (list-individuals is measured before it).`],
};
