// The writes of an ingestion batch, each one statement for the whole batch: the instances with their
// entities and entity links (under a lock per fingerprint), the entities other transactions created
// meanwhile, the instances whose idempotency keys others took, and what the filters decided.
import { sql } from 'drizzle-orm';
import { runStatement } from '../../db/statements.ts';
import type { Executor } from '../../db/connection.ts';
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


/** A lock key per fingerprint: its first 63 bits. */
const lockKey = (fingerprint: string) => BigInt(`0x${fingerprint.slice(0, 16)}`) & 0x7fffffffffffffffn;

/** The rows as one JSON array, but for `raw`: PostgreSQL reads a text array of documents three times faster than documents nested in JSON. */
const instanceRows = (items: NewInstance[]) =>
  JSON.stringify(items.map((i, n) => ({ n: n + 1, id: i.id, project_id: i.projectId, signal_id: i.signalId, fingerprint: i.fingerprint, idempotency_key: i.key, created_at: i.at.toISOString() })));

const pairRows = (items: NewInstance[]) => JSON.stringify(items.flatMap((i) => i.found.map((f) => ({ instance: i.id, entity_type_id: f.typeId, value: f.value }))));

/**
 * Stores the instances, creates their missing entities and links them, in one statement. The locks
 * of the fingerprints are taken before either insert (and in one order), so that two batches cannot
 * deadlock on them, and held to commit: concurrent duplicates then see each other and open one case. Returns the ids
 * stored (the others' keys were taken) and how many links were made.
 */
export async function storeInstances(tx: Executor, ctx: Ctx, items: NewInstance[]): Promise<{ stored: Set<string>; linked: number; entities: EntityKey[] }> {
  const org = ctx.organization.id;
  const locks = [...new Set(items.filter((i) => i.lock).map((i) => lockKey(i.fingerprint)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
  const [row] = await runStatement<{ stored: string[] | null; linked: number; entities: EntityKey[] | null }>(tx, sql`
    WITH locked AS (
      SELECT count(pg_advisory_xact_lock(k)) AS n FROM unnest(${sql.param(locks)}::bigint[]) AS k
    ),
    x AS (
      SELECT x.*, r.raw::jsonb AS raw
      FROM json_to_recordset(${instanceRows(items)}::json)
        AS x(n int, id uuid, project_id int, signal_id int, fingerprint text, idempotency_key text, created_at timestamptz)
      JOIN unnest(${sql.param(items.map((i) => i.rawText))}::text[]) WITH ORDINALITY AS r(raw, n) ON r.n = x.n
    ),
    i AS (
      INSERT INTO ${signalInstance} (id, organization_id, project_id, signal_id, raw, fingerprint, idempotency_key, created_at)
      SELECT x.id, ${org}, x.project_id, x.signal_id, x.raw, x.fingerprint, x.idempotency_key, x.created_at FROM x
      WHERE (SELECT n FROM locked) >= 0
      ON CONFLICT DO NOTHING
      RETURNING id
    ),
    p AS (
      SELECT * FROM json_to_recordset(${pairRows(items)}::json) AS p(instance uuid, entity_type_id int, value text)
    ),
    want AS (SELECT DISTINCT entity_type_id, value FROM p),
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
    ),
    linked AS (
      INSERT INTO ${signalInstanceEntity} (signal_instance_id, entity_id)
      SELECT p.instance, e.id FROM p JOIN i ON i.id = p.instance
      JOIN (SELECT * FROM found UNION ALL SELECT * FROM made) e ON e.entity_type_id = p.entity_type_id AND e.value = p.value
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT array_agg(id::text) FROM i) AS stored, (SELECT count(*) FROM linked)::int AS linked,
      (SELECT json_agg(json_build_array(e.id, e.entity_type_id, e.value)) FROM (SELECT * FROM found UNION ALL SELECT * FROM made) e) AS entities`);
  return { stored: new Set(row.stored ?? []), linked: row.linked, entities: row.entities ?? [] };
}

/** An entity: [id, entity type id, value]. */
export type EntityKey = [number, number, string];

/** Entities another transaction created while the batch was storing: found now (a new snapshot) and linked; returns every entity of the batch. */
export async function linkLateEntities(tx: Executor, items: NewInstance[]): Promise<EntityKey[]> {
  const [row] = await runStatement<{ entities: EntityKey[] | null }>(tx, sql`
    WITH e AS (
      SELECT DISTINCT p.instance, e.id, e.entity_type_id, e.value FROM json_to_recordset(${pairRows(items)}::json) AS p(instance uuid, entity_type_id int, value text)
      JOIN ${entity} e ON e.entity_type_id = p.entity_type_id AND e.value = p.value
    ),
    linked AS (
      INSERT INTO ${signalInstanceEntity} (signal_instance_id, entity_id) SELECT instance, id FROM e ON CONFLICT DO NOTHING
    )
    SELECT json_agg(DISTINCT jsonb_build_array(id, entity_type_id, value)) AS entities FROM e`);
  return row.entities ?? [];
}

/** The instances stored under these idempotency keys (by requests that committed first). */
export async function instancesOfKeys(tx: Executor, ctx: Ctx, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await runStatement<{ id: string; key: string }>(tx, sql`
    SELECT id::text, idempotency_key AS key FROM ${signalInstance} WHERE organization_id = ${ctx.organization.id} AND idempotency_key = ANY(${sql.param(keys)}::text[])`);
  return new Map(rows.map((r) => [r.key, r.id]));
}

export interface Outcome {
  id: string;
  caseId: number | null;
  filterAction: FilterAction | null;
  /** What monitor-mode filters would have done, when any matched. */
  monitor: unknown[] | null;
}


/** What the filters decided and the case each instance opened or joined, in one statement. */
export async function writeOutcomes(tx: Executor, outcomes: Outcome[]): Promise<void> {
  const rows = outcomes.filter((o) => o.caseId !== null || o.filterAction !== null || o.monitor !== null)
    .map((o) => ({ id: o.id, case_id: o.caseId, filter_action: o.filterAction, filter_monitor: o.monitor }));
  if (rows.length === 0) return;
  await runStatement(tx, sql`
    UPDATE ${signalInstance} SET case_id = x.case_id, filter_action = x.filter_action, filter_monitor = x.filter_monitor
    FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(id uuid, case_id int, filter_action text, filter_monitor jsonb)
    WHERE ${signalInstance.id} = x.id`);
}
