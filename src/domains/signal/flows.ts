// Signal instance ingestion (POST /{organization}/signals/instances): the busiest path of the
// service. Detection systems post in bursts, so the work is done in a few round trips and one
// transaction, and nothing is acknowledged that is not committed.
//
//  1. Checks on the body alone: `raw` no larger than MUSTER_SIGNAL_RAW_LIMIT, nested no deeper than
//     MAX_RAW_DEPTH.
//  2. One query finds the definition (by raw.variant, else raw.externalId or raw.id against
//     external_id, in the body's project or the organization's default) with its entity types and
//     its filters in order.
//  3. Entities are extracted in process (entity_type/extract.ts: bounded regular expressions,
//     strict JSONPath), and the fingerprint computed from them (`fingerprintOf`).
//  4. One transaction: the instance, its new entities and its entity links in one statement (which
//     first takes a lock per fingerprint when the definition has a deduplicate filter, so that
//     concurrent duplicates see each other and open one case); every filter evaluated in one more;
//     then the case, if the instance opens one, and the instance's outcome.
//  5. Idempotency: a key (the Idempotency-Key header, else raw.id when it is a UUID) is stored with
//     the instance, unique per organization; a retry finds the stored instance and answers with it.
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { pgError } from '../../db/errors.ts';
import type { Ctx } from '../../server/context.ts';
import { errors, invalid, validationError } from '../../server/errors.ts';
import { openCase } from '../case/flows.ts';
import { caseVisible } from '../case/visibility.ts';
import { entity } from '../entity/table.ts';
import { ExtractionTimeout, extractAll } from '../entity_type/extract.ts';
import { project } from '../project/table.ts';
import { compileExpression, type Matcher } from './filters.ts';
import type { FilterAction, FilterMode } from './schema.ts';
import { signal, signalEntityType, signalFilter, signalFilterLink, signalInstance, signalInstanceEntity } from './table.ts';
import { entityType } from '../entity_type/table.ts';

/** Deeper `raw` documents are refused (422): PostgreSQL and the extraction walk would choke on them. */
export const MAX_RAW_DEPTH = 64;
const IDEMPOTENCY_KEY_MAX = 255;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IngestBody {
  project?: { id?: number | null; name?: unknown } | null;
  raw: Record<string, unknown>;
  created_at?: string;
}

interface FilterDef {
  id: number;
  name: string;
  expression: unknown;
  mode: FilterMode;
  action: FilterAction;
  window: number;
  expiration: string | null;
  updated_at: string;
}

interface Definition {
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

export interface MonitorHit {
  signal_filter_id: number;
  name: string;
  action: FilterAction;
  case_id: number | null;
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];

// ---- 1. the body ---------------------------------------------------------------------------------

/** The deepest nesting of arrays and objects in `value`, counting stops past `limit`. */
function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return max;
}

function checkRaw(ctx: Ctx, raw: Record<string, unknown>): string {
  const text = JSON.stringify(raw);
  const size = Buffer.byteLength(text);
  const limit = ctx.settings.signalRawLimit;
  if (size > limit) throw errors.tooLarge(`The signal instance's raw document is ${size} bytes; the limit is ${limit} bytes.`);
  if (depthOf(raw, MAX_RAW_DEPTH) > MAX_RAW_DEPTH) {
    throw validationError([{ loc: ['body', 'raw'], msg: `raw is nested deeper than ${MAX_RAW_DEPTH} levels`, type: 'value_error.raw.depth', ctx: { limit_value: MAX_RAW_DEPTH } }]);
  }
  return text;
}

/** The client's key for this instance: the Idempotency-Key header, else raw.id when it is a UUID. */
export function idempotencyKeyOf(header: unknown, raw: Record<string, unknown>): string | undefined {
  if (typeof header === 'string' && header.trim() !== '') {
    const key = header.trim();
    if (key.length > IDEMPOTENCY_KEY_MAX) {
      throw validationError([{ loc: ['header', 'idempotency-key'], msg: `ensure this value has at most ${IDEMPOTENCY_KEY_MAX} characters`, type: 'value_error.any_str.max_length', ctx: { limit_value: IDEMPOTENCY_KEY_MAX } }]);
    }
    return key;
  }
  return typeof raw.id === 'string' && UUID.test(raw.id) ? raw.id.toLowerCase() : undefined;
}

