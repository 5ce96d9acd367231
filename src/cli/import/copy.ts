// The one mechanism every area of the import uses: rows read from Dispatch, shaped as a Muster table
// (renamed columns, computed values, references followed through the map of where each source row
// went), then upserted in batches. A row that has been brought before is updated in place, and only
// when something in it changed; a new row gets the source id (ids kept) or the table's next one
// (remapped), and its place is recorded in `import_source` in the same transaction. A batch that a
// Muster rule refuses is retried row by row, each in a savepoint, so the report names each refused
// row with the database's reason and the rest of the organization still comes over.
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { rowsOf } from '../../db/statements.ts';
import type { OrganizationReport } from './report.ts';
import type { Source } from './source.ts';

type Row = Record<string, unknown>;

export interface Spec {
  /** Muster's table, and the kind its rows are recorded under in the map. */
  kind: string;
  /** The Dispatch table the rows come from (in the organization's schema unless it names one). */
  from: string;
  /** The rows, when not simply `SELECT * FROM {s}."<from>"`; `{s}` is the organization's schema. */
  select?: string;
  /** Muster column <- Dispatch column, where the names differ. */
  rename?: Record<string, string>;
  /** Muster column -> the kind its value names (followed through the map). */
  refs?: Record<string, string>;
  /** Reference columns written once the whole organization is in (records pointing at each other). */
  later?: string[];
  /** Muster columns computed from the Dispatch row. */
  values?: (row: Row) => Row;
  /** An association table: its key columns (the rows have no id of their own). */
  link?: string[];
  /** A key column kept as it is in Dispatch (uuid) instead of a mapped serial id. */
  naturalKey?: string;
  /** Dispatch columns the select or values consume (not reported as having no home). */
  used?: string[];
  /** Muster column -> the condition (on the stored row `t`) under which a later run may replace it. */
  guard?: Record<string, string>;
  /** Why a Dispatch column with data has no home, where there is more to say than "no column". */
  lost?: Record<string, string>;
  /**
   * What a later run does with a row an earlier run brought and Dispatch no longer has: `delete` it
   * (a record's participants, roles, timeline, tasks, tags and other links), or `report` it (the
   * records themselves, which people may have gone on working on in Muster). Rows made in Muster
   * are never touched: only rows recorded as brought are.
   */
  gone?: 'delete' | 'report';
}

/** Where the rows of a link or natural-key spec that an import brought are recorded (they have no id to map). */
export const BROUGHT = 'brought:';

/** Dispatch columns that never carry data a user would miss. */
const NEVER_CARRIED = new Set(['search_vector', 'id', 'updated_at']);
const BATCH = 2000;

function statement(text: string, params: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((p, i) => (i % 2 === 0 ? sql.raw(p) : sql`${sql.param(params[Number(p) - 1])}`)));
}

export async function exec<T = Row>(db: Executor, text: string, params: unknown[] = []): Promise<T[]> {
  return rowsOf<T>(await db.execute(statement(text, params)));
}

const q = (name: string) => `"${name}"`;

interface Column {
  name: string;
  nullable: boolean;
  /** The column's default, for a NOT NULL column that Dispatch leaves null. */
  fallback: string | null;
}

/** Kinds recorded once for the whole Dispatch installation rather than per organization. */
const CORE_KINDS = new Set(['app_user', 'organization', 'plugin', 'plugin_event']);
export const CORE_SCOPE = 'dispatch_core';

export class Importer {
  private maps = new Map<string, Map<string, number>>();
  private columnsOf = new Map<string, Column[]>();
  private deferred: { spec: Spec; rows: Row[] }[] = [];
  /** Rows brought by an earlier run that Dispatch no longer has, per spec: removed once everything is in. */
  private vanished: { spec: Spec; keys: string[] }[] = [];
  organizationId = 0;

  constructor(
    readonly db: Executor,
    readonly source: Source,
    /** The organization's schema in Dispatch. */
    readonly schema: string,
    readonly report: OrganizationReport,
    readonly keepIds: boolean,
  ) {}

