// Reading the audit log (Owners only, their own organization's entries only), exporting it as JSON
// lines or CSV, and retention: entries past MUSTER_AUDIT_RETENTION_DAYS are deleted in bounded
// batches by the audit-log-retention task, the only deletion the database lets through.
import { Readable } from 'node:stream';
import { and, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { ListDefinition } from '../../list/definition.ts';
import { listBatches, runList } from '../../list/engine.ts';
import { toTsQuery } from '../../list/search.ts';
import { requirePermission, type Ctx } from '../../server/context.ts';
import { organization } from '../organization/table.ts';
import { audit } from './record.ts';
import type { AuditEntryReadT, AuditExportQueryT, AuditListQueryT, ExportFormat } from './schema.ts';
import { auditLog } from './table.ts';

const columns = {
  id: auditLog.id,
  occurred_at: auditLog.occurred_at,
  action: auditLog.action,
  actor_user_id: auditLog.actor_user_id,
  actor_email: auditLog.actor_email,
  actor_token_id: auditLog.actor_token_id,
  address: auditLog.address,
  target_type: auditLog.target_type,
  target_id: auditLog.target_id,
  target_label: auditLog.target_label,
  before: auditLog.before,
  after: auditLog.after,
  details: auditLog.details,
};
type EntryRow = Omit<AuditEntryReadT, 'occurred_at'> & { occurred_at: Date };

export const auditList: ListDefinition<typeof columns> = {
  model: 'AuditLog',
  tableName: 'audit_log',
  table: auditLog,
  columns,
  idColumn: auditLog.id,
  fields: {
    id: 'int',
    occurred_at: 'timestamp',
    action: 'text',
    actor_user_id: 'int',
    actor_email: 'text',
    actor_token_id: 'int',
    address: 'text',
    target_type: 'text',
    target_id: 'text',
    target_label: 'text',
  },
  // The log grows without bound: the page follows the (organization, occurred_at) index.
  separateCount: true,
};

const inOrganization = (ctx: Ctx) => eq(auditLog.organization_id, ctx.organization.id);

/** `q`: words of the action, the actor's address, the target and the client address. */
function search(q: string | undefined): SQL | undefined {
  const tsquery = toTsQuery(q);
  if (tsquery === null) return undefined;
  const text = sql`${auditLog.action} || ' ' || coalesce(${auditLog.actor_email}, '') || ' ' || coalesce(${auditLog.target_type}, '') || ' ' || coalesce(${auditLog.target_label}, '') || ' ' || coalesce(${auditLog.address}, '')`;
  return sql`to_tsvector('simple', ${text}) @@ to_tsquery('simple', ${tsquery})`;
}

type Filters = Pick<AuditListQueryT, 'action' | 'actor' | 'target_type' | 'target_id' | 'since' | 'until' | 'q'>;

/** The simple filters: an action (or `subject.*`), the actor's e-mail, the target, a time range. */
function filters(f: Filters): SQL | undefined {
  const action = f.action?.trim();
  return and(
    action === undefined || action === ''
      ? undefined
      : action.endsWith('.*')
        ? sql`starts_with(${auditLog.action}, ${action.slice(0, -1)})`
        : eq(auditLog.action, action),
    f.actor === undefined ? undefined : sql`lower(${auditLog.actor_email}) = lower(${f.actor.trim()})`,
    f.target_type === undefined ? undefined : eq(auditLog.target_type, f.target_type),
    f.target_id === undefined ? undefined : eq(auditLog.target_id, f.target_id),
    f.since === undefined ? undefined : gte(auditLog.occurred_at, new Date(f.since)),
    f.until === undefined ? undefined : lt(auditLog.occurred_at, new Date(f.until)),
    search(f.q),
  );
}

/** A page of the organization's entries, newest first unless the query sorts otherwise. Owners only. */
export async function listAuditLog(ctx: Ctx, query: AuditListQueryT) {
  requirePermission(ctx.role, 'OrganizationOwner');
  const sorted = query['sortBy[]'].length ? query : { ...query, 'sortBy[]': ['occurred_at', 'id'], 'descending[]': [true, true] };
  // `q` is searched here (the log keeps no search vector), so the engine is not given it.
  // Rows hold `occurred_at` as a Date; the response shape writes it as date-time text.
  return runList<AuditEntryReadT>(ctx.db, ctx, auditList, { ...sorted, q: undefined }, inOrganization(ctx), filters(query));
}

// ---- export ---------------------------------------------------------------------------------------

const CSV_COLUMNS = [
  'id',
  'occurred_at',
  'action',
  'actor_email',
  'actor_user_id',
  'actor_token_id',
  'address',
  'target_type',
  'target_id',
  'target_label',
  'before',
  'after',
  'details',
] as const;

/** Characters that make a spreadsheet read a cell as a formula (or a formula's start, after a tab or CR). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * One CSV field (RFC 4180): empty for null, JSON text for objects, a leading apostrophe on text a
 * spreadsheet would run as a formula, and quotes (doubled inside) around what holds a comma, a
 * quote or a line break.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (fields: unknown[]) => `${fields.map(csvField).join(',')}\r\n`;

const jsonLine = (row: EntryRow) => `${JSON.stringify({ ...row, occurred_at: row.occurred_at.toISOString() })}\n`;

export interface AuditExport {
  format: ExportFormat;
  contentType: string;
  filename: string;
  body: Readable;
}

/**
 * The organization's entries that the query selects, newest first, as a stream of JSON lines or CSV.
 * The export is itself an entry (`audit_log.exported`, with the format and filters), written before
 * the first line; what is exported is the log as it stood then (entries up to the one before it).
 */
export async function exportAuditLog(ctx: Ctx, query: AuditExportQueryT): Promise<AuditExport> {
  requirePermission(ctx.role, 'OrganizationOwner');
  const format = query.format;
  const scope = inOrganization(ctx);
  // The query is checked (a bad filter is a 422) before the export is recorded and the response starts.
  let bound = 0;
  const selected = filters(query);
  const batches = listBatches<EntryRow>(ctx.db, ctx, auditList, query, scope, () => and(lte(auditLog.id, bound), selected));
  bound = await ctx.db.transaction(async (tx) => {
    const [{ last }] = await tx
      .select({ last: sql<number | null>`max(${auditLog.id})` })
      .from(auditLog)
      .where(scope);
    const { format: _f, ...asked } = query;
    const given = Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined && v !== ''));
    await audit(tx, ctx, { action: 'audit_log.exported', target: { type: 'audit_log' }, details: { format, filters: given } });
    return last === null ? 0 : Number(last);
  });
  async function* lines() {
    if (format === 'csv') yield csvLine([...CSV_COLUMNS]);
    for await (const rows of batches) {
      let out = '';
      for (const row of rows) out += format === 'csv' ? csvLine(CSV_COLUMNS.map((c) => row[c])) : jsonLine(row);
      yield out;
    }
  }
  const day = new Date().toISOString().slice(0, 10);
  return {
    format,
    contentType: format === 'csv' ? 'text/csv; charset=utf-8; header=present' : 'application/x-ndjson; charset=utf-8',
    filename: `audit-log-${ctx.organization.slug}-${day}.${format}`,
    body: Readable.from(lines()),
  };
}

