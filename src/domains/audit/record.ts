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
