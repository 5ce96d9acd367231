// Signal instances read by id: the stored instance with its project, signal definition (SignalRead),
// entities (EntityRead) and case (CaseRead, when the caller may see it); and the instances nested in
// a case read (the case domain's CaseRead.signal_instances).
import { sql } from 'drizzle-orm';
import { runStatement } from '../../db/statements.ts';
import { declareRead, groupReader, type ReadDef } from '../../crud/reader.ts';
import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { type CaseReadT, readCasesSeenBy, readVisibleCases } from '../case/reader.ts';
import { caseTable } from '../lifecycle/table.ts';
import { visibleCases } from '../case/visibility.ts';
import { CASE } from '../case/kind.ts';
import { visibleAmong } from '../lifecycle/visibility.ts';
import { entityGroup } from '../entity/group.ts';
import { entity } from '../entity/table.ts';
import { signalReader, signalTarget } from './group.ts';
import { EntityRead } from '../entity/schema.ts';
import { type FilterAction, type SignalFilterMonitorRead, SignalInstanceRead } from './schema.ts';
import { signalInstance, signalInstanceEntity } from './table.ts';

const entityTarget = { table: entity, model: 'Entity', label: 'Entity' };
const entityReader = () => groupReader(entityGroup, EntityRead);

/** The instance with its project, definition and entities; the case is nested separately (visibility). */
const instanceDef: ReadDef = {
  table: signalInstance,
  // readInstances nests the case, when the caller may see it.
  hooked: ['case'],
  hookReads: ['case_id'],
  refs: { signal: { column: 'signal_id', target: signalTarget, read: signalReader } },
  links: {
    entities: {
      table: signalInstanceEntity,
      ownerColumn: 'signal_instance_id',
      otherColumn: 'entity_id',
      target: entityTarget,
      read: entityReader,
    },
  },
};

export type SignalInstanceReadT = Static<typeof SignalInstanceRead>;
type SignalFilterMonitorReadT = Static<typeof SignalFilterMonitorRead>;

/** SignalInstanceRead without its case (readInstances nests it) and with a null filter_monitor where none was recorded (readInstances writes []). */
const instanceReader = () => groupReader(instanceDef, SignalInstanceRead);
declareRead(instanceDef, SignalInstanceRead, 'signal-instance');

/** The case reads (their own signal instances left out) of these cases, which the caller may see, by id. */
async function caseReads(ctx: Ctx, db: Executor, visibleIds: number[]): Promise<Map<number, CaseReadT>> {
  if (visibleIds.length === 0) return new Map();
  return new Map((await readVisibleCases(ctx, db, visibleIds, 'in-instance')).map((c) => [c.id, c]));
}

/** The case reads of the cases among `caseIds` that the caller may see, read and narrowed in one statement. */
async function visibleCaseReads(ctx: Ctx, db: Executor, caseIds: number[]): Promise<Map<number, CaseReadT>> {
  if (caseIds.length === 0) return new Map();
  return new Map((await readCasesSeenBy(ctx, db, caseIds)).map((c) => [c.id, c]));
}

/**
 * Read objects of the instances with these ids, in their order. Each `case` is the case read (its
 * own signal instances left out: GET /cases/{id} has them) when the caller may see the case, else null.
 */
export async function readInstances(ctx: Ctx, db: Executor, ids: string[]): Promise<SignalInstanceReadT[]> {
  if (ids.length === 0) return [];
  // The instances and their cases are read side by side (on the pool, two connections); the cases
  // the caller may see are found from the instances, in one query.
  const caseIds = runStatement<{ id: number }>(
    db,
    sql`
    SELECT DISTINCT ${caseTable.id} AS id FROM unnest(${sql.param(ids)}::uuid[]) AS u(id)
    JOIN ${signalInstance} i ON i.id = u.id JOIN ${caseTable} ON ${caseTable.id} = i.case_id
    WHERE ${visibleCases(ctx)}`,
  );
  const [byId, cases] = await Promise.all([
    instanceReader()(db, ids as unknown as number[], ctx),
    caseIds.then((rows) =>
      caseReads(
        ctx,
        db,
        rows.map((r) => r.id),
      ),
    ),
  ]);
  const items = ids.map((id) => byId.get(id as unknown as number)).filter((x): x is SignalInstanceReadT => !!x);
  for (const item of items) {
    // case_id is a column of the row the read object is made from, which the shape leaves out.
    item.case = 'case_id' in item && typeof item.case_id === 'number' ? (cases.get(item.case_id) ?? null) : null;
    item.filter_monitor ??= [];
  }
  await hideMonitorCases(ctx, db, items);
  return items;
}

/**
 * A monitor hit names the case its filter would have joined: one the caller may not see is not
 * named (its id would tell that the hidden case exists and matched).
 */
async function hideMonitorCases(ctx: Ctx, db: Executor, items: Pick<SignalInstanceReadT, 'filter_monitor'>[]): Promise<void> {
  const named = items.flatMap((i) => (i.filter_monitor ?? []).map((m) => m.case_id)).filter((id): id is number => typeof id === 'number');
  if (named.length === 0) return;
  const seen = new Set(await visibleAmong(db, ctx, CASE, [...new Set(named)]));
  for (const item of items) for (const hit of item.filter_monitor ?? []) if (typeof hit.case_id === 'number' && !seen.has(hit.case_id)) hit.case_id = null;
}

/** An instance this process has just stored, as it stored it. */
export interface StoredInstance {
  id: string;
  at: Date;
  raw: Record<string, unknown>;
  fingerprint: string;
  filterAction: FilterAction | null;
  monitor: SignalFilterMonitorReadT[] | null;
  caseId: number | null;
  signalId: number;
  entityIds: number[];
}

/**
 * Read objects of instances just stored, built from what was stored: the records they name
 * (definitions, entities, cases) are read once each for all of them, the instances themselves not
 * at all. The same objects as readInstances gives, but for `raw`, whose keys keep the client's order.
 */
export async function readStored(ctx: Ctx, db: Executor, instances: StoredInstance[]): Promise<Map<string, SignalInstanceReadT>> {
  const distinct = <T>(values: T[]) => [...new Set(values)];
  const [signals, entities, cases] = await Promise.all([
    signalReader()(db, distinct(instances.map((i) => i.signalId)), ctx),
    entityReader()(db, distinct(instances.flatMap((i) => i.entityIds)), ctx),
    visibleCaseReads(ctx, db, distinct(instances.map((i) => i.caseId).filter((id): id is number => id !== null))),
  ]);
  const out = new Map(
    instances.map((i): [string, SignalInstanceReadT] => {
      // The batch found this definition when it stored the instance.
      const signalRead = signals.get(i.signalId)!;
      return [
        i.id,
        {
          id: i.id,
          created_at: i.at.toISOString(),
          raw: i.raw,
          fingerprint: i.fingerprint,
          filter_action: i.filterAction,
          filter_monitor: (i.monitor ?? []).map((hit) => ({ ...hit })),
          project: signalRead?.project,
          signal: signalRead,
          entities: [...i.entityIds]
            .sort((a, b) => a - b)
            .map((id) => entities.get(id))
            .filter((e) => e !== undefined),
          case: i.caseId === null ? null : (cases.get(i.caseId) ?? null),
        },
      ];
    }),
  );
  await hideMonitorCases(ctx, db, [...out.values()]);
  return out;
}