// ---- retention ------------------------------------------------------------------------------------

export interface RetentionOptions {
  /** Days an entry is kept; 0 keeps every entry. */
  days: number;
  now?: Date;
  /** Entries deleted per transaction. */
  batchSize?: number;
  signal?: AbortSignal;
}

/**
 * Deletes every organization's entries older than the retention, in transactions of at most
 * `batchSize` entries, each declaring the time before which entries may go (the database refuses any
 * other deletion). Each organization whose entries were deleted gets an `audit_log.purged` entry
 * saying how many and up to when. Answers how many were deleted in all.
 */
export async function purgeExpiredEntries(db: Executor, opts: RetentionOptions): Promise<number> {
  if (opts.days <= 0) return 0;
  const size = opts.batchSize ?? 1000;
  const cutoff = new Date((opts.now ?? new Date()).getTime() - opts.days * 86_400_000);
  const orgs = await db.select({ id: organization.id }).from(organization).orderBy(organization.id);
  let total = 0;
  for (const org of orgs) {
    let deleted = 0;
    for (;;) {
      if (opts.signal?.aborted) break;
      const n = await db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('muster.audit_log_purge_before', ${cutoff.toISOString()}, true)`);
        const expired = tx
          .select({ id: auditLog.id })
          .from(auditLog)
          .where(and(eq(auditLog.organization_id, org.id), lt(auditLog.occurred_at, cutoff)))
          .orderBy(auditLog.occurred_at)
          .limit(size);
        const gone = await tx.delete(auditLog).where(inArray(auditLog.id, expired)).returning({ id: auditLog.id });
        return gone.length;
      });
      deleted += n;
      if (n < size) break;
    }
    if (deleted > 0) {
      await audit(
        db,
        { organizationId: org.id },
        { action: 'audit_log.purged', target: { type: 'audit_log' }, details: { retention_days: opts.days, before: cutoff.toISOString(), deleted } },
      );
    }
    total += deleted;
    if (opts.signal?.aborted) break;
  }
  return total;
}
