// What the incidents and cases suites share: 100,000 records seeded in bulk SQL (../lib/lifecycle.ts),
// then the requests the web UIs send for them and the bench's own list, each against its goal:
//   get-<kind>          GET by a random id of the seed (full shape)       >= 40% of baseline B
//   list-<kinds>-ui     Dispatch's web UI's table, a random page           p99 < 30 ms
//   list-<kinds>-table  the same pages as Muster's web UI asks for them    p99 < 30 ms
//                       (the fields its rows show: include[], a projection)
//   dashboard-<kinds>   the UI's dashboard over 30 days (about 3,000)      p99 < 300 ms
//   list-<kinds>        a status and priority filter, newest first         p99 < 30 ms
//   create-<kind>       POST (last: it adds records)
// The incidents suite adds reads under ingestion: get-incident and the UI's table again, while
// signal instances are ingested at a steady 1,000/s beside them (p99 < 50 ms).
// PostgreSQL only: 100,000 records in the embedded database is not a realistic deployment.
import { randomBytes } from 'node:crypto';
import { readConfig } from '../lib/config.ts';
import {
  dashboardScenario,
  getScenario,
  MUSTER_TABLE,
  pathOf,
  seedRecords,
  seedSummary,
  uiTableScenario,
  type RecordKind,
  type SeededRecords,
} from '../lib/lifecycle.ts';
import type { Scenario } from '../lib/load.ts';
import { auth, listQuery, type MusterSession } from '../lib/muster.ts';
import { goalCheck, latencyGoal, latencyUnderLoadGoal, type GoalCheck } from '../lib/report.ts';
import { ingestScenario, newTracker, seedEntityTypes, seedFingerprintDefinition, verifyIngestion, type IngestTracker } from '../lib/signals.ts';
import { kindLabel, resultOf, type Suite } from '../lib/suite.ts';

export const RECORDS = 100_000;
const GOAL_PERCENT_OF_B = 40;
const GOAL_LIST_P99_MS = 30;
const GOAL_DASHBOARD_P99_MS = 300;
const GOAL_UNDER_INGESTION_P99_MS = 50;
/** Instances per second ingested beside the reads under ingestion. */
export const INGEST_RATE = 1000;
const LIST_PRIORITY = 'High';

interface LifecycleState {
  seeded: SeededRecords;
  /** The ingestion beside the reads (incidents only). */
  ingestion?: IngestTracker;
}

interface LifecycleOptions {
  kind: RecordKind;
  /** The status the bench's own list filters on. */
  listStatus: string;
  /** Reads measured again while signal instances are ingested beside them. */
  underIngestion: boolean;
}

/** The bench's own list: 20 of a status and the High priority, newest first; checked: all of them match, sorted. */
function listScenario(s: MusterSession, kind: RecordKind, status: string): Scenario {
  const model = kind === 'incident' ? 'Incident' : 'Case';
  const priorityOf = (i: any) => i?.[`${kind}_priority`]?.name;
  return {
    name: `list-${pathOf(kind)}`,
    url: `${s.api}/${s.organization}/${pathOf(kind)}?${listQuery({
      page: 1,
      itemsPerPage: 20,
      filter: [
        { model, field: 'status', op: '==', value: status },
        { model: `${model}Priority`, field: 'name', op: '==', value: LIST_PRIORITY },
      ],
      sortBy: ['reported_at'],
      descending: [true],
    })}`,
    headers: auth(s),
    check: (b: any) => {
      const items: any[] = b?.items ?? [];
      if (!(b?.total > 0) || items.length !== 20) return `expected total > 0 and 20 items; got total ${b?.total}, ${items.length} items`;
      if (items.some((i) => i?.status !== status || priorityOf(i) !== LIST_PRIORITY)) return `an item is not ${status} or not of the ${LIST_PRIORITY} priority`;
      const at = items.map((i) => Date.parse(i?.reported_at));
      if (at.some((t, k) => k > 0 && at[k - 1] < t)) return 'not sorted by reported_at descending';
    },
  };
}

