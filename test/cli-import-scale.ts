// The import's time at scale (not part of the suite; run by hand): Dispatch's sample restored into a
// PostgreSQL, its incident 2 copied in bulk SQL to N incidents, each with a participant and its role,
// two timeline entries, a ticket and a conversation; then `muster import dispatch` into a fresh
// PostgreSQL database and into a fresh embedded data directory, each timed, with the machine's load.
//
//   PG=postgres://postgres@127.0.0.1:5476/postgres N=100000 npx tsx test/cli-import-scale.ts [postgres|embedded ...]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDatabaseName } from './db-url.ts';
import { BIN, childEnv } from './cli-helpers.ts';
import { onSource, SAMPLE } from './dispatch-source.ts';

const PG = process.env.PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const N = Number(process.env.N ?? 100_000);
const S = 'dispatch_organization_default';
const FIRST = 1000;
const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['postgres', 'embedded'];

const psql = (url: string, ...args: string[]) =>
  execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=0', '-d', url, ...args], { stdio: ['pipe', 'ignore', 'ignore'] });
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** Rows of `table` copied from the one `where` names, once per incident id g, with `set` (jsonb of g) over them. */
const copies = (table: string, where: string, set: string) =>
  `INSERT INTO ${S}.${table} SELECT (jsonb_populate_record(NULL::${S}.${table}, to_jsonb(x) || ${set})).*
     FROM ${S}.${table} x, generate_series(${FIRST}, ${FIRST + N - 1}) g WHERE ${where}`;

async function seed(source: string) {
  psql(PG, '-c', 'DROP DATABASE IF EXISTS dispatch_scale WITH (FORCE)', '-c', 'CREATE DATABASE dispatch_scale');
  psql(source, '-f', SAMPLE);
  const started = Date.now();
  const part = `${FIRST + 2 * N}`;
  await onSource(
    source,
    'SET session_replication_role = replica',
    copies(
      'incident',
      'x.id = 2',
      `jsonb_build_object('id', g, 'name', 'dispatch-default-default-' || g, 'title', 'Bulk incident ' || g, 'commander_id', g + ${part}, 'reporter_id', g + ${part},
        'liaison_id', null, 'scribe_id', null, 'duplicate_id', null, 'incident_document_id', null, 'incident_review_document_id', null,
        'tactical_group_id', null, 'notifications_group_id', null, 'reported_at', now() - (g % 700) * interval '1 day')`,
    ),
    copies(
      'participant',
      'x.id = (SELECT min(id) FROM dispatch_organization_default.participant WHERE incident_id = 2)',
      `jsonb_build_object('id', g + ${part}, 'incident_id', g)`,
    ),
    copies(
      'participant_role',
      'x.id = (SELECT min(id) FROM dispatch_organization_default.participant_role)',
      `jsonb_build_object('id', g + ${part}, 'participant_id', g + ${part})`,
    ),
    ...[0, 1].map((k) =>
      copies(
        'event',
        `x.id = (SELECT min(id) FROM dispatch_organization_default.event WHERE incident_id = 2)`,
        `jsonb_build_object('id', g * 2 + ${k} + ${part}, 'uuid', gen_random_uuid(), 'incident_id', g)`,
      ),
    ),
    copies(
      'ticket',
      'x.id = (SELECT min(id) FROM dispatch_organization_default.ticket WHERE incident_id = 2)',
      `jsonb_build_object('id', g, 'incident_id', g, 'resource_id', 'T-' || g)`,
    ),
    copies(
      'conversation',
      'x.id = (SELECT min(id) FROM dispatch_organization_default.conversation WHERE incident_id = 2)',
      `jsonb_build_object('id', g, 'incident_id', g, 'channel_id', 'C' || g)`,
    ),
    'SET session_replication_role = origin',
    'ANALYZE',
  );
  const [n] = await onSource<{ incidents: number; events: number }>(
    source,
    `SELECT (SELECT count(*)::int FROM ${S}.incident) AS incidents, (SELECT count(*)::int FROM ${S}.event) AS events`,
  );
  console.log(`seeded ${n.incidents} incidents, ${n.events} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function importInto(kind: string, source: string) {
  const dir = mkdtempSync(join(tmpdir(), 'muster-scale-'));
  let env: Record<string, string> = { MUSTER_DATA_DIR: dir };
  if (kind === 'postgres') {
    psql(PG, '-c', 'DROP DATABASE IF EXISTS muster_scale WITH (FORCE)', '-c', 'CREATE DATABASE muster_scale');
    env = {
      DATABASE_URL: withDatabaseName(PG, 'muster_scale'),
      MUSTER_JWT_SECRET: 'scale-jwt-secret-0123456789abcdef',
      MUSTER_ENCRYPTION_KEY: 'scale-encryption-key-0123456789ab',
    };
  }
  const run = (args: string[]) => {
    const started = Date.now();
    const out = execFileSync(process.execPath, [BIN, ...args], { env: childEnv(env), cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
    return { seconds: (Date.now() - started) / 1000, out };
  };
  run(['database', 'init']);
  console.log(`${kind}: load before ${load()}`);
  const first = run(['import', 'dispatch', '--from', source]);
  console.log(`${kind}: first import ${first.seconds.toFixed(1)} s, load after ${load()}`);
  console.log(
    first.out
      .split('\n')
      .filter((l) => /^ {2}(incident|participant|participant_role|event):/.test(l))
      .join('\n'),
  );
  const again = run(['import', 'dispatch', '--from', source]);
  console.log(`${kind}: second run (nothing changed) ${again.seconds.toFixed(1)} s, load after ${load()}`);
  if (kind === 'postgres') psql(PG, '-c', 'DROP DATABASE IF EXISTS muster_scale WITH (FORCE)');
  rmSync(dir, { recursive: true, force: true });
}

const source = withDatabaseName(PG, 'dispatch_scale');
await seed(source);
for (const kind of targets) importInto(kind, source);
psql(PG, '-c', 'DROP DATABASE IF EXISTS dispatch_scale WITH (FORCE)');
