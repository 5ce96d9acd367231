// Signal instances read back: the list, and the instances and cases of one entity.
import { and, eq, sql } from 'drizzle-orm';
import { runList, type Page } from '../../list/engine.ts';
import type { Ctx } from '../../server/context.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { caseTable } from '../lifecycle/table.ts';
import { readVisibleCases } from '../case/reader.ts';
import { visibleCases } from '../case/visibility.ts';
import { instanceList } from './filters.ts';
import { readInstances, type SignalInstanceReadT } from './reader.ts';
import { signalInstance, signalInstanceEntity } from './table.ts';

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
