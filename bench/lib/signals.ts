// Signal ingestion for the benchmarks: alerts as monitoring systems send them, the definitions they
// are ingested against (seeded over HTTP), the ingestion scenario (90% duplicates), and the check
// that every instance acknowledged was stored. The signals suite measures ingestion itself; the
// incidents and memory suites run it beside their reads.
//
// Two kinds of definition:
// - fingerprint-only: three entity types (a host name by regular expression over every string, a
//   user's email by JSONPath, a source address by JSONPath and regular expression) and a
//   deduplicate filter with an empty expression, over a 3 KB alert;
// - as Dispatch users configure them: entity types that scan every string of a 2 KB alert with a
//   long free-text field (host names, email addresses) besides the source address, and a
//   deduplicate filter whose `expression` runs over the instance's entities, over its entity types
//   (the web UI's Basic tab writes that one), or over the instance itself (its signal, its project).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Scenario } from './load.ts';
import { auth, callApi, listQuery, type MusterSession } from './muster.ts';
import type { GoalCheck } from './report.ts';
import { kindLabel, type SuiteContext } from './suite.ts';

/** Share of instances that repeat a recent (host, user, address) triple: duplicates joining a case. */
export const DUPLICATE_SHARE = 0.9;
/** How many of the latest triples the duplicates are drawn from. */
const RECENT = 200;

type Alert = (variant: string, host: string, user: string, ip: string) => Record<string, unknown>;

const FILLER =
  'The authentication service observed a login that deviates from the baseline of this account: ' +
  'a new device fingerprint, an unusual autonomous system and an hour outside the working pattern. ';

/** A suspicious-login alert of about 3 KB naming a host, a user and a source address. */
export const loginAlert: Alert = (variant, host, user, ip) => ({
  id: randomUUID(),
  variant,
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
});

/** An impossible-travel alert of about 2 KB, most of it a free-text description that names the host, the user and the address again. */
export const travelAlert: Alert = (variant, host, user, ip) => {
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    variant,
    rule: { id: 'impossible-travel-v2', name: 'Impossible travel', severity: 'high' },
    detected_at: at,
    summary: `Impossible travel for ${user} on ${host}`,
    user: { email: user, display_name: user.split('@')[0] },
    host: { name: host, os: 'Linux 6.8', agent: 'edr-agent/7.3.1' },
    network: { source: { address: `src=${ip}`, country: 'BR', asn: 64512 } },
    description:
      `The identity provider recorded a successful sign-in for ${user} from ${ip}, about 9,400 km away from the ` +
      `previous sign-in of the same account 14 minutes earlier, which no flight could explain. The session used a ` +
      `browser never seen for this account and passed multi-factor authentication with a push approval that was ` +
      `accepted within two seconds, which often means the push was approved without reading it. Four minutes later ` +
      `the same session opened an SSH connection to ${host}, listed the home directories, read the deployment ` +
      `configuration and copied an archive of 240 MB to a temporary directory. No transfer out of the network was ` +
      `seen yet. The device posture check of the signing-in device reported an outdated browser and disk encryption ` +
      `turned off. The account belongs to the payments team and has production access through the on-call group. ` +
      `Earlier alerts for this account in the last 90 days: none. The security operations centre ` +
      `(soc@corp.example.com) was notified by the detection pipeline at ${at}. Recommended next steps: revoke ` +
      `the sessions of the account, reset its credentials, isolate the host if the archive leaves it, and ask the ` +
      `user whether the sign-in was theirs. This alert was produced by rule impossible-travel-v2 of the detection ` +
      `pipeline; its thresholds are 500 km per hour and a minimum distance of 1,000 km.`,
    labels: { team: 'secops', environment: 'production', pipeline: 'detections-eu' },
  };
};

