// Incidents and cases for the benchmarks that need many of them: bulk SQL seeding straight into the
// suite's PostgreSQL database (once Muster has made its schema and the default project's types,
// priorities and severities), and the requests Dispatch's web UI sends for them (its table, its
// dashboard), with checks of their answers. The incidents, cases, search and memory suites share it.
//
// Each record of the seed: in project `default`, visibility Open, the project's types, priorities
// and severities by modulo, statuses in turn (with the timestamps a status implies), reported over
// the 1,000 days before today, 100 a day (so a 30-day window holds 3,000 of every 100,000), a
// title and description composed from a vocabulary of components and symptoms (so two words find
// some of them, as in a real search), and two participants from 500 people of the project: the
// commander (an assignee for a case) and the reporter, each with their role and location.
import pg from 'pg';
import { auth, randomInt, uiQuery, type MusterSession } from './muster.ts';
import type { Scenario, SentRequest } from './load.ts';
import { CASE_TABLE_FIELDS } from '../../ui/src/pages/cases/case-filters.ts';
import { INCIDENT_TABLE_FIELDS } from '../../ui/src/pages/incidents/incident-filters.ts';

export type RecordKind = 'incident' | 'case';

interface KindSpec {
  /** The table, quoted where SQL needs it. */
  table: string;
  /** Path segment of the API. */
  path: string;
  /** Column prefix of its type, priority and severity. */
  prefix: string;
  statuses: string[];
  /** Extra columns per status: SQL expressions over `reported_at` (`r.at`) and the status index (`r.st`). */
  timestamps: Record<string, string>;
  /** The two roles: the column naming its holder, the role's name, the location column (if any). */
  roles: [column: string, role: string, location?: string][];
  /** The role holders the full read shape names (a case's reporter is not in 0.1.0's CaseRead). */
  shownRoles: string[];
  /** Set from the first role holder's participant (`r.team1`, `r.loc1`), besides the role columns. */
  fromFirst?: Record<string, string>;
  /** `include[]` of the web UI's dashboard. */
  include: string[];
}

const SPECS: Record<RecordKind, KindSpec> = {
  incident: {
    table: 'incident',
    path: 'incidents',
    prefix: 'incident',
    statuses: ['Active', 'Stable', 'Closed'],
    timestamps: {
      stable_at: `CASE WHEN r.st >= 1 THEN r.at + interval '2 hours' END`,
      closed_at: `CASE WHEN r.st = 2 THEN r.at + interval '1 day' END`,
    },
    roles: [
      ['commander_id', 'Incident Commander', 'commanders_location'],
      ['reporter_id', 'Reporter', 'reporters_location'],
    ],
    shownRoles: ['commander', 'reporter'],
    fromFirst: { participants_team: 'r.team1', participants_location: 'r.loc1' },
    // IncidentDialogFilter.vue of Dispatch's web UI (dashboard/incident), in its order.
    include: [
      'closed_at',
      'commanders_location',
      'created_at',
      'duplicates',
      'incident_priority',
      'incident_severity',
      'incident_type',
      'name',
      'participants_location',
      'participants_team',
      'project',
      'reported_at',
      'reporters_location',
      'stable_at',
      'status',
      'tags',
      'title',
      'total_cost',
    ],
  },
  case: {
    table: '"case"',
    path: 'cases',
    prefix: 'case',
    statuses: ['New', 'Triage', 'Escalated', 'Stable', 'Closed'],
    timestamps: {
      triage_at: `CASE WHEN r.st >= 1 THEN r.at + interval '30 minutes' END`,
      escalated_at: `CASE WHEN r.st = 2 THEN r.at + interval '3 hours' END`,
      stable_at: `CASE WHEN r.st >= 3 THEN r.at + interval '4 hours' END`,
      closed_at: `CASE WHEN r.st = 4 THEN r.at + interval '2 days' END`,
    },
    roles: [
      ['assignee_id', 'Assignee'],
      ['reporter_id', 'Reporter'],
    ],
    shownRoles: ['assignee'],
    // CaseDialogFilter.vue of Dispatch's web UI (dashboard/case), in its order; the build of
    // September 2025 asks for total_cost_classic and total_cost_new too (reference/dispatch-ui.md).
    include: [
      'case_priority',
      'case_severity',
      'case_type',
      'closed_at',
      'duplicates',
      'escalated_at',
      'incidents',
      'name',
      'project',
      'reported_at',
      'status',
      'tags',
      'title',
      'triage_at',
      'total_cost_classic',
      'total_cost_new',
    ],
  },
};

