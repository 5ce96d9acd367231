// Signal filter expressions: the §2.5 grammar over signal instances, their signal, project and case,
// and the entities found in them (Entity, EntityType: "some entity of the instance" matches).
// One compiler (list/filter.ts) serves the instance list's `filter` parameter, the check when a
// filter is saved, and the evaluation at ingestion, so what saves is exactly what runs.
import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { ListDefinition } from '../../list/definition.ts';
import { FilterCompiler, tableRef } from '../../list/filter.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { ApiError, errors, validationError, type ValidationItem } from '../../server/errors.ts';
import { UNRESTRICTED } from '../../server/viewer.ts';
import { caseTable } from '../lifecycle/table.ts';
import { entity } from '../entity/table.ts';
import { entityType } from '../entity_type/table.ts';
import { project } from '../project/table.ts';
import { signal, signalInstance, signalInstanceEntity } from './table.ts';

const { raw: _raw, filter_monitor: _m, idempotency_key: _k, ...instanceColumns } = getTableColumns(signalInstance);

const instanceSignal = alias(signal, 'instance_signal');
const instanceProject = alias(project, 'instance_project');
const instanceCase = alias(caseTable, 'instance_case');

/** The entities of the instance row in scope, joined to their types, matching `condition`. */
const throughEntities = (condition: SQL) =>
  sql`EXISTS (SELECT 1 FROM ${signalInstanceEntity} JOIN ${entity} ON ${entity.id} = ${signalInstanceEntity.entity_id} JOIN ${entityType} ON ${entityType.id} = ${entity.entity_type_id} WHERE ${signalInstanceEntity.signal_instance_id} = ${signalInstance.id} AND ${condition})`;

export const instanceList: ListDefinition<typeof instanceColumns> = {
  model: 'SignalInstance',
  tableName: 'signal_instance',
  table: signalInstance,
  columns: instanceColumns,
  idColumn: signalInstance.id as unknown as PgColumn,
  fields: { fingerprint: 'text', filter_action: 'text', created_at: 'timestamp', raw: 'json', case_id: 'int', signal_id: 'int', project_id: 'int' },
  separateCount: true,
  relations: [
    {
      kind: 'one',
      model: 'Signal',
      tableName: 'signal',
      table: instanceSignal,
      on: eq(instanceSignal.id, signalInstance.signal_id),
      fields: { id: 'int', name: 'text', variant: 'text', external_id: 'text', owner: 'text' },
    },
    {
      kind: 'one',
      model: 'Project',
      tableName: 'project',
      table: instanceProject,
      on: eq(instanceProject.id, signalInstance.project_id),
      fields: { id: 'int', name: 'text' },
    },
    {
      kind: 'one',
      model: 'Case',
      tableName: 'case',
      table: instanceCase,
      on: eq(instanceCase.id, signalInstance.case_id),
      fields: { id: 'int', name: 'text', title: 'text', status: 'text' },
    },
    {
      kind: 'many',
      model: 'Entity',
      tableName: 'entity',
      table: entity,
      fields: { id: 'int', name: 'text', value: 'text', source: 'text', description: 'text' },
      exists: throughEntities,
    },
    {
      kind: 'many',
      model: 'EntityType',
      tableName: 'entity_type',
      table: entityType,
      fields: { id: 'int', name: 'text', jpath: 'text', regular_expression: 'text' },
      exists: throughEntities,
    },
  ],
};

/**
 * A compiled expression, built once per filter version: the same condition run over stored
 * instances, or over a batch of instances not stored yet.
 */
export interface Matcher {
  /** The condition that the stored instance with id `instanceId` matches. */
  stored(instanceId: SQL): SQL;
  /**
   * The ids of the matching instances among `instances`, rows shaped as signal_instance rows (every
   * column, in order) with their entity links as signal_instance_entity rows (`links`). Both stand in
   * for the tables under the tables' own names (a query's WITH hides a table of that name), so the
   * condition reads them exactly as it would read the instances once stored.
   */
  batch(instances: SQL, links: SQL): SQL;
  /** Whether the expression reads `raw` (the batch then carries the documents). */
  readsRaw: boolean;
}

/**
 * An expression as a condition on one instance (its one-to-one models joined, its entities through
 * EXISTS), or undefined when it matches every instance (an empty list). Errors are 422s on `loc`.
 */
export function compileExpression(expression: unknown, loc: (string | number)[] = ['expression']): Matcher | undefined {
  // An organization's saved rule, applied by the service to every instance: nothing narrowed.
  const compiler = new FilterCompiler(instanceList, UNRESTRICTED);
  let condition: SQL | undefined;
  try {
    condition = compiler.compile(expression);
  } catch (err) {
    if (!(err instanceof ApiError) || err.statusCode !== 422) throw err;
    throw validationError((err.detail as ValidationItem[]).map((d) => ({ ...d, loc, ctx: { msg: d.msg } })));
  }
  if (!condition) return undefined;
  let from = sql`${signalInstance}`;
  for (const rel of compiler.joins) from = sql`${from} LEFT JOIN ${tableRef(rel.table)} ON ${compiler.joinOn(rel)}`;
  const matched = condition;
  return {
    stored: (instanceId) => sql`EXISTS (SELECT 1 FROM ${from} WHERE ${signalInstance.id} = ${instanceId} AND ${matched})`,
    batch: (instances, links) =>
      sql`WITH ${signalInstance} AS (${instances}), ${signalInstanceEntity} AS (${links}) SELECT ${signalInstance.id} AS id FROM ${from} WHERE ${matched}`,
    readsRaw: readsRaw(expression),
  };
}

/** Whether an expression reads the instance's `raw` (a leaf on the field `raw`; no other model has one). */
const readsRaw = (expression: unknown) => /"field":"raw"/.test(JSON.stringify(expression ?? null));

/** Whether an expression reaches a case: through the Case model, or by the instance's `case_id`. */
const namesCases = (expression: unknown) => /"(model|field)":"(Case|case_id|case\.[^"]*)"/.test(JSON.stringify(expression ?? null));

/**
 * Checks a filter's expression as it is saved: grammar, models and fields (422 on `expression`).
 * A saved filter runs on the service's account, over every case; one that reaches cases is saved
 * only by those who may see every case (Admins and above), so that what it matches, recorded on
 * the instances, tells nobody of a Restricted case they may not see (403 otherwise).
 */
export function checkExpression(ctx: Ctx, expression: unknown): void {
  compileExpression(expression);
  if (namesCases(expression) && !atLeast(ctx.role, 'Admin')) throw errors.forbidden('Only Admins and above may save a filter whose expression reaches cases.');
}
