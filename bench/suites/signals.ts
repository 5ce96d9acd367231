// The signals suite: ingestion (POST /signals/instances), the busiest path of the service, against
// four definitions seeded over HTTP (../lib/signals.ts): the fingerprint-only one (3 KB alerts,
// an empty filter expression) and three as Dispatch users configure them (2 KB alerts with a long
// free-text field scanned by regular expressions over every string, a deduplicate filter whose
// expression runs over the instance's entities, its entity types, or the instance itself). Every
// request is a new instance; 90% repeat a recent (host, user, address) and are duplicates.
// Goals, at BENCH_INGEST_CONNECTIONS (50) connections, each definition: on PostgreSQL >= 2,000
// instances/s sustained 30 s, p99 < 50 ms, no error; on the embedded database >= 500/s; on both,
// every instance acknowledged (a 2xx answer) is stored.
import { readConfig } from '../lib/config.ts';
import { cpuPerRequest, latencyGoal, throughputGoal } from '../lib/report.ts';
import {
  ingestScenario,
  newTracker,
  seedEntityTypes,
  seedExpressionDefinitions,
  seedFingerprintDefinition,
  verifyIngestion,
  type IngestTracker,
} from '../lib/signals.ts';
import { kindLabel, type Suite } from '../lib/suite.ts';

const GOAL_RPS = { postgres: 2000, embedded: 500 };
const GOAL_P99_MS = 50;
const SUSTAIN_SECONDS = 30;

interface SignalsState {
  trackers: IngestTracker[];
}

export const signalsSuite: Suite<SignalsState> = {
  name: 'signals',
  title: 'signal ingestion (4 definitions: fingerprint-only, and filter expressions over entities, entity types, the instance; 90% duplicates)',
  inAll: false,
  async seed(session) {
    const types = await seedEntityTypes(session);
    const defs = [await seedFingerprintDefinition(session, types), ...(await seedExpressionDefinitions(session, types))];
    return {
      state: { trackers: defs.map(newTracker) },
      summary: `4 entity types, 4 definitions each with a deduplicate filter: ${defs.map((d) => `${d.name}: ${d.describe}`).join('; ')}`,
      records: 12,
    };
  },
  scenarios: (s, state) => state.trackers.map((t) => ingestScenario(s, t.def, t, { connections: readConfig().ingestConnections })),
  verify: (s, state, ctx) => verifyIngestion(s, state.trackers, ctx),
  goals(kind, results) {
    const label = kindLabel(kind);
    return results.flatMap((r) => [
      throughputGoal(label, r, GOAL_RPS[kind], SUSTAIN_SECONDS),
      ...(kind === 'postgres' ? [latencyGoal(label, r, GOAL_P99_MS)] : []),
      ...cpuPerRequest(label, r, 'instance'),
    ]);
  },
  notes: [
    `signals: the ingestion goals hold for ${SUSTAIN_SECONDS} s (BENCH_DURATION=${SUSTAIN_SECONDS}); instances and cases stay, each definition has its own.`,
  ],
};
