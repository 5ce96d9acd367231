// Signal instances read by id: the stored instance with its project, signal definition (SignalRead),
// entities (EntityRead) and case (CaseRead, when the caller may see it); and the instances nested in
// a case read (the case domain's CaseRead.signal_instances).
import { and, inArray, sql } from 'drizzle-orm';
import { runStatement } from '../../db/statements.ts';
import { groupReader, type ReadDef } from '../../crud/reader.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { UNRESTRICTED } from '../../server/viewer.ts';
import { readVisibleCases } from '../case/reader.ts';
import { caseTable } from '../case/table.ts';
import { visibleCases } from '../case/visibility.ts';
import { entityGroup } from '../entity/group.ts';
import { entity } from '../entity/table.ts';
import { signalReader, signalTarget } from './group.ts';
import type { FilterAction } from './schema.ts';
import { signal, signalInstance, signalInstanceEntity } from './table.ts';

const entityTarget = { table: entity, model: 'Entity', label: 'Entity' };

/** The instance with its project, definition and entities; the case is nested separately (visibility). */
const instanceDef: ReadDef = {
  table: signalInstance,
  refs: { signal: { column: 'signal_id', target: signalTarget, read: signalReader } },
  links: {
    entities: {
      table: signalInstanceEntity,
      ownerColumn: 'signal_instance_id',
      otherColumn: 'entity_id',
      target: entityTarget,
      read: () => groupReader(entityGroup),
    },
  },
};

const instanceReader = () => groupReader(instanceDef);

/** The case reads (their own signal instances left out) of these cases, which the caller may see, by id. */
async function caseReads(ctx: Ctx, db: Executor, visibleIds: number[]): Promise<Map<number, Record<string, unknown>>> {
  if (visibleIds.length === 0) return new Map();
  return new Map((await readVisibleCases(ctx, db, visibleIds, 'in-instance')).map((c) => [c.id as number, c]));
}

/** The case reads of the cases among `caseIds` that the caller may see. */
async function visibleCaseReads(ctx: Ctx, db: Executor, caseIds: number[]): Promise<Map<number, Record<string, unknown>>> {
  if (caseIds.length === 0) return new Map();
  const visible = await db
    .select({ id: caseTable.id })
    .from(caseTable)
    .where(and(inArray(caseTable.id, caseIds), visibleCases(ctx)));
  return caseReads(
    ctx,
    db,
    visible.map((r) => r.id),
  );
}

/**
 * Read objects of the instances with these ids, in their order. Each `case` is the case read (its
 * own signal instances left out: GET /cases/{id} has them) when the caller may see the case, else null.
 */
export async function readInstances(ctx: Ctx, db: Executor, ids: string[]): Promise<Record<string, unknown>[]> {
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
  const items = ids.map((id) => byId.get(id as unknown as number)).filter((x): x is Record<string, unknown> => !!x);
  for (const item of items) {
    item.case = typeof item.case_id === 'number' ? (cases.get(item.case_id) ?? null) : null;
    item.filter_monitor ??= [];
  }
  return items;
}

/** An instance this process has just stored, as it stored it. */
export interface StoredInstance {
  id: string;
  at: Date;
  raw: Record<string, unknown>;
  fingerprint: string;
  filterAction: FilterAction | null;
  monitor: unknown[] | null;
  caseId: number | null;
  signalId: number;
  entityIds: number[];
}

/**
 * Read objects of instances just stored, built from what was stored: the records they name
 * (definitions, entities, cases) are read once each for all of them, the instances themselves not
 * at all. The same objects as readInstances gives, but for `raw`, whose keys keep the client's order.
 */
export async function readStored(ctx: Ctx, db: Executor, instances: StoredInstance[]): Promise<Map<string, Record<string, unknown>>> {
  const distinct = <T>(values: T[]) => [...new Set(values)];
  const [signals, entities, cases] = await Promise.all([
    signalReader()(db, distinct(instances.map((i) => i.signalId)), ctx),
    groupReader(entityGroup)(db, distinct(instances.flatMap((i) => i.entityIds)), ctx),
    visibleCaseReads(ctx, db, distinct(instances.map((i) => i.caseId).filter((id): id is number => id !== null))),
  ]);
  return new Map(
    instances.map((i) => {
      const signalRead = signals.get(i.signalId);
      return [
        i.id,
        {
          id: i.id,
          created_at: i.at.toISOString(),
          raw: i.raw,
          fingerprint: i.fingerprint,
          filter_action: i.filterAction,
          filter_monitor: i.monitor ?? [],
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
}

/** How many of a case's instances its read nests: the most recent ones (all of them through the instance list). */
export const CASE_SIGNAL_INSTANCES = 10;

/**
 * The signal instances of each case (dispatch__case__models__SignalInstanceRead: created_at,
 * entities, fingerprint, raw, signal, tags), the most recent CASE_SIGNAL_INSTANCES of each, newest
 * first. Cases without instances get an empty list.
 */
export async function readCaseSignalInstances(db: Executor, caseIds: number[]): Promise<Map<number, Record<string, unknown>[]>> {
  const out = new Map<number, Record<string, unknown>[]>(caseIds.map((id) => [id, []]));
  if (caseIds.length === 0) return out;
  const rows = (await db.execute(sql`
    SELECT r.case_id, r.id, r.created_at, r.fingerprint, r.raw,
           json_build_object('id', s.id, 'name', s.name, 'owner', s.owner, 'external_id', s.external_id,
                             'description', s.description, 'external_url', s.external_url, 'variant', s.variant) AS signal
    FROM unnest(${sql.param(caseIds)}::int[]) AS c(id)
    CROSS JOIN LATERAL (
      SELECT * FROM ${signalInstance} si WHERE si.case_id = c.id ORDER BY si.created_at DESC, si.id DESC LIMIT ${CASE_SIGNAL_INSTANCES}
    ) r
    JOIN ${signal} s ON s.id = r.signal_id
    ORDER BY r.case_id, r.created_at DESC, r.id DESC`)) as unknown as { rows?: Record<string, unknown>[] } | Record<string, unknown>[];
  const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
  const entities = await entitiesOf(
    db,
    list.map((r) => r.id as string),
  );
  for (const r of list) {
    out.get(r.case_id as number)?.push({
      created_at: r.created_at,
      entities: entities.get(r.id as string) ?? [],
      fingerprint: r.fingerprint,
      raw: r.raw,
      signal: { ...(r.signal as object), workflow_instances: [] },
      tags: [],
    });
  }
  return out;
}

/** The entity read objects of each instance. */
async function entitiesOf(db: Executor, instanceIds: string[]): Promise<Map<string, Record<string, unknown>[]>> {
  const out = new Map<string, Record<string, unknown>[]>();
  if (instanceIds.length === 0) return out;
  const pairs = await db
    .select({ instance: signalInstanceEntity.signal_instance_id, entity: signalInstanceEntity.entity_id })
    .from(signalInstanceEntity)
    .where(inArray(signalInstanceEntity.signal_instance_id, instanceIds));
  const read = await groupReader(entityGroup)(db, [...new Set(pairs.map((p) => p.entity))], UNRESTRICTED);
  for (const p of pairs.sort((a, b) => a.entity - b.entity)) {
    let list = out.get(p.instance);
    if (!list) out.set(p.instance, (list = []));
    const e = read.get(p.entity);
    if (e) list.push(e);
  }
  return out;
}