// ---- 2. the definition -----------------------------------------------------------------------------

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

function projectCondition(ctx: Ctx, body: IngestBody): SQL {
  const p = body.project;
  if (p && typeof p.id === 'number') return sql`${project.id} = ${p.id}`;
  if (p && typeof p.name === 'string') return sql`${project.name} = ${p.name}`;
  return sql`${project.id} = (SELECT p2.id FROM ${project} p2 WHERE p2.organization_id = ${ctx.organization.id} ORDER BY p2."default" DESC, p2.id LIMIT 1)`;
}

/**
 * The instance already stored under `key` (a retry), else the definition; one query for both. A
 * retry is answered from the stored instance, whatever became of the definition since.
 */
async function findDefinition(ctx: Ctx, body: IngestBody, key: string | null): Promise<{ known: string } | { def: Definition }> {
  const variant = text(body.raw.variant) ?? null;
  const ids = [text(body.raw.externalId), text(body.raw.external_id), text(body.raw.id)].filter((v): v is string => v !== undefined);
  const inProject = projectCondition(ctx, body);
  const [row] = rowsOf<Definition & { known: string | null }>(await ctx.db.execute(sql`
    SELECT k.known, d.* FROM (SELECT ${key === null ? sql`NULL::uuid` : sql`(SELECT id FROM ${signalInstance} WHERE organization_id = ${ctx.organization.id} AND idempotency_key = ${key})`} AS known) k
    LEFT JOIN LATERAL (
    SELECT s.id, s.project_id, s.name, s.description, s.enabled, s.create_case, s.case_type_id, s.case_priority_id,
      COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'regular_expression', t.regular_expression, 'jpath', t.jpath) ORDER BY t.id)
                FROM ${signalEntityType} l JOIN ${entityType} t ON t.id = l.entity_type_id WHERE l.signal_id = s.id), '[]'::json) AS entity_types,
      COALESCE((SELECT json_agg(json_build_object('id', f.id, 'name', f.name, 'expression', f.expression, 'mode', f.mode, 'action', f.action,
                                                  'window', f."window", 'expiration', f.expiration, 'updated_at', f.updated_at) ORDER BY l.position, f.id)
                FROM ${signalFilterLink} l JOIN ${signalFilter} f ON f.id = l.signal_filter_id WHERE l.signal_id = s.id), '[]'::json) AS filters
    FROM ${signal} s JOIN ${project} ON ${project.id} = s.project_id
    WHERE s.organization_id = ${ctx.organization.id} AND ${inProject}
      AND (s.variant = ${variant} OR s.external_id = ANY(${sql.param(ids)}::text[]))
    ORDER BY (s.variant IS NOT DISTINCT FROM ${variant}) DESC, s.id
    LIMIT 1) d ON TRUE`));
  if (row.known) return { known: row.known };
  if (row.id !== null) {
    const { known: _known, ...def } = row;
    return { def };
  }
  // Nothing matched: say whether the project or the definition is missing.
  const [found] = rowsOf(await ctx.db.execute(sql`SELECT 1 AS one FROM ${project} WHERE ${project.organization_id} = ${ctx.organization.id} AND ${inProject}`));
  if (!found) throw invalid(['project'], 'Project not found.', 'value_error.not_found');
  throw errors.notFoundWith(`No signal definition found. Id: ${text(body.raw.externalId) ?? text(body.raw.id) ?? 'None'} Variant: ${variant ?? 'None'}`);
}

// ---- 3. entities and the fingerprint -------------------------------------------------------------

export interface Found {
  typeId: number;
  value: string;
}

/**
 * The fingerprint of an instance: SHA-256 (hex) of the JSON array `[signal id, [[entity type id,
 * value], ...]]`, the pairs unique and sorted by type id, then value. Instances of one definition
 * with the same entities share it; the rest of `raw` (timestamps, ids) does not count.
 */
export function fingerprintOf(signalId: number, found: Found[]): string {
  const pairs = [...new Map(found.map((f) => [`${f.typeId}\u0000${f.value}`, [f.typeId, f.value] as const])).values()]
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([signalId, pairs])).digest('hex');
}

