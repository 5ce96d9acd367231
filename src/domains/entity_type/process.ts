// Processing an entity type: its extraction re-run over recent signal instances, replacing their
// entities of this type (the entity type's "process" endpoint, routes.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import { entity } from '../entity/table.ts';
import { signalEntityType, signalInstance, signalInstanceEntity } from '../signal/table.ts';
import { extract } from './extract.ts';
import { entityType } from './table.ts';

const DAY_MS = 86_400_000;

/** How far back, and over how many instances at most, processing an entity type re-runs its extraction. */
export const PROCESS_DAYS = 14;
export const PROCESS_MAX_INSTANCES = 10_000;

/**
 * Re-runs one entity type's extraction over the recent instances (PROCESS_DAYS, at most
 * PROCESS_MAX_INSTANCES, newest first) of the definitions that use it: their entities of this type
 * are replaced by what the type finds now. Runs inside the entity type's update transaction.
 * Fingerprints stay as computed at ingestion: they record what was de-duplicated then.
 */
export async function reprocessEntityType(tx: Executor, organizationId: number, entityTypeId: number) {
  const [type] = await tx
    .select()
    .from(entityType)
    .where(and(eq(entityType.id, entityTypeId), eq(entityType.organization_id, organizationId)));
  if (!type) return;
  const instances = await runStatement<{ id: string; raw: unknown }>(
    tx,
    sql`
    SELECT si.id, si.raw FROM ${signalInstance} si
    WHERE si.organization_id = ${organizationId} AND si.created_at >= ${new Date(Date.now() - PROCESS_DAYS * DAY_MS)}
      AND si.signal_id IN (SELECT signal_id FROM ${signalEntityType} WHERE entity_type_id = ${entityTypeId})
    ORDER BY si.created_at DESC LIMIT ${PROCESS_MAX_INSTANCES}`,
  );
  if (instances.length === 0) return;
  const ids: string[] = [];
  const values: string[] = [];
  for (const inst of instances) {
    // The type's pattern was checked as it was saved, in this transaction.
    for (const v of extract(type, inst.raw)) {
      ids.push(inst.id);
      values.push(v);
    }
  }
  const all = instances.map((i) => i.id);
  await tx.execute(sql`DELETE FROM ${signalInstanceEntity} WHERE signal_instance_id = ANY(${sql.param(all)}::uuid[])
    AND entity_id IN (SELECT id FROM ${entity} WHERE entity_type_id = ${entityTypeId})`);
  if (values.length === 0) return;
  await tx.execute(sql`INSERT INTO ${entity} (organization_id, project_id, entity_type_id, value)
    SELECT DISTINCT ${organizationId}::int, ${type.project_id}::int, ${entityTypeId}::int, v FROM unnest(${sql.param(values)}::text[]) AS v
    ON CONFLICT (entity_type_id, value) DO NOTHING`);
  await tx.execute(sql`INSERT INTO ${signalInstanceEntity} (signal_instance_id, entity_id)
    SELECT w.i, e.id FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(values)}::text[]) AS w(i, v)
    JOIN ${entity} e ON e.entity_type_id = ${entityTypeId} AND e.value = w.v
    ON CONFLICT DO NOTHING`);
}
