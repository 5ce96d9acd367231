// The writes of an ingestion batch, each one statement for the whole batch: the locks of the
// fingerprints with the batch's entities; the instances with their entity links and what the
// filters decided. The batch's rows (batchRows) also stand in for the stored instances when the
// filters' expressions are evaluated before the instances are stored.
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { runStatement } from '../../db/statements.ts';
import type { Ctx } from '../../server/context.ts';
import { entity } from '../entity/table.ts';
import { entityType } from '../entity_type/table.ts';
import type { Found } from './fingerprint.ts';
import type { FilterAction } from './schema.ts';
import { signalInstance, signalInstanceEntity } from './table.ts';

export interface NewInstance {
  id: string;
  projectId: number;
  signalId: number;
  /** `raw` as JSON text. */
  rawText: string;
  fingerprint: string;
  key: string | null;
  at: Date;
  found: Found[];
  /** Take the fingerprint's lock: the definition de-duplicates. */
  lock: boolean;
}

/** What the filters decided for an instance, and its case. */
export interface Outcome {
  id: string;
  caseId: number | null;
  filterAction: FilterAction | null;
  /** What monitor-mode filters would have done, when any matched. */
  monitor: unknown[] | null;
}

/** An idempotency key of the batch was taken meanwhile by a request that committed first: the batch starts over (and finds it). */
export class KeyTaken extends Error {
  constructor() {
    super('an idempotency key of the batch was taken meanwhile');
  }
}

/** A lock key per fingerprint: its first 63 bits. */
const lockKey = (fingerprint: string) => BigInt(`0x${fingerprint.slice(0, 16)}`) & 0x7fffffffffffffffn;

const entityKey = (typeId: number, value: string) => `${typeId}\u0000${value}`;

/**
 * Takes the locks of the batch's fingerprints (sorted, so that two batches cannot deadlock on them;
 * held to commit, so that concurrent duplicates see each other and open one case), and finds or
 * creates the batch's entities. Returns the entity id of each (type, value). The filters must be
 * evaluated by a later statement: this one's snapshot predates the locks.
 */
