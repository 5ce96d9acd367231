// The signal instances a case's read nests: the newest of each case with their signal and
// entities. Apart from the instance reader, which itself reads cases.
import { inArray, sql } from 'drizzle-orm';
import { groupReader } from '../../crud/reader.ts';
import type { Executor } from '../../db/connection.ts';
import { UNRESTRICTED } from '../../server/viewer.ts';
import { entityGroup } from '../entity/group.ts';
import { signal, signalInstance, signalInstanceEntity } from '../signal/table.ts';

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
export async function entitiesOf(db: Executor, instanceIds: string[]): Promise<Map<string, Record<string, unknown>[]>> {
  const out = new Map<string, Record<string, unknown>[]>();
  if (instanceIds.length === 0) return out;
  const pairs = await db
    .select({ instance: signalInstanceEntity.signal_instance_id, entity: signalInstanceEntity.entity_id })
    .from(signalInstanceEntity)
    .where(inArray(signalInstanceEntity.signal_instance_id, instanceIds));
  // Entities are seen by every member of the organization: nothing to narrow.
  const read = await groupReader(entityGroup)(db, [...new Set(pairs.map((p) => p.entity))], UNRESTRICTED);
  for (const p of pairs.sort((a, b) => a.entity - b.entity)) {
    let list = out.get(p.instance);
    if (!list) out.set(p.instance, (list = []));
    const e = read.get(p.entity);
    if (e) list.push(e);
  }
  return out;
}