function extractEntities(def: Definition, raw: Record<string, unknown>): Found[] {
  let values: string[][];
  try {
    values = extractAll(def.entity_types, raw);
  } catch (err) {
    if (!(err instanceof ExtractionTimeout)) throw err;
    throw invalid(['body', 'raw'], `Entity extraction took longer than ${err.budgetMs} ms (entity types of signal ${def.name}: ${def.entity_types.map((t) => t.name).join(', ')}); a regular expression backtracks.`, 'value_error.entity_extraction.timeout');
  }
  return def.entity_types.flatMap((t, i) => values[i].map((value) => ({ typeId: t.id, value })));
}

// ---- 4. filters ------------------------------------------------------------------------------------

// Compiled expressions, keyed by filter id and its updated_at (read with the definition in the same
// request, so a changed filter is never run stale on any node).
const compiled = new Map<string, Matcher | null>();
const COMPILED_MAX = 1000;

function matcherOf(f: FilterDef): Matcher | null {
  const key = `${f.id}@${f.updated_at}`;
  let m = compiled.get(key);
  if (m === undefined) {
    m = compileExpression(f.expression) ?? null;
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(key, m);
  }
  return m;
}

/** Filters that can act on an instance created at `at`: active or monitoring, snoozes not expired. */
function liveFilters(def: Definition, at: Date): FilterDef[] {
  return def.filters.filter((f) => {
    if (f.mode !== 'active' && f.mode !== 'monitor') return false;
    if (f.action === 'snooze' && f.expiration !== null && Date.parse(f.expiration) <= at.getTime()) return false;
    return f.action === 'snooze' || f.action === 'deduplicate';
  });
}

interface Outcome {
  filterAction: FilterAction | null;
  caseId: number | null;
  monitor: MonitorHit[];
  /** The case comes from a deduplicate filter (else one may be opened). */
  decided: boolean;
}

/**
 * Every live filter evaluated in one query: whether the new instance matches its expression, and for
 * a deduplicate filter the earliest other instance of the same definition and fingerprint created
 * at most `window` seconds before this one (or after it: a request that took the lock first may
 * have read the clock later), not snoozed itself, that matches it too.
 */
async function applyFilters(tx: Executor, ctx: Ctx, def: Definition, filters: FilterDef[], instanceId: string, fingerprint: string, at: Date): Promise<Outcome & { written: boolean; caseVisible: boolean }> {
  const outcome = { filterAction: null as FilterAction | null, caseId: null as number | null, monitor: [] as MonitorHit[], decided: false, written: false, caseVisible: false };
  if (filters.length === 0) return outcome;
  const columns = filters.map((f, i) => {
    const m = matcherOf(f);
    const matchesNew = m ? m(sql`${instanceId}::uuid`) : sql`TRUE`;
    if (f.action === 'snooze') return sql`${matchesNew} AS m${sql.raw(String(i))}, NULL::json AS c${sql.raw(String(i))}`;
    const from = at.getTime() - f.window * 1000;
    // A window reaching past what a date can hold looks back without bound.
    const since = Math.abs(from) < 8.64e15 ? new Date(from) : new Date(-8.64e15);
    const candidate = sql`(SELECT json_build_array(c.id, c.case_id) FROM ${signalInstance} c
      WHERE c.signal_id = ${def.id} AND c.fingerprint = ${fingerprint} AND c.created_at >= ${since}
        AND c.id <> ${instanceId}::uuid AND c.filter_action IS DISTINCT FROM 'snooze'${m ? sql` AND ${m(sql`c.id`)}` : sql``}
      ORDER BY c.created_at, c.id LIMIT 1)`;
    return sql`${matchesNew} AS m${sql.raw(String(i))}, ${candidate} AS c${sql.raw(String(i))}`;
  });
  // What the active filters decide (the first that matches, in order) is written in the same
  // statement: the case and action of a duplicate need no statement of their own.
  const hit = (f: FilterDef, i: number) => (f.action === 'snooze' ? sql`f.m${sql.raw(String(i))}` : sql`f.m${sql.raw(String(i))} AND f.c${sql.raw(String(i))} IS NOT NULL`);
  const active = filters.map((f, i) => [f, i] as const).filter(([f]) => f.mode === 'active');
  const select = sql`SELECT ${sql.join(columns, sql`, `)}`;
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(active.length === 0 ? select : sql`
    WITH f AS (${select})
    UPDATE ${signalInstance} SET
      case_id = CASE ${sql.join(active.map(([f, i]) => sql`WHEN ${hit(f, i)} THEN ${f.action === 'snooze' ? sql`NULL::int` : sql`(f.c${sql.raw(String(i))}->>1)::int`}`), sql` `)} END,
      filter_action = CASE ${sql.join(active.map(([f, i]) => sql`WHEN ${hit(f, i)} THEN ${f.action}::text`), sql` `)} END
    FROM f WHERE ${signalInstance.id} = ${instanceId}::uuid
    RETURNING f.*, ${caseVisible(ctx, signalInstance.case_id)} AS case_visible`));
  outcome.written = active.length > 0;
  outcome.caseVisible = row.case_visible === true;
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i];
    if (row[`m${i}`] !== true) continue;
    const candidate = row[`c${i}`] as [string, number | null] | null;
    if (f.action === 'deduplicate' && !candidate) continue;
    const caseId = f.action === 'deduplicate' ? (candidate![1] ?? null) : null;
    if (f.mode === 'monitor') {
      outcome.monitor.push({ signal_filter_id: f.id, name: f.name, action: f.action, case_id: caseId });
      continue;
    }
    outcome.filterAction = f.action;
    outcome.caseId = caseId;
    outcome.decided = true;
    break;
  }
  return outcome;
}