export const pathOf = (kind: RecordKind) => SPECS[kind].path;
export const statusesOf = (kind: RecordKind) => SPECS[kind].statuses;

/** Words the seed composes its texts from; the search suite asks for a component and a symptom. */
export const COMPONENTS = [
  'payments',
  'checkout',
  'login',
  'billing',
  'search',
  'kafka',
  'postgres',
  'redis',
  'gateway',
  'dns',
  'cdn',
  'ledger',
  'inventory',
  'shipping',
  'notifications',
  'email',
  'sso',
  'vpn',
  'firewall',
  'kubernetes',
  'scheduler',
  'storage',
  'backup',
  'metrics',
  'logging',
  'profile',
  'recommendations',
  'streaming',
  'playback',
  'encoder',
  'catalog',
  'pricing',
  'fraud',
  'ads',
  'mobile',
  'webhooks',
  'queue',
  'cache',
  'ingestion',
  'warehouse',
] as const;
export const SYMPTOMS = [
  'latency',
  'timeouts',
  'errors',
  'outage',
  'degradation',
  'saturation',
  'crash',
  'leak',
  'failover',
  'corruption',
  'backlog',
  'throttling',
  'expiry',
  'misconfiguration',
  'rollback',
  'spike',
  'drop',
  'exhaustion',
  'deadlock',
  'partition',
  'phishing',
  'malware',
  'exfiltration',
  'intrusion',
  'bruteforce',
  'ransomware',
  'vulnerability',
  'exposure',
  'misuse',
  'anomaly',
] as const;
const REGIONS = ['eu-west-1', 'us-east-1', 'us-west-2', 'ap-south-1', 'eu-central-1', 'ap-northeast-1', 'sa-east-1', 'us-east-2'];
const TEAMS = ['platform', 'payments', 'identity', 'storage', 'network', 'security', 'data', 'mobile', 'web', 'support'];
const CHANGES = ['deploy', 'configuration change', 'certificate rotation', 'schema migration', 'traffic shift', 'dependency upgrade', 'feature flag'];
const IMPACTS = [
  'a share of customers could not complete their purchase',
  'internal users saw slow pages',
  'no customer impact was seen so far',
  'partners received delayed webhooks',
  'reports were delayed by an hour',
  'one region was degraded',
];
const LOCATIONS = ['Amsterdam', 'Berlin', 'Dublin', 'Los Gatos', 'New York', 'Singapore', 'Sao Paulo', 'Tokyo'];
const FIRST = ['Ada', 'Boris', 'Chiara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Keiko', 'Liam', 'Maya', 'Nils', 'Olga', 'Pablo'];
const LAST = ['Abara', 'Berg', 'Castillo', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ivanova', 'Jensen', 'Kowalski', 'Moreau'];

/** Records reported per day; a 30-day window then holds 30 times as many. */
export const PER_DAY = 100;
/** People of the project who take part, half of them holding the first role, half the second. */
const PEOPLE = 500;

const array = (words: readonly string[]) => `ARRAY[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(', ')}]`;
/** A 1-based index into an array of `n`, drawn per row. */
const draw = (n: number) => `1 + floor(random() * ${n})::int`;

/** The people who take part (once per database: both kinds share them). */
async function seedPeople(client: pg.Client, projectId: number) {
  await client.query(
    `INSERT INTO individual_contact (organization_id, project_id, email, name, title, company)
     SELECT p.organization_id, p.id, 'person-' || lpad(g::text, 3, '0') || '@corp.example.com',
            (${array(FIRST)})[1 + g % ${FIRST.length}] || ' ' || (${array(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}],
            (ARRAY['SRE', 'Engineer', 'Security Analyst', 'Incident Commander', 'Support Lead'])[1 + g % 5], 'Corp'
     FROM generate_series(1, ${PEOPLE}) g, project p WHERE p.id = $1
     ON CONFLICT DO NOTHING`,
    [projectId],
  );
}

/**
 * One statement inserts `count` records of `kind` (named from their ids), their two participants
 * each (ids drawn beforehand, so that the records name them as they go in; the foreign keys are
 * checked at the end of the statement) and the participants' roles.
 */
function insertSql(kind: RecordKind, count: number): string {
  const k = SPECS[kind];
  const fk = kind === 'incident' ? 'incident_id' : 'case_id';
  const half = PEOPLE / 2;
  const [first, second] = k.roles;
  const timestamps = Object.entries(k.timestamps);
  // The record's role columns: the holders' participants and, where it has them, their locations.
  const held: [string, string][] = [
    [first[0], 'r.p1'],
    [second[0], 'r.p2'],
    ...(first[2] ? [[first[2], 'r.loc1'] as [string, string]] : []),
    ...(second[2] ? [[second[2], 'r.loc2'] as [string, string]] : []),
    ...Object.entries(k.fromFirst ?? {}),
  ];
  const title = `initcap(v.c[r.c1]) || ' ' || v.s[r.s1] || ' in ' || v.region[r.region]`;
  const description = `'Customers reported ' || v.s[r.s2] || ' on ' || v.c[r.c2] || ' starting at ' || to_char(r.at, 'HH24:MI') || ' UTC. '
       || 'The on-call engineer saw ' || v.s[r.s1] || ' in the ' || v.c[r.c1] || ' dashboards and paged the ' || v.team[r.team] || ' team. '
       || 'First findings point at a ' || v.change[r.change] || ' of ' || v.c[r.c3] || '; ' || v.s[r.s3] || ' was ruled out. '
       || 'Impact: ' || v.impact[r.impact] || '.'`;
  const participant = (n: 1 | 2) =>
    `SELECT r.p${n}, p.organization_id, r.id, r.who${n}, r.team${n}, 'Engineering', r.loc${n}, 'Seeded by the benchmark', r.at FROM r, p`;
  return `
WITH p AS (SELECT id, organization_id FROM project WHERE organization_id = 1 AND name = 'default'),
     ty AS (SELECT array_agg(id ORDER BY id) AS ids FROM ${k.prefix}_type WHERE project_id = (SELECT id FROM p)),
     pr AS (SELECT array_agg(id ORDER BY id) AS ids FROM ${k.prefix}_priority WHERE project_id = (SELECT id FROM p)),
     se AS (SELECT array_agg(id ORDER BY id) AS ids FROM ${k.prefix}_severity WHERE project_id = (SELECT id FROM p)),
     c AS (SELECT array_agg(id ORDER BY id) AS ids FROM individual_contact WHERE project_id = (SELECT id FROM p) AND email LIKE 'person-%@corp.example.com'),
     v AS (SELECT ${array(COMPONENTS)} AS c, ${array(SYMPTOMS)} AS s, ${array(REGIONS)} AS region, ${array(TEAMS)} AS team,
                  ${array(CHANGES)} AS change, ${array(IMPACTS)} AS impact, ${array(LOCATIONS)} AS location),
     r AS MATERIALIZED (
       SELECT nextval(pg_get_serial_sequence('${k.table}', 'id')) AS id,
              nextval(pg_get_serial_sequence('participant', 'id')) AS p1, nextval(pg_get_serial_sequence('participant', 'id')) AS p2,
              g, (g % ${k.statuses.length}) AS st,
              date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - (1 + g % 1000) * interval '1 day' + random() * interval '1 day' AS at,
              ${draw(COMPONENTS.length)} AS c1, ${draw(COMPONENTS.length)} AS c2, ${draw(COMPONENTS.length)} AS c3,
              ${draw(SYMPTOMS.length)} AS s1, ${draw(SYMPTOMS.length)} AS s2, ${draw(SYMPTOMS.length)} AS s3,
              ${draw(REGIONS.length)} AS region, ${draw(TEAMS.length)} AS team, ${draw(CHANGES.length)} AS change, ${draw(IMPACTS.length)} AS impact,
              c.ids[1 + (g * 7) % ${half}] AS who1, c.ids[${half + 1} + (g * 7 + 13) % ${half}] AS who2,
              v.team[1 + g % ${TEAMS.length}] AS team1, v.team[1 + (g + 1) % ${TEAMS.length}] AS team2,
              v.location[1 + (g * 3) % ${LOCATIONS.length}] AS loc1, v.location[1 + (g * 3 + 1) % ${LOCATIONS.length}] AS loc2
       FROM generate_series(1, ${count}) AS g, c, v),
     records AS (
       INSERT INTO ${k.table} (id, name, organization_id, project_id, title, description, status, visibility,
                               ${k.prefix}_type_id, ${k.prefix}_priority_id, ${k.prefix}_severity_id, reported_at, created_at,
                               ${[...timestamps.map(([col]) => col), ...held.map(([col]) => col)].join(', ')})
       SELECT r.id, 'muster-default-default-' || r.id, p.organization_id, p.id, ${title}, ${description},
              (${array(k.statuses)})[1 + r.st], 'Open',
              ty.ids[1 + r.g % cardinality(ty.ids)], pr.ids[1 + (r.g / 3) % cardinality(pr.ids)], se.ids[1 + (r.g / 7) % cardinality(se.ids)],
              r.at, r.at, ${[...timestamps.map(([, sql]) => sql), ...held.map(([, sql]) => sql)].join(', ')}
       FROM r, p, ty, pr, se, v),
     people AS (
       INSERT INTO participant (id, organization_id, ${fk}, individual_contact_id, team, department, location, added_reason, created_at)
       ${participant(1)} UNION ALL ${participant(2)})
INSERT INTO participant_role (participant_id, role, assumed_at)
SELECT r.p1, '${first[1]}', r.at FROM r UNION ALL SELECT r.p2, '${second[1]}', r.at FROM r`;
}

export interface SeededRecords {
  kind: RecordKind;
  projectId: number;
  count: number;
  /** The ids of the seed: every integer from minId to maxId. */
  minId: number;
  maxId: number;
}

/** Inserts `count` records of `kind` with their participants, then VACUUM ANALYZE. */
export async function seedRecords(databaseUrl: string, kind: RecordKind, count: number, progress: (msg: string) => void): Promise<SeededRecords> {
  const k = SPECS[kind];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const {
      rows: [project],
    } = await client.query<{ id: number }>(`SELECT id FROM project WHERE organization_id = 1 AND name = 'default'`);
    if (!project) throw new Error('project default not found');
    const {
      rows: [counts],
    } = await client.query<{ t: number; p: number; s: number }>(
      `SELECT (SELECT count(*) FROM ${k.prefix}_type WHERE project_id = $1)::int AS t,
              (SELECT count(*) FROM ${k.prefix}_priority WHERE project_id = $1)::int AS p,
              (SELECT count(*) FROM ${k.prefix}_severity WHERE project_id = $1)::int AS s`,
      [project.id],
    );
    if (!counts.t || !counts.p || !counts.s) throw new Error(`project default lacks ${kind} types/priorities/severities: ${JSON.stringify(counts)}`);
    await client.query('BEGIN');
    // Same texts and times on every run.
    await client.query('SELECT setseed(0.42)');
    await seedPeople(client, project.id);
    const {
      rows: [range],
    } = await client.query<{ min: number; max: number }>(`SELECT COALESCE(max(id), 0)::int + 1 AS min FROM ${k.table}`);
    await client.query(insertSql(kind, count));
    await client.query('COMMIT');
    progress(`${count} ${k.path} and their participants inserted; vacuuming and analyzing`);
    for (const table of [k.table, 'participant', 'participant_role', 'individual_contact']) await client.query(`VACUUM ANALYZE ${table}`);
    const {
      rows: [ids],
    } = await client.query<{ min: number; max: number; n: number }>(
      `SELECT min(id)::int AS min, max(id)::int AS max, count(*)::int AS n FROM ${k.table} WHERE id >= $1`,
      [range.min],
    );
    if (ids.n !== count || ids.max - ids.min + 1 !== count) throw new Error(`expected ${count} ${k.path} with consecutive ids, got ${JSON.stringify(ids)}`);
    return { kind, projectId: project.id, count, minId: ids.min, maxId: ids.max };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

/** What a summary line says about a seed. */
export const seedSummary = (kind: RecordKind, count: number) =>
  `${count.toLocaleString('en')} ${SPECS[kind].path} in project default (statuses ${SPECS[kind].statuses.join('/')} in turn, the project's types, priorities and severities by modulo, ${PER_DAY} a day over 1,000 days, titles and descriptions from a vocabulary, 2 participants each from ${PEOPLE} people), then VACUUM ANALYZE`;

/** The id at the end of a path (`.../incidents/123?x` -> 123). */
const idOfPath = (url: string) => Number(new URL(url).pathname.split('/').at(-1));

/** GET one record by a random id of the seed; checked: the id asked for, the full shape (assessments, project, role holders). */
export function getScenario(s: MusterSession, seeded: SeededRecords, name: string): Scenario {
  const k = SPECS[seeded.kind];
  const base = new URL(`${s.api}/${s.organization}/${k.path}`).pathname;
  return {
    name,
    url: `${s.api}/${s.organization}/${k.path}/${seeded.minId}`,
    nextPath: () => `${base}/${randomInt(seeded.minId, seeded.maxId)}`,
    headers: auth(s),
    check: (b: any, sent: SentRequest) => {
      const want = idOfPath(sent.url);
      const missing = [`${k.prefix}_priority`, `${k.prefix}_type`, `${k.prefix}_severity`].filter((f) => !b?.[f]?.name);
      const roles = k.shownRoles.filter((r) => !b?.[r]?.individual?.email);
      if (b?.id !== want || missing.length || roles.length || b?.project?.name !== 'default' || typeof b?.title !== 'string') {
        return `expected ${k.prefix} ${want} with ${missing.concat(roles).join(', ') || 'its full shape'}: ${JSON.stringify(b).slice(0, 300)}`;
      }
    },
  };
}

const ITEMS_PER_PAGE = 25;
const projectFilter = (projectId: number) => ({ or: [{ model: 'Project', field: 'id', op: '==', value: projectId }] });

/**
 * What Muster's web UI adds to the table's request: the fields its rows show (include[], from the UI's
 * own lists), and for incidents `expand`. Dispatch's web UI asks for whole items.
 */
export const MUSTER_TABLE: Record<RecordKind, [string, unknown][]> = {
  incident: [
    ['include', INCIDENT_TABLE_FIELDS],
    ['expand', true],
  ],
  case: [['include', CASE_TABLE_FIELDS]],
};

/**
 * The web UI's table: `page=&itemsPerPage=25&descending[]=true&sortBy[]=reported_at&filter=` on the
 * project (then `asks`, Muster's web UI's additions), a random page among all of the seed's (or the
 * first BENCH_UI_MAX_PAGE); checked: the total, a full page, newest first, all of the project.
 */
export function uiTableScenario(s: MusterSession, seeded: SeededRecords, name: string, maxPage: number, asks: [string, unknown][] = []): Scenario {
  const k = SPECS[seeded.kind];
  const path = new URL(`${s.api}/${s.organization}/${k.path}`).pathname;
  const pages = Math.ceil(seeded.count / ITEMS_PER_PAGE);
  const last = maxPage > 0 ? Math.min(maxPage, pages) : pages;
  const query = (page: number) =>
    uiQuery([
      ['page', page],
      ['itemsPerPage', ITEMS_PER_PAGE],
      ['descending', [true]],
      ['sortBy', ['reported_at']],
      ['filter', { and: [projectFilter(seeded.projectId)] }],
      ...asks,
    ]);
  return {
    name,
    url: `${s.api}/${s.organization}/${k.path}?${query(1)}`,
    nextPath: () => `${path}?${query(randomInt(1, last))}`,
    headers: auth(s),
    check: (b: any, sent: SentRequest) => {
      const page = Number(new URL(sent.url).searchParams.get('page'));
      const items: any[] = b?.items ?? [];
      const want = Math.min(ITEMS_PER_PAGE, seeded.count - (page - 1) * ITEMS_PER_PAGE);
      if (b?.total !== seeded.count || items.length !== want)
        return `page ${page}: expected total ${seeded.count}, ${want} items; got total ${b?.total}, ${items.length} items`;
      if (items.some((i) => i?.project?.id !== undefined && i.project.id !== seeded.projectId)) return `page ${page}: an item of another project`;
      const at = items.map((i) => Date.parse(i?.reported_at));
      if (at.some((t, n) => Number.isNaN(t) || (n > 0 && at[n - 1] < t))) return `page ${page}: not sorted by reported_at descending`;
    },
  };
}

/** A date as the UI writes it in a filter: ISO without the zone (`2026-10-01T00:00:00.000`). */
const uiDate = (d: Date) => d.toISOString().slice(0, -1);

/** The 30 days before today (UTC midnights), as the dashboard's Reported At window. */
export function dashboardWindow(now = new Date()): { start: string; end: string } {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { start: uiDate(new Date(end.getTime() - 30 * 86_400_000)), end: uiDate(end) };
}

/**
 * The web UI's dashboard: every record of the project reported in the window, cut to the UI's
 * `include[]` (`itemsPerPage=-1&include[]=...&filter=`, the window's bounds without model, as the UI
 * writes them); checked: about 30 days' worth, all of them in the window, only the included fields.
 */
export function dashboardScenario(s: MusterSession, seeded: SeededRecords, name: string): Scenario {
  const k = SPECS[seeded.kind];
  const window = dashboardWindow();
  const filter = {
    and: [
      projectFilter(seeded.projectId),
      {
        and: [
          { field: 'reported_at', op: '>=', value: window.start },
          { field: 'reported_at', op: '<=', value: window.end },
        ],
      },
    ],
  };
  const query = uiQuery([
    ['itemsPerPage', -1],
    ['descending', []],
    ['include', k.include],
    ['sortBy', []],
    ['filter', filter],
  ]);
  const expected = (PER_DAY * 30 * seeded.count) / 100_000;
  const allowed = new Set(k.include);
  const [from, to] = [Date.parse(`${window.start}Z`) - 86_400_000, Date.parse(`${window.end}Z`) + 86_400_000];
  return {
    name,
    url: `${s.api}/${s.organization}/${k.path}?${query}`,
    headers: auth(s),
    // Thousands of records in one answer: give it time, so that its latency is measured rather than cut off.
    timeout: 60,
    check: (b: any) => {
      const items: any[] = b?.items ?? [];
      if (b?.total !== items.length || items.length < 0.8 * expected || items.length > 1.2 * expected) {
        return `expected about ${expected} items, all of them; got total ${b?.total}, ${items.length} items`;
      }
      const extra = [...new Set(items.flatMap((i) => Object.keys(i ?? {})))].filter((f) => !allowed.has(f));
      if (extra.length) return `fields not in include[]: ${extra.join(', ')}`;
      if (items.some((i) => typeof i?.title !== 'string' || !i?.[`${k.prefix}_priority`]?.name)) return 'an item lacks its title or priority';
      if (items.some((i) => !(Date.parse(i.reported_at) >= from && Date.parse(i.reported_at) <= to))) return 'an item reported outside the window';
    },
  };
}
