// The memory suite: the resident memory (VmRSS) of one Muster process through a long mixed run of
// the requests above, on 100,000 incidents seeded in bulk SQL: GET incident by random ids, the web
// UI's incidents table and dashboard, and ingestion against a fingerprint-only definition and one
// with an expression filter, all at steady rates at once for BENCH_MEMORY_MINUTES (5). Sampled every
// second from /proc/<pid>/status; the goal line gives it at minute 1 and minute 5 and the growth
// between them. Goal: flat (at most 5% growth). PostgreSQL only; not in `all` (it runs for minutes).
import { readConfig } from '../lib/config.ts';
import { dashboardScenario, getScenario, seedRecords, seedSummary, uiTableScenario, type SeededRecords } from '../lib/lifecycle.ts';
import type { Scenario } from '../lib/load.ts';
import { memoryGoal } from '../lib/report.ts';
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
import { RECORDS } from './lifecycle.ts';

const MAX_GROWTH_PERCENT = 5;

/** Requests per second of each part of the mix (and its connections). */
const MIX = {
  get: { rate: 100, connections: 10 },
  table: { rate: 20, connections: 10 },
  dashboard: { rate: 1, connections: 1 },
  ingest: { rate: 300, connections: 50 },
  ingestFiltered: { rate: 100, connections: 50 },
};

interface MemoryState {
  seeded: SeededRecords;
  trackers: IngestTracker[];
}

function scenarios(s: Parameters<Suite['scenarios']>[0], state: MemoryState): Scenario[] {
  const duration = Math.round(readConfig().memoryMinutes * 60);
  const [plain, filtered] = state.trackers;
  return [
    {
      ...getScenario(s, state.seeded, 'get-incident'),
      ...MIX.get,
      duration,
      background: [
        { ...uiTableScenario(s, state.seeded, 'list-incidents-ui', readConfig().uiMaxPage), ...MIX.table },
        { ...dashboardScenario(s, state.seeded, 'dashboard-incidents'), ...MIX.dashboard },
        ingestScenario(s, plain.def, plain, MIX.ingest),
        ingestScenario(s, filtered.def, filtered, MIX.ingestFiltered),
      ],
    },
  ];
}

export const memorySuite: Suite<MemoryState> = {
  name: 'memory',
  title: `resident memory through a mixed run (${RECORDS.toLocaleString('en')} incidents)`,
  kinds: ['postgres'],
  skipReason: `it reads ${RECORDS.toLocaleString('en')} incidents, which in PGlite is not a realistic deployment`,
  inAll: false,
  async seed(session, ctx) {
    if (!ctx.databaseUrl) throw new Error('the memory suite seeds in SQL and needs its PostgreSQL database URL');
    const seeded = await seedRecords(ctx.databaseUrl, 'incident', RECORDS, ctx.progress);
    const types = await seedEntityTypes(session);
    const defs = [await seedFingerprintDefinition(session, types), (await seedExpressionDefinitions(session, types))[0]];
    return {
      state: { seeded, trackers: defs.map(newTracker) },
      summary: `${seedSummary('incident', RECORDS)}; over HTTP, signal definitions ${defs.map((d) => d.describe).join('; ')}`,
      records: RECORDS,
      how: 'in bulk SQL',
    };
  },
  scenarios,
  verify: (s, state, ctx) => verifyIngestion(s, state.trackers, ctx),
  goals(kind, results) {
    return results.map((r) => memoryGoal(kindLabel(kind), r, MAX_GROWTH_PERCENT));
  },
  notes: [
    `memory: rates of the mix (req/s): ${Object.entries(MIX)
      .map(([k, v]) => `${k} ${v.rate}`)
      .join(', ')}; BENCH_MEMORY_MINUTES sets its length (the goal is for 5).`,
  ],
};