export async function lockAndFindEntities(tx: Executor, ctx: Ctx, items: NewInstance[]): Promise<Map<string, number>> {
  const org = ctx.organization.id;
  const locks = [...new Set(items.filter((i) => i.lock).map((i) => lockKey(i.fingerprint)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
  const wanted = [...new Map(items.flatMap((i) => i.found).map((f) => [entityKey(f.typeId, f.value), f])).values()];
  const pairs = JSON.stringify(wanted.map((f) => ({ entity_type_id: f.typeId, value: f.value })));
  const rows = await runStatement<{ id: number; entity_type_id: number; value: string }>(
    tx,
    sql`
    WITH locked AS (
      SELECT count(pg_advisory_xact_lock(k)) AS n FROM unnest(${sql.param(locks)}::bigint[]) AS k
    ),
    want AS (
      SELECT * FROM json_to_recordset(${pairs}::json) AS w(entity_type_id int, value text)
    ),
    found AS (
      SELECT e.id, e.entity_type_id, e.value FROM ${entity} e JOIN want w ON e.entity_type_id = w.entity_type_id AND e.value = w.value
    ),
    made AS (
      INSERT INTO ${entity} (organization_id, project_id, entity_type_id, value)
      SELECT ${org}, t.project_id, w.entity_type_id, w.value FROM want w JOIN ${entityType} t ON t.id = w.entity_type_id
      WHERE (SELECT n FROM locked) >= 0
        AND NOT EXISTS (SELECT 1 FROM found f WHERE f.entity_type_id = w.entity_type_id AND f.value = w.value)
      ORDER BY w.entity_type_id, w.value
      ON CONFLICT (entity_type_id, value) DO NOTHING
      RETURNING id, entity_type_id, value
    )
    SELECT * FROM found UNION ALL SELECT * FROM made`,
  );
  const ids = new Map(rows.map((r) => [entityKey(r.entity_type_id, r.value), r.id]));
  // Created by another transaction while this statement ran (it waited for that one to commit): a new snapshot sees them.
  const late = wanted.filter((f) => !ids.has(entityKey(f.typeId, f.value)));
  if (late.length > 0) {
    const more = await runStatement<{ id: number; entity_type_id: number; value: string }>(
      tx,
      sql`
      SELECT e.id, e.entity_type_id, e.value FROM ${entity} e
      JOIN json_to_recordset(${JSON.stringify(late.map((f) => ({ entity_type_id: f.typeId, value: f.value })))}::json) AS w(entity_type_id int, value text)
        ON e.entity_type_id = w.entity_type_id AND e.value = w.value`,
    );
    for (const r of more) ids.set(entityKey(r.entity_type_id, r.value), r.id);
  }
  return ids;
}

/** The entity ids of an instance's entities, in the order found. */
export const entityIdsOf = (item: NewInstance, ids: Map<string, number>) =>
  item.found.map((f) => ids.get(entityKey(f.typeId, f.value))).filter((id): id is number => id !== undefined);

/**
 * The batch's instances as rows shaped as signal_instance rows (every column, in the table's order,
 * with its outcome when given), and their entity links as signal_instance_entity rows: what the
 * instances are once stored, before they are. `raw` is carried only when `withRaw` (null otherwise).
 */
export function batchRows(
  ctx: Ctx,
  items: NewInstance[],
  entities: Map<string, number>,
  outcomes?: Map<string, Outcome>,
  withRaw = true,
): { instances: SQL; links: SQL } {
  const rows = JSON.stringify(
    items.map((i, n) => {
      const o = outcomes?.get(i.id);
      return {
        n: n + 1,
        id: i.id,
        project_id: i.projectId,
        signal_id: i.signalId,
        fingerprint: i.fingerprint,
        idempotency_key: i.key,
        created_at: i.at.toISOString(),
        case_id: o?.caseId ?? null,
        filter_action: o?.filterAction ?? null,
        filter_monitor: o?.monitor ?? null,
      };
    }),
  );
  const links = JSON.stringify(items.flatMap((i) => entityIdsOf(i, entities).map((id) => ({ signal_instance_id: i.id, entity_id: id }))));
  const recordset = sql`json_to_recordset(${rows}::json) AS x(n int, id uuid, project_id int, signal_id int, fingerprint text, idempotency_key text,
    created_at timestamptz, case_id int, filter_action text, filter_monitor jsonb)`;
  // `raw` travels as a text array: PostgreSQL reads it three times faster than documents nested in JSON.
  const from = withRaw ? sql`${recordset} JOIN unnest(${sql.param(items.map((i) => i.rawText))}::text[]) WITH ORDINALITY AS r(raw, n) ON r.n = x.n` : recordset;
  return {
    instances: sql`SELECT x.id, ${ctx.organization.id}::int AS organization_id, x.project_id, x.signal_id, x.case_id, ${withRaw ? sql`r.raw::jsonb` : sql`NULL::jsonb`} AS raw,
      x.fingerprint, x.filter_action, x.filter_monitor, x.idempotency_key, x.created_at FROM ${from}`,
    links: sql`SELECT l.signal_instance_id, l.entity_id FROM json_to_recordset(${links}::json) AS l(signal_instance_id uuid, entity_id int)`,
  };
}

/**
 * Stores the instances, with their outcomes, and their entity links in one statement.
 * Throws KeyTaken when an idempotency key was taken meanwhile (nothing of the batch may stand then).
 * Plain inserts, no ON CONFLICT: the ids are new, and an arbiter would make every row a speculative
 * insertion (each unique index probed first, one more WAL record per row to confirm it). A key
 * another transaction took is its unique violation; a link an instance names twice is one row.
 */
export async function insertInstances(
  tx: Executor,
  ctx: Ctx,
  items: NewInstance[],
  entities: Map<string, number>,
  outcomes: Map<string, Outcome>,
): Promise<void> {
  const batch = batchRows(ctx, items, entities, outcomes);
  try {
    await runStatement(
      tx,
      sql`
      WITH i AS (
        INSERT INTO ${signalInstance} (id, organization_id, project_id, signal_id, case_id, raw, fingerprint, filter_action, filter_monitor, idempotency_key, created_at)
        ${batch.instances}
        RETURNING id
      )
      INSERT INTO ${signalInstanceEntity} (signal_instance_id, entity_id)
      SELECT DISTINCT l.signal_instance_id, l.entity_id FROM (${batch.links}) l JOIN i ON i.id = l.signal_instance_id`,
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new KeyTaken();
    throw error;
  }
}
