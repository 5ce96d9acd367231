// Writing the audit log: every security-relevant change calls `audit` inside its own transaction, so
// an entry exists exactly when its change does. Entries are never changed (a trigger refuses it).
// Never put a secret in an entry: a plugin's secret fields, a password, a token or a link.
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { auditLog } from './table.ts';

/** Who acted, when no caller context exists (a sign-in, a failed one, a registration). */
export interface AuditActor {
  organizationId: number;
  userId?: number | null;
  email?: string | null;
  tokenId?: number | null;
  address?: string | null;
}

export interface AuditEntry {
  /** `<subject>.<verb>`: `auth.login`, `auth.login_failed`, `user.role_changed`, `api_token.created`, ... */
  action: string;
  target?: { type: string; id?: string | number | null; label?: string | null };
  before?: unknown;
  after?: unknown;
  details?: unknown;
}

export const actorOf = (ctx: Pick<Ctx, 'organization' | 'user' | 'tokenId' | 'address'>): AuditActor => ({
  organizationId: ctx.organization.id,
  userId: ctx.user.id,
  email: ctx.user.email,
  tokenId: ctx.tokenId ?? null,
  address: ctx.address ?? null,
});

/** Appends one entry for `actor` (a caller's context, or an actor named outright). */
export async function audit(tx: Executor, actor: AuditActor | Pick<Ctx, 'organization' | 'user' | 'tokenId' | 'address'>, entry: AuditEntry): Promise<void> {
  const who = 'organizationId' in actor ? actor : actorOf(actor);
  await tx.insert(auditLog).values({
    organization_id: who.organizationId,
    action: entry.action,
    actor_user_id: who.userId ?? null,
    actor_email: who.email ?? null,
    actor_token_id: who.tokenId ?? null,
    address: who.address ?? null,
    target_type: entry.target?.type ?? null,
    target_id: entry.target?.id == null ? null : String(entry.target.id),
    target_label: entry.target?.label ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    details: entry.details ?? null,
  });
}

/** What an entry names a record by: its name, title or address, whichever it has, else the start of its description. */
export function labelOf(row: Record<string, unknown>): string | null {
  for (const key of ['name', 'title', 'email', 'slug']) if (typeof row[key] === 'string' && row[key] !== '') return row[key] as string;
  const text = typeof row.description === 'string' ? row.description.trim() : '';
  return text === '' ? null : text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * The entry of a record's deletion (`<type>.deleted`): the row as it stood, its search vector left out.
 * For records that hold no secret (plugin instances write their own entries, configuration masked).
 */
export function deletedEntry(type: string, row: Record<string, unknown> & { id: unknown }): AuditEntry {
  const { search_vector: _v, ...before } = row;
  return { action: `${type}.deleted`, target: { type, id: row.id as number | string, label: labelOf(row) }, before };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `before` and `after` of an update: only the fields whose values differ (`updated_at` aside), so an
 * entry says what changed and nothing else.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === 'updated_at' || key === 'search_vector' || same(before[key], after[key])) continue;
    out.before[key] = before[key] ?? null;
    out.after[key] = after[key] ?? null;
  }
  return out;
}