// ---- the transaction -------------------------------------------------------------------------------

/** A lock key per fingerprint: the first 63 bits of it. */
const lockKey = (fingerprint: string) => (BigInt(`0x${fingerprint.slice(0, 16)}`) & 0x7fffffffffffffffn).toString();

interface Stored {
  id: string | null;
  linked: number;
}

/** Stores the instance, creates its missing entities and links them, in one statement. Null id: the key is taken. */
async function storeInstance(tx: Executor, ctx: Ctx, def: Definition, input: { rawText: string; fingerprint: string; key: string | null; at: Date; found: Found[]; lock: boolean }): Promise<Stored> {
  const org = ctx.organization.id;
  const lock = input.lock ? sql`(SELECT pg_advisory_xact_lock(${lockKey(input.fingerprint)}::bigint)) IS NOT NULL` : sql`TRUE`;
  const [row] = rowsOf<Stored>(await tx.execute(sql`
    WITH i AS (
      INSERT INTO ${signalInstance} (organization_id, project_id, signal_id, raw, fingerprint, idempotency_key, created_at)
      SELECT ${org}, ${def.project_id}, ${def.id}, ${input.rawText}::jsonb, ${input.fingerprint}, ${input.key}, ${input.at}
      WHERE ${lock}
      ON CONFLICT (organization_id, idempotency_key) DO NOTHING
      RETURNING id
    ),
    want AS (
      SELECT * FROM unnest(${sql.param(input.found.map((f) => f.typeId))}::int[], ${sql.param(input.found.map((f) => f.value))}::text[]) AS w(entity_type_id, value)
    ),
    found AS (
      SELECT e.id FROM ${entity} e JOIN want w ON e.entity_type_id = w.entity_type_id AND e.value = w.value
    ),
    made AS (
      INSERT INTO ${entity} (organization_id, project_id, entity_type_id, value)
      SELECT ${org}, t.project_id, w.entity_type_id, w.value FROM want w JOIN ${entityType} t ON t.id = w.entity_type_id
      WHERE EXISTS (SELECT 1 FROM i)
        AND NOT EXISTS (SELECT 1 FROM ${entity} e WHERE e.entity_type_id = w.entity_type_id AND e.value = w.value)
      ON CONFLICT (entity_type_id, value) DO NOTHING
      RETURNING id
    ),
    linked AS (
      INSERT INTO ${signalInstanceEntity} (signal_instance_id, entity_id)
      SELECT i.id, x.id FROM i, (SELECT id FROM found UNION SELECT id FROM made) x
      ON CONFLICT DO NOTHING
      RETURNING entity_id
    )
    SELECT (SELECT id FROM i) AS id, (SELECT count(*) FROM linked)::int AS linked`));
  return row;
}

