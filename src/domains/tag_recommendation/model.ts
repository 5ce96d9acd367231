// Building and reading tag models (BEHAVIOR §10.1). Only Open records are used: a Restricted
// record's tags never shape what anyone is recommended, whoever asks.
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import { caseTag } from '../case/table.ts';
import { incidentTag } from '../incident/table.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { tagModel } from './table.ts';

export const MODEL_NAMES = ['incident', 'case'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

/** How many neighbours of each tag a model keeps. */
const KEEP = 10;

type Neighbours = Record<string, [number, number][]>;

const SOURCES = {
  incident: { link: incidentTag, owner: incidentTag.incident_id, table: incident },
  case: { link: caseTag, owner: caseTag.case_id, table: caseTable },
} as const;

/** Jaccard similarity of every two tags found together, each tag's best KEEP neighbours kept. */
export function neighboursOf(pairs: { record: number; tag: number }[]): Neighbours {
  const recordsOf = new Map<number, Set<number>>();
  const tagsOf = new Map<number, number[]>();
  for (const { record, tag } of pairs) {
    if (!recordsOf.has(tag)) recordsOf.set(tag, new Set());
    recordsOf.get(tag)!.add(record);
    if (!tagsOf.has(record)) tagsOf.set(record, []);
    tagsOf.get(record)!.push(tag);
  }
  // |A ∩ B| for every two tags that share a record.
  const together = new Map<number, Map<number, number>>();
  for (const tags of tagsOf.values()) {
    for (const a of tags)
      for (const b of tags) {
        if (a === b) continue;
        const row = together.get(a) ?? new Map<number, number>();
        row.set(b, (row.get(b) ?? 0) + 1);
        together.set(a, row);
      }
  }
  const out: Neighbours = {};
  for (const [a, row] of together) {
    const na = recordsOf.get(a)!.size;
    out[a] = [...row.entries()]
      .map(([b, both]): [number, number] => [b, both / (na + recordsOf.get(b)!.size - both)])
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, KEEP);
  }
  return out;
}

/** (Re)builds a project's model from its Open records; returns how many records it read. */
export async function buildTagModel(db: Executor, organizationId: number, projectId: number, name: ModelName): Promise<number> {
  const s = SOURCES[name];
  const pairs = await runStatement<{ record: number; tag: number }>(
    db,
    sql`SELECT l.${sql.identifier(name === 'incident' ? 'incident_id' : 'case_id')} AS record, l.tag_id AS tag
      FROM ${s.link} l JOIN ${s.table} r ON r.id = l.${sql.identifier(name === 'incident' ? 'incident_id' : 'case_id')}
      WHERE r.project_id = ${projectId} AND r.visibility = 'Open'`,
  );
  const neighbours = neighboursOf(pairs);
  const records = new Set(pairs.map((p) => p.record)).size;
  await db
    .insert(tagModel)
    .values({ organization_id: organizationId, project_id: projectId, model_name: name, neighbours, records, built_at: new Date() })
    .onConflictDoUpdate({ target: [tagModel.project_id, tagModel.model_name], set: { neighbours, records, built_at: new Date() } });
  return records;
}

/** The project's model, built now when it has none. */
export async function tagModelOf(db: Executor, organizationId: number, projectId: number, name: ModelName): Promise<Neighbours> {
  const read = () =>
    db
      .select({ neighbours: tagModel.neighbours })
      .from(tagModel)
      .where(and(eq(tagModel.project_id, projectId), eq(tagModel.model_name, name)));
  let [row] = await read();
  if (!row) {
    await buildTagModel(db, organizationId, projectId, name);
    [row] = await read();
  }
  return (row?.neighbours ?? {}) as Neighbours;
}

/**
 * Up to five tags for a record with these tags: for each of its tags in turn, its five best
 * neighbours; the first five distinct ones of all that it does not have yet.
 */
export function recommend(model: Neighbours, tagIds: number[]): number[] {
  const out: number[] = [];
  for (const t of tagIds) for (const [n] of (model[t] ?? []).slice(0, 5)) if (!out.includes(n) && !tagIds.includes(n)) out.push(n);
  return out.slice(0, 5);
}
