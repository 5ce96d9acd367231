// API tokens as credentials: their format, their hash, and the one query that turns a presented
// token into its caller (the acting user, the organization and the role the token grants there).
// Managing them (create, list, revoke, service accounts) is api-tokens.ts.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, or, sql, gt } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { readColumns } from '../../db/columns.ts';
import { atLeast, isRole, type Role } from '../../server/context.ts';
import { organization, type OrganizationRow } from '../organization/table.ts';
import { apiToken, appUser, userOrganization } from './table.ts';

/** Every API token starts with this, so a bearer is told from a JWT without parsing it (and secret scanners can find leaked ones). */
export const API_TOKEN_PREFIX = 'mst_';

/** The reserved domain of service accounts' addresses: `.invalid` is nobody's mailbox (RFC 2606). */
export const SERVICE_ACCOUNT_DOMAIN = 'service-accounts.invalid';

/** Whether an address is under the reserved domain of service accounts: nobody registers or signs in with one. */
export const isServiceAccountAddress = (email: string) => email.trim().toLowerCase().endsWith(`.${SERVICE_ACCOUNT_DOMAIN}`);

export const hashApiToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new token: its clear text (shown once), its hash (stored) and its prefix (shown in lists). */
export function newApiToken() {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashApiToken(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 6) };
}

export interface TokenCaller {
  tokenId: number;
  user: { id: number; email: string; unconfirmed: boolean };
  organization: OrganizationRow;
  /** The token's role, capped by the acting user's role in the organization now. */
  role: Role;
  readOnly: boolean;
  /** Whether last_used_at is older than a minute (it is then written again). */
  stale: boolean;
}

const lower = (a: Role, b: Role): Role => (atLeast(a, b) ? b : a);

function tokenQuery(db: Executor) {
  return db
    .select({
      tokenId: apiToken.id,
      tokenRole: apiToken.role,
      readOnly: apiToken.read_only,
      stale: sql<boolean>`${apiToken.last_used_at} IS NULL OR ${apiToken.last_used_at} < now() - interval '1 minute'`,
      userId: appUser.id,
      email: appUser.email,
      confirmed: sql<boolean>`${appUser.email_confirmed_at} IS NOT NULL`,
      memberRole: userOrganization.role,
      organization: readColumns(organization),
    })
    .from(apiToken)
    .innerJoin(appUser, and(eq(appUser.id, apiToken.user_id), isNull(appUser.deactivated_at)))
    .innerJoin(organization, eq(organization.id, apiToken.organization_id))
    .innerJoin(userOrganization, and(eq(userOrganization.user_id, appUser.id), eq(userOrganization.organization_id, organization.id)))
    .where(
      and(eq(apiToken.token_hash, sql.placeholder('hash')), isNull(apiToken.revoked_at), or(isNull(apiToken.expires_at), gt(apiToken.expires_at, sql`now()`))),
    )
    .limit(1)
    .prepare('muster_api_token_caller');
}
const prepared = new WeakMap<Executor, ReturnType<typeof tokenQuery>>();

/**
 * The caller an API token stands for, in one prepared query; null when the token is unknown,
 * revoked, expired, or its user is deactivated or no longer a member of the token's organization.
 */
export async function resolveTokenCaller(db: Executor, token: string): Promise<TokenCaller | null> {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = tokenQuery(db)));
  const [row] = await query.execute({ hash: hashApiToken(token) });
  if (!row || !isRole(row.tokenRole) || !isRole(row.memberRole)) return null;
  return {
    tokenId: row.tokenId,
    user: { id: row.userId, email: row.email, unconfirmed: !row.confirmed },
    organization: row.organization as OrganizationRow,
    role: lower(row.tokenRole, row.memberRole),
    readOnly: row.readOnly,
    stale: row.stale,
  };
}

/** Notes that the token was used (at most once a minute per token, so a busy script does not write on every request). */
export async function touchApiToken(db: Executor, tokenId: number, address: string | undefined) {
  await db
    .update(apiToken)
    .set({ last_used_at: new Date(), last_used_address: address ?? null })
    .where(eq(apiToken.id, tokenId));
}
