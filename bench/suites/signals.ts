// The signals suite: ingestion (POST /signals/instances), the busiest path of the service. Seeded
// over HTTP: three entity types (a host name by regular expression over every string, a user's
// email by JSONPath, a source address by JSONPath and regular expression), one deduplicate filter
// (window one hour) and one enabled definition that opens cases. Every request is a realistic alert
// of about 3 KB with a new UUID in raw.id (its idempotency key); 90% repeat one of 200 recent
// (host, user, address) triples, so they are duplicates that join a case, and 10% bring a new
// triple, which opens a case.
// Goals on PostgreSQL: >= 2,000 instances/s, p99 < 50 ms, no error; afterwards, every instance
// acknowledged (a 2xx answer) is stored (by id on PostgreSQL; by count on the embedded database,
// whose data only the server process can open).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Scenario } from '../lib/load.ts';
import { auth, callApi, type MusterSession } from '../lib/muster.ts';
import { latencyGoal, type GoalCheck } from '../lib/report.ts';
import { kindLabel, resultOf, type Suite } from '../lib/suite.ts';

const GOAL_RPS = 2000;
const GOAL_P99_MS = 50;
const DUPLICATE_SHARE = 0.9;
const RECENT = 200;
const VARIANT = 'bench-suspicious-login';

interface SignalsState {
  definitionId: number;
  /** Ids of the instances acknowledged with a 2xx answer. */
  acknowledged: Set<string>;
  /** Bodies handed out (requests sent or about to be). */
  sent: { n: number };
}

const FILLER =
  'The authentication service observed a login that deviates from the baseline of this account: ' +
  'a new device fingerprint, an unusual autonomous system and an hour outside the working pattern. ';

/** A realistic alert of about 3 KB naming a host, a user and a source address. */
function alert(host: string, user: string, ip: string) {
  return {
    id: randomUUID(),
    variant: VARIANT,
    title: `Suspicious login for ${user}`,
    severity: 'high',
    detected_at: new Date().toISOString(),
    message: `User ${user} logged in to ${host} from ${ip}`,
    actor: { email: user, display_name: user.split('@')[0], department: 'Engineering', mfa: { enrolled: true, method: 'push' } },
    network: { source: { address: `src=${ip}`, port: 51234, asn: 64512, geo: { country: 'NL', city: 'Amsterdam' } }, protocol: 'https' },
    device: { hostname: host, os: 'Linux 6.8', agent: 'edr-agent/7.3.1', tags: ['prod', 'eu-west-1', 'tier-1'] },
    evidence: Array.from({ length: 8 }, (_, i) => ({
      kind: 'log',
      index: i,
      line: `${new Date().toISOString()} sshd[${1000 + i}]: Accepted publickey for ${user.split('@')[0]} from ${ip} port ${50000 + i}`,
      note: FILLER,
    })),
    references: ['https://runbooks.example.com/suspicious-login', 'https://siem.example.com/alerts/123'],
    labels: { team: 'secops', environment: 'production', rule: 'impossible-travel-v2' },
  };
}

