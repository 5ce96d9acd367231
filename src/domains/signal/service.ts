// Signal instances read back: the list, the instances and cases of one entity, and the re-run of
// one entity type's extraction over recent instances.
import { and, eq, sql } from 'drizzle-orm';
import { runStatement } from '../../db/statements.ts';
import type { Executor } from '../../db/connection.ts';
import { runList, type Page } from '../../list/engine.ts';
import type { Ctx } from '../../server/context.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { caseTable } from '../lifecycle/table.ts';
import { readVisibleCases } from '../case/reader.ts';
import { visibleCases } from '../case/visibility.ts';
import { entity } from '../entity/table.ts';
import { extract } from '../entity_type/extract.ts';
import { entityType } from '../entity_type/table.ts';
import { instanceList } from './filters.ts';
import { readInstances, type SignalInstanceReadT } from './reader.ts';
import { signalEntityType, signalInstance, signalInstanceEntity } from './table.ts';

export async function listInstances(ctx: Ctx, query: ListQueryT): Promise<Page<SignalInstanceReadT>> {
  const page = await runList<{ id: string }>(ctx.db, ctx, instanceList, query, eq(signalInstance.organization_id, ctx.organization.id));
  return {
    ...page,
    items: await readInstances(
      ctx,
      ctx.db,
      page.items.map((i) => i.id),
    ),
  };
}

const DAY_MS = 86_400_000;
/** `days_back` days before now; beyond what a date can hold, no bound. */
function since(daysBack: number): Date | undefined {
  const t = Date.now() - daysBack * DAY_MS;
  return Number.isFinite(t) && Math.abs(t) < 8.64e15 ? new Date(t) : undefined;
}

/** Instances of the caller's organization holding the entity, created in the last `daysBack` days, newest first. */
function instancesWithEntity(ctx: Ctx, entityId: number, daysBack: number) {
  const from = since(daysBack);
  return ctx.db
    .select({ id: signalInstance.id, case_id: signalInstance.case_id })
    .from(signalInstance)
    .innerJoin(signalInstanceEntity, eq(signalInstanceEntity.signal_instance_id, signalInstance.id))
    .where(
      and(
        eq(signalInstanceEntity.entity_id, entityId),
        eq(signalInstance.organization_id, ctx.organization.id),
        from ? sql`${signalInstance.created_at} >= ${from}` : undefined,
      ),
    )
    .orderBy(sql`${signalInstance.created_at} DESC`, signalInstance.id);
}

export async function entitySignalInstances(ctx: Ctx, entityId: number, daysBack: number) {
  const rows = await instancesWithEntity(ctx, entityId, daysBack);
  return {
    instances: await readInstances(
      ctx,
      ctx.db,
      rows.map((r) => r.id),
    ),
  };
}

/** The distinct cases (the caller may see) that an instance holding the entity joined or opened in the period. */
export async function entityCases(ctx: Ctx, entityId: number, daysBack: number) {
  const from = since(daysBack);
  const rows = await ctx.db
    .selectDistinct({ id: caseTable.id })
    .from(caseTable)
    .innerJoin(signalInstance, eq(signalInstance.case_id, caseTable.id))
    .innerJoin(signalInstanceEntity, eq(signalInstanceEntity.signal_instance_id, signalInstance.id))
    .where(
      and(
        eq(signalInstanceEntity.entity_id, entityId),
        eq(signalInstance.organization_id, ctx.organization.id),
        from ? sql`${signalInstance.created_at} >= ${from}` : undefined,
        visibleCases(ctx),
      ),
    )
    .orderBy(caseTable.id);
  return {
    cases: await readVisibleCases(
      ctx,
      ctx.db,
      rows.map((r) => r.id),
      true,
    ),
  };
}

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
