// A suite: one kind of data and the requests measured on it. run.ts starts a fresh Muster (a new
// database) per suite and database kind, opens a session, lets the suite seed, measures baselines A
// and B, then the suite's scenarios, and prints one table; the goal lines come last.
import type { DatabaseKind } from './config.ts';
import type { Scenario, ScenarioResult } from './load.ts';
import type { MusterSession } from './muster.ts';
import type { Baseline, GoalCheck } from './report.ts';

export interface SuiteContext {
  kind: DatabaseKind;
  /** A progress line on stderr, prefixed with the suite and database kind (seeding long tables). */
  progress(msg: string): void;
  /** The URL of the suite's own PostgreSQL database (kind `postgres` only), for bulk seeding in SQL. */
  databaseUrl?: string;
}

export interface Seeded<S> {
  /** What the scenarios need from the seeding: ids, counts. */
  state: S;
  /** What was created, for the report: "10,000 individuals (20 companies), 8 at a time". */
  summary: string;
  /** Records created, for a rate beside the seeding time. */
  records?: number;
  /** How the data went in, for the report: "over HTTP" unless said otherwise ("in bulk SQL"). */
  how?: string;
}

export interface Suite<S = any> {
  /** BENCH_SUITE selects it by this name. */
  name: string;
  /** Heading words: "plain record groups (individual contacts)". */
  title: string;
  /** Fills the fresh server, over HTTP as the session's user (the organization's Owner), or in SQL. */
  seed(session: MusterSession, ctx: SuiteContext): Promise<Seeded<S>>;
  /** Measured in this order, right after the baselines. Writes belong last: they change the data. */
  scenarios(session: MusterSession, state: S): Scenario[];
  /**
   * Checks on the server's data once the scenarios have run, before it stops (nothing lost, say):
   * goal lines like `goals`' ones.
   */
  verify?(session: MusterSession, state: S, ctx: SuiteContext): Promise<GoalCheck[]>;
  /** Goal lines for one database kind: reported, never an exit code. */
  goals(kind: DatabaseKind, results: ScenarioResult[], baselines: Baseline[]): GoalCheck[];
  /** The database kinds it runs on (all of them unless given), and why it skips the others. */
  kinds?: DatabaseKind[];
  skipReason?: string;
  /** false: only BENCH_SUITE=<name> runs it, `all` leaves it out (a long seeding, say). */
  inAll?: boolean;
  /** Footnotes printed once under all tables. */
  notes?: string[];
}

/** The label goal lines use for a database kind. */
export const kindLabel = (kind: DatabaseKind) => (kind === 'postgres' ? 'PostgreSQL' : 'embedded');

/** The result of the named scenario; throws if the suite did not measure it. */
export function resultOf(results: ScenarioResult[], name: string): ScenarioResult {
  const r = results.find((x) => x.name === name);
  if (!r) throw new Error(`no result for scenario ${name}`);
  return r;
}