/** POST a new record with every request (measured last: they stay). */
function createScenario(s: MusterSession, kind: RecordKind): Scenario {
  const tag = randomBytes(3).toString('hex');
  const word = kind === 'incident' ? 'incident' : 'case';
  let created = 0;
  return {
    name: `create-${kind}`,
    method: 'POST',
    url: `${s.api}/${s.organization}/${pathOf(kind)}`,
    headers: auth(s),
    nextBody: () => {
      const n = created++;
      return { title: `New ${word} ${tag}-${n}`, description: `Reported during the benchmark (${tag}, ${n}).`, project: { name: 'default' } };
    },
    check: (b: any) =>
      typeof b?.id === 'number' && typeof b?.title === 'string' && b.title.startsWith(`New ${word} ${tag}-`) ? undefined : JSON.stringify(b).slice(0, 300),
  };
}

export function lifecycleSuite(opts: LifecycleOptions): Suite<LifecycleState> {
  const { kind } = opts;
  const kinds = pathOf(kind);
  const names = {
    get: `get-${kind}`,
    ui: `list-${kinds}-ui`,
    table: `list-${kinds}-table`,
    dashboard: `dashboard-${kinds}`,
    list: `list-${kinds}`,
    getBusy: `get-${kind}-under-ingestion`,
    uiBusy: `list-${kinds}-ui-under-ingestion`,
  };
  return {
    name: kinds,
    title: `${RECORDS.toLocaleString('en')} ${kinds}`,
    kinds: ['postgres'],
    skipReason: `${RECORDS.toLocaleString('en')} ${kinds} in PGlite is not a realistic deployment`,
    inAll: false,
    async seed(session, ctx) {
      if (!ctx.databaseUrl) throw new Error(`the ${kinds} suite seeds in SQL and needs its PostgreSQL database URL`);
      const seeded = await seedRecords(ctx.databaseUrl, kind, RECORDS, ctx.progress);
      const ingestion = opts.underIngestion ? newTracker(await seedFingerprintDefinition(session, await seedEntityTypes(session))) : undefined;
      const beside = ingestion ? `; over HTTP, the ${ingestion.def.describe} signal definition ingested beside the reads under ingestion` : '';
      return { state: { seeded, ingestion }, summary: `${seedSummary(kind, RECORDS)}${beside}`, records: RECORDS, how: 'in bulk SQL' };
    },
    scenarios(s, state) {
      const { uiMaxPage: maxPage, ingestConnections } = readConfig();
      const busy: Scenario[] = [];
      const { ingestion } = state;
      if (ingestion) {
        const ingest = () => ingestScenario(s, ingestion.def, ingestion, { connections: ingestConnections, rate: INGEST_RATE });
        busy.push(
          { ...getScenario(s, state.seeded, names.getBusy), background: [ingest()] },
          { ...uiTableScenario(s, state.seeded, names.uiBusy, maxPage), background: [ingest()] },
        );
      }
      return [
        getScenario(s, state.seeded, names.get),
        uiTableScenario(s, state.seeded, names.ui, maxPage),
        uiTableScenario(s, state.seeded, names.table, maxPage, MUSTER_TABLE[kind]),
        dashboardScenario(s, state.seeded, names.dashboard),
        listScenario(s, kind, opts.listStatus),
        ...busy,
        // Last: every request adds a record.
        createScenario(s, kind),
      ];
    },
    verify: async (s, state, ctx) => (state.ingestion ? verifyIngestion(s, [state.ingestion], ctx) : []),
    goals(database, results, baselines) {
      if (database !== 'postgres') return [];
      const label = kindLabel(database);
      const b = baselines.find((x) => x.key === 'B')!;
      const goals: GoalCheck[] = [
        goalCheck(label, resultOf(results, names.get), b, GOAL_PERCENT_OF_B),
        latencyGoal(label, resultOf(results, names.ui), GOAL_LIST_P99_MS),
        latencyGoal(label, resultOf(results, names.table), GOAL_LIST_P99_MS),
        latencyGoal(label, resultOf(results, names.dashboard), GOAL_DASHBOARD_P99_MS),
        latencyGoal(label, resultOf(results, names.list), GOAL_LIST_P99_MS),
      ];
      if (opts.underIngestion) {
        goals.push(
          latencyUnderLoadGoal(label, resultOf(results, names.getBusy), GOAL_UNDER_INGESTION_P99_MS),
          latencyUnderLoadGoal(label, resultOf(results, names.uiBusy), GOAL_UNDER_INGESTION_P99_MS),
        );
      }
      return goals;
    },
    notes: [`create-${kind} adds ${kind === 'incident' ? 'an' : 'a'} ${kind} with every request; they stay (the reads are measured before it).`],
  };
}