  async load(): Promise<void> {
    for (const scope of [CORE_SCOPE, this.schema]) {
      const rows = await exec<{ kind: string; source_id: string; target_id: number }>(
        this.db,
        'SELECT kind, source_id, target_id FROM import_source WHERE scope = $1',
        [scope],
      );
      for (const r of rows) this.mapOf(r.kind).set(r.source_id, r.target_id);
    }
  }

  private scopeOf = (kind: string) => (CORE_KINDS.has(kind) ? CORE_SCOPE : this.schema);

  mapOf(kind: string): Map<string, number> {
    const key = `${this.scopeOf(kind)}:${kind}`;
    let m = this.maps.get(key);
    if (!m) this.maps.set(key, (m = new Map()));
    return m;
  }

  /** Where the Dispatch row `id` of `kind` went, if it came over. */
  target(kind: string, id: unknown): number | undefined {
    return id == null ? undefined : this.mapOf(kind).get(String(id));
  }

  /** Records that a Dispatch row is the Muster row `targetId` (an existing row taken over). */
  async adopt(kind: string, sourceId: unknown, targetId: number): Promise<void> {
    if (this.target(kind, sourceId) === targetId) return;
    this.mapOf(kind).set(String(sourceId), targetId);
    await exec(
      this.db,
      'INSERT INTO import_source (scope, kind, source_id, target_id) VALUES ($1, $2, $3, $4) ON CONFLICT (scope, kind, source_id) DO UPDATE SET target_id = EXCLUDED.target_id',
      [this.scopeOf(kind), kind, String(sourceId), targetId],
    );
  }

  async columns(table: string): Promise<Column[]> {
    let cols = this.columnsOf.get(table);
    if (!cols) {
      const rows = await exec<{ name: string; nullable: string; fallback: string | null }>(
        this.db,
        "SELECT column_name AS name, is_nullable AS nullable, column_default AS fallback FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position",
        [table],
      );
      cols = rows.map((r) => ({ name: r.name, nullable: r.nullable === 'YES', fallback: r.nullable === 'YES' ? null : r.fallback }));
      this.columnsOf.set(table, cols);
    }
    return cols;
  }

  /** The Dispatch rows of a spec, or none when its table is not in this revision. */
  async read(spec: Spec): Promise<Row[]> {
    const [schema, table] = spec.from.includes('.') ? spec.from.split('.') : [this.schema, spec.from];
    if (!(await this.source.columns(schema, table))) return [];
    return this.source.rows(spec.select ? spec.select.replaceAll('{s}', `"${this.schema}"`) : `SELECT * FROM "${schema}"."${table}"`);
  }

