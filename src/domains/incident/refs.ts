// What an incident body names, resolved inside the incident's project before anything is written:
// its type, priority and severity (by id or name, else the project's default), terms, duplicates
// and costs (people are resolved by individual/person.ts, tags by tag/plan.ts). Unknown records are
// 422s naming the field.
import { eq } from 'drizzle-orm';
import { createNamed, resolveRef, resolveRefs, type RefValue } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { invalid } from '../../server/errors.ts';
import { incidentCost } from '../incident_cost/table.ts';
import { incidentCostTypeTarget } from '../incident_cost_type/group.ts';
import { termTarget } from '../term/target.ts';
import { visibleIncidentIds } from './visibility.ts';

type Ref = RefValue;

/** Terms by id or text, created by text when missing (as Dispatch does). */
export async function resolveTerms(tx: Executor, ctx: Ctx, values: NonNullable<Ref>[], projectId: number): Promise<number[]> {
  await createNamed(tx, termTarget, values, ctx.organization.id, projectId);
  return [...new Set(await resolveRefs(tx, termTarget, values, ['terms'], ctx.organization.id, projectId))];
}

/** Duplicates: other incidents of the organization the caller may see. */
export const resolveDuplicates = (tx: Executor, ctx: Ctx, values: NonNullable<Ref>[], incidentId: number) =>
  visibleIncidentIds(tx, ctx, values, 'duplicates', incidentId);

export interface CostPlan {
  keep: number[];
  create: { typeId: number; amount: number }[];
}

/** Costs in an update: with `id` (one of this incident's) kept as stored, without it created in the incident's project. */
export async function planCosts(
  tx: Executor,
  ctx: Ctx,
  values: { id?: number; amount?: number; incident_cost_type?: Ref }[],
  incidentId: number,
  projectId: number,
): Promise<CostPlan> {
  const plan: CostPlan = { keep: [], create: [] };
  const owned = new Set((await tx.select({ id: incidentCost.id }).from(incidentCost).where(eq(incidentCost.incident_id, incidentId))).map((r) => r.id));
  for (const [i, value] of values.entries()) {
    if (typeof value.id === 'number') {
      if (!owned.has(value.id)) throw invalid(['incident_costs', i], 'Incident cost not found.', 'value_error.not_found');
      plan.keep.push(value.id);
      continue;
    }
    const typeId = await resolveRef(
      tx,
      incidentCostTypeTarget,
      value.incident_cost_type ?? null,
      ['incident_costs', i, 'incident_cost_type'],
      ctx.organization.id,
      projectId,
    );
    if (typeId == null) throw invalid(['incident_costs', i, 'incident_cost_type'], 'Incident cost type not found.', 'value_error.not_found');
    plan.create.push({ typeId, amount: value.amount ?? 0 });
  }
  return plan;
}