function triple(i: number): [string, string, string] {
  return [`host-${String(i).padStart(5, '0')}`, `user${i}@corp.example.com`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`];
}

export interface IngestDefinition {
  /** Scenario name: ingest-instance, ingest-entity-filter, ... */
  name: string;
  definitionId: number;
  variant: string;
  alert: Alert;
  /** Entities every instance yields (the probe checks it). */
  entities: number;
  /** What the definition is, for the summary. */
  describe: string;
}

const post = (s: MusterSession, path: string, body: unknown) => callApi('POST', `${s.api}/${s.organization}/${path}`, { token: s.token, body });
const project = { name: 'default' };

/** The project's entity types (ids), made once per server by seedEntityTypes. */
export interface EntityTypes {
  host: number;
  user: number;
  address: number;
  email: number;
}

export async function seedEntityTypes(s: MusterSession): Promise<EntityTypes> {
  const host = await post(s, 'entity_type', { name: 'Host', regular_expression: '\\bhost-[0-9]{5}\\b', project });
  const user = await post(s, 'entity_type', { name: 'User', jpath: '$.actor.email', project });
  const address = await post(s, 'entity_type', {
    name: 'Source address',
    jpath: '$.network.source.address',
    regular_expression: '[0-9]+(\\.[0-9]+){3}',
    project,
  });
  const email = await post(s, 'entity_type', { name: 'Email address', regular_expression: '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}', project });
  return { host: host.id, user: user.id, address: address.id, email: email.id };
}

async function definition(s: MusterSession, name: string, variant: string, entityTypeIds: number[], expression: unknown[]): Promise<number> {
  const filter = await post(s, 'signals/filters', { name: `Deduplicate ${name}`, action: 'deduplicate', window: 3600, expression, project });
  const def = await post(s, 'signals', {
    name,
    owner: 'secops',
    external_id: variant,
    variant,
    enabled: true,
    create_case: true,
    description: `Benchmark definition: ${name}.`,
    project,
    entity_types: entityTypeIds.map((id) => ({ id })),
    filters: [{ id: filter.id }],
  });
  return def.id;
}

/** The fingerprint-only definition (3 KB alerts, three entity types, a deduplicate filter without expression). */
export async function seedFingerprintDefinition(s: MusterSession, t: EntityTypes): Promise<IngestDefinition> {
  const variant = 'bench-suspicious-login';
  const definitionId = await definition(s, 'Suspicious login', variant, [t.host, t.user, t.address], []);
  return { name: 'ingest-instance', definitionId, variant, alert: loginAlert, entities: 3, describe: 'fingerprint-only (3 KB alert, empty filter expression)' };
}

/** The definitions as Dispatch users configure them: scan-every-string entity types, a deduplicate filter with an expression. */
export async function seedExpressionDefinitions(s: MusterSession, t: EntityTypes): Promise<IngestDefinition[]> {
  const types = [t.host, t.email, t.address];
  const made = async (name: string, variant: string, expression: (variant: string) => unknown[], describe: string): Promise<IngestDefinition> => ({
    name,
    variant,
    definitionId: await definition(s, `Impossible travel (${describe})`, variant, types, expression(variant)),
    alert: travelAlert,
    // The host, the user's email address (a regular expression takes the first match of each string, as in Dispatch), the source address.
    entities: 3,
    describe: `filter expression over ${describe} (2 KB alert, host and email regular expressions over every string)`,
  });
  return [
    await made(
      'ingest-entity-filter',
      'bench-travel-entities',
      () => [{ or: [{ model: 'Entity', field: 'value', op: 'like', value: '%@corp.example.com' }] }],
      'entities',
    ),
    await made(
      'ingest-entity-type-filter',
      'bench-travel-entity-types',
      () => [
        {
          or: [
            { model: 'EntityType', field: 'id', op: '==', value: t.host },
            { model: 'EntityType', field: 'id', op: '==', value: t.email },
          ],
        },
      ],
      'entity types',
    ),
    await made(
      'ingest-instance-filter',
      'bench-travel-instance',
      (variant) => [
        {
          and: [
            { model: 'Signal', field: 'variant', op: '==', value: variant },
            { model: 'Project', field: 'name', op: '==', value: 'default' },
          ],
        },
      ],
      'the instance',
    ),
  ];
}

/** What an ingestion scenario saw: the ids acknowledged with a 2xx answer, and how many bodies it made. */
export interface IngestTracker {
  def: IngestDefinition;
  acknowledged: Set<string>;
  sent: number;
  /** The next new triple: scenarios that share a tracker continue its sequence. */
  fresh: number;
}

const ID = /"id":"([0-9a-f-]{36})"/;

/**
 * POST /signals/instances against `def`, a new UUID in raw.id every time; 90% of the instances
 * repeat one of the 200 latest triples (duplicates), 10% bring a new one (a new case).
 */
export function ingestScenario(s: MusterSession, def: IngestDefinition, tracker: IngestTracker, opts: { connections?: number; rate?: number } = {}): Scenario {
  const next = () => {
    tracker.sent++;
    if (Math.random() >= DUPLICATE_SHARE) return triple(tracker.fresh++);
    return triple(tracker.fresh - 1 - Math.floor(Math.random() * RECENT));
  };
  return {
    name: def.name,
    method: 'POST',
    url: `${s.api}/${s.organization}/signals/instances`,
    headers: auth(s),
    nextBody: () => ({ project, raw: def.alert(def.variant, ...next()) }),
    connections: opts.connections,
    rate: opts.rate,
    onResponse: (status, text) => {
      if (status >= 200 && status < 300) {
        const m = ID.exec(text.slice(0, 80));
        if (m) tracker.acknowledged.add(m[1]);
      }
    },
    check: (b: any) => {
      const entities = (b?.entities ?? []).map((e: any) => `${e?.entity_type?.name}=${e?.value}`);
      if (entities.length !== def.entities) return `expected ${def.entities} entities, got ${entities.join(', ') || 'none'}`;
      if (typeof b?.id !== 'string' || b?.signal?.id !== def.definitionId || typeof b?.fingerprint !== 'string' || typeof b?.case?.id !== 'number') {
        return JSON.stringify(b).slice(0, 400);
      }
    },
  };
}

export const newTracker = (def: IngestDefinition): IngestTracker => ({ def, acknowledged: new Set(), sent: 0, fresh: RECENT });

/**
 * Every acknowledged instance is stored: by id on PostgreSQL; by count on the embedded database,
 * whose data only the server process can open. The duplicates found are reported beside (none
 * would mean the filter never matched: a misconfigured benchmark).
 */
export async function verifyIngestion(s: MusterSession, trackers: IngestTracker[], ctx: Pick<SuiteContext, 'kind' | 'databaseUrl'>): Promise<GoalCheck[]> {
  const label = kindLabel(ctx.kind);
  const out: GoalCheck[] = [];
  for (const t of trackers) {
    const acked = t.acknowledged.size;
    const name = t.def.name;
    if (ctx.databaseUrl) {
      const client = new pg.Client({ connectionString: ctx.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ id: string }>('SELECT id::text FROM signal_instance WHERE signal_id = $1', [t.def.definitionId]);
        const stored = new Set(rows.map((r) => r.id));
        const lost = [...t.acknowledged].filter((id) => !stored.has(id)).length;
        const {
          rows: [c],
        } = await client.query<{ cases: number; dups: number }>(
          `SELECT count(DISTINCT case_id)::int AS cases, count(*) FILTER (WHERE filter_action = 'deduplicate')::int AS dups FROM signal_instance WHERE signal_id = $1`,
          [t.def.definitionId],
        );
        const pass = lost === 0 && acked > 0 && c.dups > 0;
        const share = stored.size ? ` (${((100 * c.dups) / stored.size).toFixed(0)}%)` : '';
        out.push({
          pass,
          line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${name}: ${acked} instances acknowledged, ${stored.size} stored (of ${t.sent} sent), ${lost} acknowledged but not stored; ${c.cases} cases, ${c.dups} duplicates${share} (goal: none lost; duplicates found)`,
        });
      } finally {
        await client.end();
      }
      continue;
    }
    const filter = [{ model: 'SignalInstance', field: 'signal_id', op: '==', value: t.def.definitionId }];
    // The embedded database is one connection, which the server's job workers share: after a load
    // they drain the background effects of the cases it opened first, for minutes on a busy machine.
    const page = await callApi<{ total: number }>('GET', `${s.api}/${s.organization}/signals/instances?${listQuery({ itemsPerPage: 0, filter })}`, {
      token: s.token,
      timeoutMs: 600_000,
    });
    const pass = acked > 0 && page.total >= acked && page.total <= t.sent;
    out.push({
      pass,
      line: `${label}: ${pass ? 'PASS' : 'FAIL'}: ${name}: ${acked} instances acknowledged, ${page.total} stored (of ${t.sent} sent; each request is a distinct instance, so stored >= acknowledged means none lost) (goal: none lost)`,
    });
  }
  return out;
}