  /** Brings a spec's rows over; returns the Dispatch rows read. */
  async copy(spec: Spec, given?: Row[]): Promise<Row[]> {
    const rows = given ?? (await this.read(spec));
    if (rows.length === 0) {
      // Dispatch may have deleted every row an earlier run brought.
      if (spec.gone) await this.noteVanished(spec, rows, [], spec.naturalKey ?? 'id');
      return rows;
    }
    const cols = await this.columns(spec.kind);
    if (cols.length === 0) throw new Error(`Muster has no table ${spec.kind}`);
    const names = new Set(cols.map((c) => c.name));
    const refs = spec.refs ?? {};
    const later = new Set(spec.later ?? []);
    const key = spec.naturalKey ?? 'id';
    const carried = new Set<string>([...NEVER_CARRIED, ...(spec.used ?? []), ...Object.values(spec.rename ?? {})]);
    for (const c of names) if (!(spec.rename && c in spec.rename)) carried.add(c);
    this.reportUncarried(spec, rows, carried);

    const shaped: { src: Row; out: Row }[] = [];
    const newIds: Row[] = [];
    for (const src of rows) {
      const out: Row = {};
      for (const c of cols) {
        const from = spec.rename?.[c.name] ?? c.name;
        if (from in src) out[c.name] = src[from];
      }
      Object.assign(out, spec.values?.(src));
      if (names.has('organization_id')) out.organization_id = this.organizationId;
      let refusal: string | undefined;
      for (const [col, kind] of Object.entries(refs)) {
        const value = out[col];
        if (value == null || later.has(col)) continue;
        const to = this.target(kind, value);
        if (to !== undefined) out[col] = to;
        else if (cols.find((c) => c.name === col)?.nullable) {
          out[col] = null;
          this.report.noHome(`${spec.from}.${col}`, 1, `names a ${kind} (${value}) that did not come over: the link is left empty`);
        } else refusal = `its ${col} names ${kind} ${value}, which did not come over`;
      }
      const label = spec.link ? spec.link.map((c) => src[c] ?? out[c]).join('/') : String(src.id ?? src[key]);
      if (refusal) {
        this.report.refused.push({ table: spec.from, id: label, reason: refusal });
        continue;
      }
      if (!spec.link && !spec.naturalKey) {
        const existing = this.target(spec.kind, src.id);
        if (existing !== undefined) out.id = existing;
        else {
          out.id = this.keepIds ? Number(src.id) : undefined;
          newIds.push(out);
        }
      }
      for (const c of later) out[c] = null;
      shaped.push({ src, out });
    }
    if (!this.keepIds && newIds.length) {
      const ids = await exec<{ id: number }>(this.db, `SELECT nextval(pg_get_serial_sequence($1, 'id'))::int AS id FROM generate_series(1, $2::int)`, [
        q(spec.kind),
        newIds.length,
      ]);
      newIds.forEach((r, i) => {
        r.id = ids[i].id;
      });
    }

    const written = await this.upsert(spec, cols, shaped);
    if (spec.gone) await this.noteVanished(spec, rows, shaped, key);
    if (!spec.link && !spec.naturalKey)
      await this.remember(
        spec.kind,
        written.map((w) => [String(w.src.id), w.out.id as number]).filter(([s]) => this.target(spec.kind, s) === undefined) as [string, number][],
      );
    if (later.size) this.deferred.push({ spec, rows: written.map((w) => w.src) });
    // Ids kept from Dispatch: the sequence continues after the highest, for rows Muster makes itself.
    if (this.keepIds && newIds.length)
      await exec(this.db, `SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST((SELECT max(id) FROM ${q(spec.kind)}), 1))`, [q(spec.kind)]);
    return rows;
  }

  /** The key a brought link or natural-key row is recorded under: its Muster key columns, as JSON. */
  private broughtKey(spec: Spec, out: Row, key: string): string {
    return JSON.stringify(Object.fromEntries((spec.link ?? [key]).map((c) => [c, out[c]])));
  }

  /**
   * Records the rows of a spec this run brings, and which rows an earlier run brought that Dispatch
   * no longer holds. Rows with ids are known by the map; links and natural keys by BROUGHT records.
   */
  private async noteVanished(spec: Spec, rows: Row[], shaped: { src: Row; out: Row }[], key: string) {
    if (!spec.link && !spec.naturalKey) {
      const present = new Set(rows.map((r) => String(r.id)));
      const keys = [...this.mapOf(spec.kind).keys()].filter((k) => !present.has(k));
      if (keys.length) this.vanished.push({ spec, keys });
      return;
    }
    const kind = `${BROUGHT}${spec.kind}`;
    const recorded = this.mapOf(kind);
    const present = new Set(shaped.map((s) => this.broughtKey(spec, s.out, key)));
    const fresh = [...present].filter((k) => !recorded.has(k));
    await this.remember(
      kind,
      fresh.map((k) => [k, 0]),
    );
    const keys = [...recorded.keys()].filter((k) => !present.has(k));
    if (keys.length) this.vanished.push({ spec, keys });
  }