/** Entities another request created while this one was storing: found now (a new snapshot) and linked. */
async function linkLateEntities(tx: Executor, instanceId: string, found: Found[]) {
  await tx.execute(sql`
    INSERT INTO ${signalInstanceEntity} (signal_instance_id, entity_id)
    SELECT ${instanceId}::uuid, e.id FROM ${entity} e
    JOIN unnest(${sql.param(found.map((f) => f.typeId))}::int[], ${sql.param(found.map((f) => f.value))}::text[]) AS w(entity_type_id, value)
      ON e.entity_type_id = w.entity_type_id AND e.value = w.value
    ON CONFLICT DO NOTHING`);
}

export interface Ingested {
  id: string;
  /** False when an earlier request with the same key stored it. */
  created: boolean;
  /** Of a created instance: its case, and whether the caller may see it (read in the transaction). */
  caseId?: number | null;
  caseVisible?: boolean;
}

export async function ingestInstance(ctx: Ctx, body: IngestBody, idempotencyHeader?: unknown): Promise<Ingested> {
  const raw = body.raw;
  const rawText = checkRaw(ctx, raw);
  const key = idempotencyKeyOf(idempotencyHeader, raw) ?? null;
  // A retry is answered from the stored instance without any other work.
  const lookup = await findDefinition(ctx, body, key);
  if ('known' in lookup) return { id: lookup.known, created: false };
  const def = lookup.def;
  if (!def.enabled) throw errors.badRequest(`Signal definition not enabled. SignalName: ${def.name}`);
  const found = extractEntities(def, raw);
  const uniqueFound = [...new Map(found.map((f) => [`${f.typeId}\u0000${f.value}`, f])).values()];
  const fingerprint = fingerprintOf(def.id, uniqueFound);
  const at = body.created_at ? new Date(body.created_at) : new Date();
  const filters = liveFilters(def, at);
  // Compiled before the transaction: an expression saved before it could be checked fails here, not half-way.
  for (const f of filters) matcherOf(f);
  const lock = filters.some((f) => f.action === 'deduplicate');

  try {
    return await ctx.db.transaction(async (tx) => {
      const stored = await storeInstance(tx, ctx, def, { rawText, fingerprint, key, at, found: uniqueFound, lock });
      if (!stored.id) {
        // Taken by a request that committed meanwhile: that one is the instance.
        const [known] = rowsOf<{ id: string }>(await tx.execute(sql`SELECT id FROM ${signalInstance} WHERE organization_id = ${ctx.organization.id} AND idempotency_key = ${key}`));
        return { id: known.id, created: false };
      }
      if (stored.linked < uniqueFound.length) await linkLateEntities(tx, stored.id, uniqueFound);
      const outcome = await applyFilters(tx, ctx, def, filters, stored.id, fingerprint, at);
      let caseId = outcome.caseId;
      let visible = outcome.caseVisible;
      let opened = false;
      if (!outcome.decided && def.create_case) {
        opened = true;
        caseId = await openCase(tx, ctx, {
          projectId: def.project_id,
          title: def.name,
          description: def.description ?? '',
          typeId: def.case_type_id,
          priorityId: def.case_priority_id,
        });
      }
      // Written already by the filters' statement unless a case was opened or a monitor hit.
      if (opened || outcome.monitor.length || (!outcome.written && (caseId !== null || outcome.filterAction !== null))) {
        const [row] = rowsOf<{ case_visible: boolean }>(await tx.execute(sql`UPDATE ${signalInstance} SET case_id = ${caseId}, filter_action = ${outcome.filterAction},
          filter_monitor = ${outcome.monitor.length ? JSON.stringify(outcome.monitor) : null}::jsonb WHERE id = ${stored.id}::uuid
          RETURNING ${caseVisible(ctx, signalInstance.case_id)} AS case_visible`));
        visible = row.case_visible === true;
      }
      return { id: stored.id, created: true, caseId, caseVisible: caseId !== null && visible };
    });
  } catch (err) {
    // Two first requests with one key: the loser of the race answers with the winner's instance.
    if (key && pgError(err)?.code === '23505' && /idempotency/.test(pgError(err)?.constraint ?? '')) {
      const [known] = rowsOf<{ id: string }>(await ctx.db.execute(sql`SELECT id FROM ${signalInstance} WHERE organization_id = ${ctx.organization.id} AND idempotency_key = ${key}`));
      if (known) return { id: known.id, created: false };
    }
    throw err;
  }
}