function triple(i: number): [string, string, string] {
  return [`host-${String(i).padStart(5, '0')}`, `user${i}@corp.example.com`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`];
}

async function seed(s: MusterSession): Promise<SignalsState> {
  const post = (path: string, body: unknown) => callApi('POST', `${s.api}/${s.organization}/${path}`, { token: s.token, body });
  const project = { name: 'default' };
  const host = await post('entity_type', { name: 'Host', regular_expression: '\\bhost-[0-9]{5}\\b', project });
  const user = await post('entity_type', { name: 'User', jpath: '$.actor.email', project });
  const ip = await post('entity_type', { name: 'Source address', jpath: '$.network.source.address', regular_expression: '[0-9]+(\\.[0-9]+){3}', project });
  const filter = await post('signals/filters', { name: 'Same host, user and address', action: 'deduplicate', window: 3600, expression: [], project });
  const definition = await post('signals', {
    name: 'Suspicious login',
    owner: 'secops',
    external_id: 'suspicious-login',
    variant: VARIANT,
    enabled: true,
    create_case: true,
    description: 'A login that deviates from the account baseline.',
    project,
    entity_types: [{ id: host.id }, { id: user.id }, { id: ip.id }],
    filters: [{ id: filter.id }],
  });
  return { definitionId: definition.id, acknowledged: new Set(), sent: { n: 0 } };
}

const ID = /"id":"([0-9a-f-]{36})"/;

function scenarios(s: MusterSession, state: SignalsState): Scenario[] {
  let fresh = RECENT;
  const next = () => {
    state.sent.n++;
    // 10%: a new triple (a new fingerprint, a new case); 90%: one of the RECENT latest (a duplicate).
    if (Math.random() >= DUPLICATE_SHARE) return triple(fresh++);
    return triple(fresh - 1 - Math.floor(Math.random() * RECENT));
  };
  return [
    {
      name: 'ingest-instance',
      method: 'POST',
      url: `${s.api}/${s.organization}/signals/instances`,
      headers: auth(s),
      nextBody: () => ({ project: { name: 'default' }, raw: alert(...next()) }),
      onResponse: (status, text) => {
        if (status >= 200 && status < 300) {
          const m = ID.exec(text.slice(0, 80));
          if (m) state.acknowledged.add(m[1]);
        }
      },
      check: (b: any) =>
        typeof b?.id === 'string' &&
        b?.signal?.id === state.definitionId &&
        b?.entities?.length === 3 &&
        typeof b?.fingerprint === 'string' &&
        typeof b?.case?.id === 'number'
          ? undefined
          : JSON.stringify(b).slice(0, 400),
    },
  ];
}

/** Every acknowledged instance is stored. */
async function verify(s: MusterSession, state: SignalsState, ctx: { kind: 'postgres' | 'embedded'; databaseUrl?: string }): Promise<GoalCheck[]> {
  const label = kindLabel(ctx.kind);
  const acked = state.acknowledged.size;
  if (ctx.databaseUrl) {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>('SELECT id::text FROM signal_instance WHERE signal_id = $1', [state.definitionId]);
      const stored = new Set(rows.map((r) => r.id));
      const lost = [...state.acknowledged].filter((id) => !stored.has(id));
      const {
        rows: [c],
      } = await client.query<{ cases: number; dups: number }>(
        `SELECT count(DISTINCT case_id)::int AS cases, count(*) FILTER (WHERE filter_action = 'deduplicate')::int AS dups FROM signal_instance WHERE signal_id = $1`,
        [state.definitionId],
      );
      return [
        {
          pass: lost.length === 0 && acked > 0,
          line: `${label}: ${lost.length === 0 && acked > 0 ? 'PASS' : 'FAIL'}: ${acked} instances acknowledged, ${stored.size} stored (of ${state.sent.n} sent), ${lost.length} acknowledged but not stored; ${c.cases} cases, ${c.dups} duplicates (goal: none lost)`,
        },
      ];
    } finally {
      await client.end();
    }
  }
  const page = await callApi<{ total: number }>('GET', `${s.api}/${s.organization}/signals/instances?itemsPerPage=0`, { token: s.token });
  const pass = acked > 0 && page.total >= acked && page.total <= state.sent.n;
  return [
    {
      pass,
      line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${acked} instances acknowledged, ${page.total} stored (of ${state.sent.n} sent; each request is a distinct instance, so stored >= acknowledged means none lost) (goal: none lost)`,
    },
  ];
}

export const signalsSuite: Suite<SignalsState> = {
  name: 'signals',
  title: 'signal ingestion (3 KB alerts, 3 entity types, one deduplicate filter, 90% duplicates)',
  inAll: false,
  async seed(session) {
    const state = await seed(session);
    return { state, summary: '3 entity types, 1 deduplicate filter, 1 definition', records: 5 };
  },
  scenarios,
  verify,
  goals(kind, results) {
    if (kind !== 'postgres') return [];
    const r = resultOf(results, 'ingest-instance');
    const rpsPass = r.rps >= GOAL_RPS;
    return [
      { pass: rpsPass, line: `${kindLabel(kind)}: ${rpsPass ? 'PASS' : 'FAIL'}: ingest-instance ${Math.round(r.rps)} req/s (goal: >= ${GOAL_RPS} req/s)` },
      latencyGoal(kindLabel(kind), r, GOAL_P99_MS),
    ];
  },
  notes: ['ingest-instance: run with BENCH_DURATION=30 for the 30-second goal; instances and cases stay.'],
};
