// The definitions that ingestion requests name, found for a whole batch in one query: each request's
// project (by id, by name, else the organization's default), its definition there (by raw.variant,
// else raw.externalId, raw.external_id or raw.id against external_id), with entity types and filters
// in order; and the instance already stored under the request's idempotency key, if any (a retry).
import { sql } from 'drizzle-orm';
import { runStatement } from '../../db/statements.ts';
import type { Ctx } from '../../server/context.ts';
import { entityType } from '../entity_type/table.ts';
import { project } from '../project/table.ts';
import type { IngestBody } from './ingest-input.ts';
import type { FilterAction, FilterMode } from './schema.ts';
import { signal, signalEntityType, signalFilter, signalFilterLink, signalInstance } from './table.ts';

export interface FilterDef {
  id: number;
  name: string;
  expression: unknown;
  mode: FilterMode;
  action: FilterAction;
  window: number;
  expiration: string | null;
  updated_at: string;
}

export interface Definition {
  id: number;
  project_id: number;
  name: string;
  description: string | null;
  enabled: boolean;
  create_case: boolean;
  case_type_id: number | null;
  case_priority_id: number | null;
  entity_types: { id: number; name: string; regular_expression: string | null; jpath: string | null }[];
  filters: FilterDef[];
}

/** What one request resolved to: the stored instance of its key, else its definition (null: none), and whether its project exists. */
export interface Lookup {
  known: string | null;
  definition: Definition | null;
  projectFound: boolean;
}

export const textOf = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

export const variantOf = (raw: Record<string, unknown>) => textOf(raw.variant) ?? null;
export const externalIdsOf = (raw: Record<string, unknown>) =>
  [textOf(raw.externalId), textOf(raw.external_id), textOf(raw.id)].filter((v): v is string => v !== undefined);

export async function lookupDefinitions(ctx: Ctx, requests: { body: IngestBody; key: string | null }[]): Promise<Lookup[]> {
  const org = ctx.organization.id;
  const asked = requests.map(({ body, key }, n) => {
    const p = body.project;
    return {
      n,
      key,
      project_id: p && typeof p.id === 'number' ? p.id : null,
      project_name: p && typeof p.id !== 'number' && typeof p.name === 'string' ? p.name : null,
      variant: variantOf(body.raw),
      ids: externalIdsOf(body.raw),
    };
  });
  const [row] = await runStatement<{
    items: { known: string | null; signal_id: number | null; project_id: number | null }[];
    definitions: Definition[] | null;
  }>(
    ctx.db,
    sql`
    WITH x AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(asked)}::json) AS x(n int, key text, project_id int, project_name text, variant text, ids json)
    ),
    m AS (
      SELECT x.n,
        (SELECT i.id FROM ${signalInstance} i WHERE i.organization_id = ${org} AND i.idempotency_key = x.key) AS known,
        p.id AS project_id,
        (SELECT s.id FROM ${signal} s
          WHERE s.organization_id = ${org} AND s.project_id = p.id
            AND (s.variant = x.variant OR s.external_id IN (SELECT json_array_elements_text(x.ids)))
          ORDER BY (s.variant IS NOT DISTINCT FROM x.variant) DESC, s.id LIMIT 1) AS signal_id
      FROM x LEFT JOIN LATERAL (
        SELECT p.id FROM ${project} p
        WHERE p.organization_id = ${org}
          AND (x.project_id IS NULL OR p.id = x.project_id)
          AND (x.project_id IS NOT NULL OR x.project_name IS NULL OR p.name = x.project_name)
        ORDER BY p."default" DESC, p.id LIMIT 1
      ) p ON TRUE
    )
    SELECT
      (SELECT json_agg(json_build_object('known', m.known, 'signal_id', m.signal_id, 'project_id', m.project_id) ORDER BY m.n) FROM m) AS items,
      (SELECT json_agg(json_build_object(
          'id', s.id, 'project_id', s.project_id, 'name', s.name, 'description', s.description, 'enabled', s.enabled,
          'create_case', s.create_case, 'case_type_id', s.case_type_id, 'case_priority_id', s.case_priority_id,
          'entity_types', COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'regular_expression', t.regular_expression, 'jpath', t.jpath) ORDER BY t.id)
                FROM ${signalEntityType} l JOIN ${entityType} t ON t.id = l.entity_type_id WHERE l.signal_id = s.id), '[]'::json),
          'filters', COALESCE((SELECT json_agg(json_build_object('id', f.id, 'name', f.name, 'expression', f.expression, 'mode', f.mode, 'action', f.action,
                                                  'window', f."window", 'expiration', f.expiration, 'updated_at', f.updated_at) ORDER BY l.position, f.id)
                FROM ${signalFilterLink} l JOIN ${signalFilter} f ON f.id = l.signal_filter_id WHERE l.signal_id = s.id), '[]'::json)))
        FROM ${signal} s WHERE s.id IN (SELECT signal_id FROM m)) AS definitions`,
  );
  const definitions = new Map((row.definitions ?? []).map((d) => [d.id, d]));
  return row.items.map((item) => ({
    known: item.known,
    definition: item.signal_id === null ? null : (definitions.get(item.signal_id) ?? null),
    projectFound: item.project_id !== null,
  }));
}