  /**
   * Removes, or reports, what earlier runs brought and Dispatch no longer holds: the last-written
   * kinds first (a participant's roles before the participant). A removal a Muster rule refuses
   * (something made in Muster still points at the row) is reported instead.
   */
  async removeVanished(): Promise<void> {
    for (const { spec, keys } of this.vanished.reverse()) {
      const byId = !spec.link && !spec.naturalKey;
      const kind = byId ? spec.kind : `${BROUGHT}${spec.kind}`;
      if (spec.gone === 'report') {
        this.report.noHome(
          `${spec.from} deleted in Dispatch`,
          keys.length,
          `brought by an earlier run and since deleted in Dispatch; kept in Muster (delete them there if they should go): ${byId ? `Dispatch ids ${keys.slice(0, 20).join(', ')}${keys.length > 20 ? ', ...' : ''}` : ''}`,
        );
        continue;
      }
      const cols = spec.link ?? [spec.naturalKey ?? 'id'];
      const targets = byId ? keys.map((k) => ({ id: this.mapOf(kind).get(k) })) : keys.map((k) => JSON.parse(k) as Row);
      try {
        await this.db.transaction(async (sp) => {
          for (let i = 0; i < targets.length; i += BATCH)
            await exec(
              sp,
              `DELETE FROM ${q(spec.kind)} AS t USING json_populate_recordset(NULL::${q(spec.kind)}, $1::json) AS x WHERE ${cols.map((c) => `t.${q(c)} = x.${q(c)}`).join(' AND ')}`,
              [JSON.stringify(targets.slice(i, i + BATCH))],
            );
          await exec(sp, 'DELETE FROM import_source WHERE scope = $1 AND kind = $2 AND source_id = ANY($3::text[])', [this.scopeOf(kind), kind, keys]);
        });
        for (const k of keys) this.mapOf(kind).delete(k);
        this.report.count(this.report.removed, spec.kind, keys.length);
      } catch (err) {
        this.report.noHome(
          `${spec.from} deleted in Dispatch`,
          keys.length,
          `since deleted in Dispatch, but kept in Muster: ${(err as { cause?: Error }).cause?.message ?? (err as Error).message}`,
        );
      }
    }
    this.vanished = [];
  }

  /** Dispatch columns holding data that the spec does not carry, counted in the report. */
  private reportUncarried(spec: Spec, rows: Row[], carried: Set<string>) {
    const counts = new Map<string, number>();
    for (const r of rows)
      for (const [k, v] of Object.entries(r)) if (!carried.has(k) && v != null && v !== false && v !== '') counts.set(k, (counts.get(k) ?? 0) + 1);
    for (const [k, n] of counts) this.report.noHome(`${spec.from}.${k}`, n, spec.lost?.[k] ?? 'no column for it in Muster');
  }

  private async remember(kind: string, pairs: [string, number][]) {
    const map = this.mapOf(kind);
    const scope = this.scopeOf(kind);
    for (let i = 0; i < pairs.length; i += BATCH) {
      const chunk = pairs.slice(i, i + BATCH);
      await exec(
        this.db,
        'INSERT INTO import_source (scope, kind, source_id, target_id) SELECT scope, kind, source_id, target_id FROM json_populate_recordset(NULL::import_source, $1::json)',
        [JSON.stringify(chunk.map(([source_id, target_id]) => ({ scope, kind, source_id, target_id })))],
      );
    }
    for (const [s, t] of pairs) map.set(s, t);
  }

  private upsertSql(spec: Spec, columns: Column[]): string {
    const key = spec.link ?? [spec.naturalKey ?? 'id'];
    const list = columns.map((c) => q(c.name)).join(', ');
    const values = columns.map((c) => (c.fallback && !c.fallback.startsWith('nextval(') ? `COALESCE(${q(c.name)}, ${c.fallback})` : q(c.name))).join(', ');
    const update = columns.filter((c) => !key.includes(c.name) && !(spec.later ?? []).includes(c.name));
    // A timestamp Dispatch left empty is stamped now() when the row is made, and kept on later runs.
    const incoming = (c: Column) => {
      const n = q(c.name);
      if (spec.guard?.[c.name]) return `CASE WHEN ${spec.guard[c.name]} THEN EXCLUDED.${n} ELSE t.${n} END`;
      return c.fallback?.includes('now()') ? `CASE WHEN EXCLUDED.${n} = now() THEN t.${n} ELSE EXCLUDED.${n} END` : `EXCLUDED.${n}`;
    };
    // A key kept from Dispatch (a uuid) is never taken over from another organization.
    const own = spec.naturalKey && update.some((c) => c.name === 'organization_id') ? ' AND t.organization_id = EXCLUDED.organization_id' : '';
    const onConflict = update.length
      ? `DO UPDATE SET ${update.map((c) => `${q(c.name)} = ${incoming(c)}`).join(', ')} WHERE (${update.map((c) => `t.${q(c.name)}`).join(', ')}) IS DISTINCT FROM (${update.map(incoming).join(', ')})${own}`
      : 'DO NOTHING';
    return `INSERT INTO ${q(spec.kind)} AS t (${list}) SELECT ${values} FROM json_populate_recordset(NULL::${q(spec.kind)}, $1::json) ON CONFLICT (${key.map(q).join(', ')}) ${onConflict} RETURNING 1 AS n`;
  }

  /** Writes the rows in batches; returns those that are in Muster now (written or already there). */
  private async upsert(spec: Spec, cols: Column[], shaped: { src: Row; out: Row }[]) {
    const present = cols.filter((c) => shaped.some((s) => c.name in s.out));
    const text = this.upsertSql(spec, present);
    const kept: typeof shaped = [];
    for (let i = 0; i < shaped.length; i += BATCH) {
      const chunk = shaped.slice(i, i + BATCH);
      try {
        const n = await this.db.transaction(async (sp) => (await exec(sp, text, [JSON.stringify(chunk.map((s) => s.out))])).length);
        this.report.count(this.report.written, spec.kind, n);
        this.report.count(this.report.unchanged, spec.kind, chunk.length - n);
        kept.push(...chunk);
      } catch {
        for (const one of chunk) {
          try {
            const n = await this.db.transaction(async (sp) => (await exec(sp, text, [JSON.stringify([one.out])])).length);
            this.report.count(n ? this.report.written : this.report.unchanged, spec.kind, 1);
            kept.push(one);
          } catch (err) {
            const label = spec.link ? spec.link.map((c) => one.out[c]).join('/') : String(one.src.id ?? one.src[spec.naturalKey ?? 'id']);
            this.report.refused.push({ table: spec.from, id: label, reason: (err as { cause?: Error }).cause?.message ?? (err as Error).message });
          }
        }
      }
    }
    return kept;
  }

  /** Writes the references that had to wait for the whole organization. */
  async finish(): Promise<void> {
    for (const { spec, rows } of this.deferred) {
      const cols = spec.later ?? [];
      const updates: Row[] = [];
      for (const src of rows) {
        const id = this.target(spec.kind, src.id);
        const u: Row = { id };
        for (const c of cols) {
          const value = src[spec.rename?.[c] ?? c];
          const to = this.target(spec.refs?.[c] ?? '', value);
          if (value != null && to === undefined)
            this.report.noHome(`${spec.from}.${c}`, 1, `names a ${spec.refs?.[c]} (${value}) that did not come over: the link is left empty`);
          u[c] = to ?? null;
        }
        updates.push(u);
      }
      const set = cols.map((c) => `${q(c)} = x.${q(c)}`).join(', ');
      const differs = `(${cols.map((c) => `t.${q(c)}`).join(', ')}) IS DISTINCT FROM (${cols.map((c) => `x.${q(c)}`).join(', ')})`;
      for (let i = 0; i < updates.length; i += BATCH)
        await exec(
          this.db,
          `UPDATE ${q(spec.kind)} AS t SET ${set} FROM json_populate_recordset(NULL::${q(spec.kind)}, $1::json) AS x WHERE t.id = x.id AND ${differs}`,
          [JSON.stringify(updates.slice(i, i + BATCH))],
        );
    }
    this.deferred = [];
  }
}
