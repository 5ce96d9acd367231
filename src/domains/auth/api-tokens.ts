// Managing API tokens (beyond Dispatch 0.1.0): personal tokens, which act as the person who made them,
// and service accounts, users of one organization that act only through their tokens. A token belongs
// to one organization, has a name, a role no higher than its creator's (and capped again by its user's
// role on every request, api-token.ts), may be read-only and may expire. Its clear text is answered
// once, at creation; only its SHA-256 is stored. Every creation and revocation is in the audit log.
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { Type, type Static } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import { atLeast, requirePermission, ROLES, type Ctx, type Role } from '../../server/context.ts';
import { errors, exists, invalid } from '../../server/errors.ts';
import { DateTime, Defaulted, Id, Nullable, Opt } from '../../server/shapes.ts';
import { audit, type AuditActor } from '../audit/record.ts';
import { slugify } from '../../lib/slug.ts';
import { newApiToken, SERVICE_ACCOUNT_DOMAIN } from './api-token.ts';
import { NO_PASSWORD } from './password.ts';
import { apiToken, appUser, userOrganization } from './table.ts';

// ------------------------------------------------------------------------------------------------
// Shapes

const RoleField = Type.Unsafe<Role>({ type: 'string', enum: [...ROLES] });
const TokenName = Type.String({ minLength: 1, maxLength: 100, pattern: '^(?!\\s*$).+' });

export const ApiTokenCreate = Type.Object(
  {
    name: TokenName,
    /** Omitted: the role of the user the token acts as (the creator's, or the service account's). */
    role: Opt(RoleField),
    read_only: Defaulted(Type.Boolean({ default: false })),
    /** Omitted or null: the token does not expire. Never in the past. */
    expires_at: Opt(DateTime()),
  },
  { title: 'ApiTokenCreate', additionalProperties: false },
);
export type ApiTokenCreateT = Static<typeof ApiTokenCreate>;

const UserBrief = Type.Object({ id: Id(), email: Type.String() }, { title: 'ApiTokenUser' });
const tokenFields = {
  id: Id(),
  name: Type.String(),
  /** The token's first characters, to tell it apart in lists (`mst_AbC123`). */
  prefix: Type.String(),
  role: Type.String(),
  read_only: Type.Boolean(),
  /** The user the token acts as. */
  user: UserBrief,
  service_account: Type.Boolean(),
  created_by: Nullable(UserBrief),
  created_at: DateTime(),
  expires_at: Nullable(DateTime()),
  last_used_at: Nullable(DateTime()),
  last_used_address: Nullable(Type.String()),
  revoked_at: Nullable(DateTime()),
};
export const ApiTokenRead = Type.Object(tokenFields, { title: 'ApiTokenRead' });
/** The answer to a new token: the only time its clear text is shown. */
export const ApiTokenCreated = Type.Object({ ...tokenFields, token: Type.String() }, { title: 'ApiTokenCreated' });
export const ApiTokenList = Type.Object({ items: Type.Array(ApiTokenRead), total: Type.Integer() }, { title: 'ApiTokenList' });
export const ApiTokenQuery = Type.Object(
  { all: Defaulted(Type.Boolean({ default: false, description: "Owners: every member's personal tokens, not only the caller's" })) },
  { additionalProperties: false },
);
export type ApiTokenReadT = Static<typeof ApiTokenRead>;

export const ServiceAccountCreate = Type.Object(
  {
    /** Kept as a slug (`CI bot` -> `ci-bot`): it names the account's generated address. */
    name: Type.String({ minLength: 2, maxLength: 60, pattern: '[A-Za-z0-9]' }),
    role: Opt(RoleField),
  },
  { title: 'ServiceAccountCreate', additionalProperties: false },
);
export type ServiceAccountCreateT = Static<typeof ServiceAccountCreate>;

export const ServiceAccountRead = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    email: Type.String(),
    role: Type.String(),
    created_at: DateTime(),
    deactivated_at: Nullable(DateTime()),
    /** How many of its tokens are usable now (not revoked, not expired). */
    active_tokens: Type.Integer(),
  },
  { title: 'ServiceAccountRead' },
);
export const ServiceAccountList = Type.Object({ items: Type.Array(ServiceAccountRead), total: Type.Integer() }, { title: 'ServiceAccountList' });
export type ServiceAccountReadT = Static<typeof ServiceAccountRead>;

// ------------------------------------------------------------------------------------------------
// Reading tokens

const creator = alias(appUser, 'creator');

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function tokenSelect(db: Executor) {
  return db
    .select({
      token: apiToken,
      userEmail: appUser.email,
      serviceAccount: appUser.service_account,
      creatorId: creator.id,
      creatorEmail: creator.email,
    })
    .from(apiToken)
    .innerJoin(appUser, eq(appUser.id, apiToken.user_id))
    .leftJoin(creator, eq(creator.id, apiToken.created_by));
}
type TokenRow = Awaited<ReturnType<ReturnType<typeof tokenSelect>['execute']>>[number];

const present = (r: TokenRow): ApiTokenReadT => ({
  id: r.token.id,
  name: r.token.name,
  prefix: r.token.prefix,
  role: r.token.role,
  read_only: r.token.read_only,
  user: { id: r.token.user_id, email: r.userEmail },
  service_account: r.serviceAccount,
  created_by: r.creatorId == null ? null : { id: r.creatorId, email: r.creatorEmail! },
  created_at: r.token.created_at.toISOString(),
  expires_at: iso(r.token.expires_at),
  last_used_at: iso(r.token.last_used_at),
  last_used_address: r.token.last_used_address,
  revoked_at: iso(r.token.revoked_at),
});

async function readToken(db: Executor, id: number): Promise<ApiTokenReadT> {
  const [row] = await tokenSelect(db).where(eq(apiToken.id, id));
  return present(row);
}

/** Tokens not revoked (expired ones included, to be seen and revoked), newest first. */
async function tokensWhere(db: Executor, organizationId: number, where: ReturnType<typeof and>) {
  const rows = await tokenSelect(db)
    .where(and(eq(apiToken.organization_id, organizationId), isNull(apiToken.revoked_at), where))
    .orderBy(desc(apiToken.created_at), desc(apiToken.id));
  return { items: rows.map(present), total: rows.length };
}

// ------------------------------------------------------------------------------------------------
// Issuing and revoking: shared by the API and the CLI (which acts as the operator, with no caller).

export interface IssueToken {
  organizationId: number;
  /** The user the token acts as. */
  userId: number;
  /** The person who made it; null from the CLI. */
  createdBy: number | null;
  name: string;
  role: Role;
  readOnly: boolean;
  expiresAt: Date | null;
}

/** Stores a new token and writes `api_token.created`; answers it with its clear text (shown once). */
export async function issueToken(tx: Executor, actor: AuditActor | Ctx, spec: IssueToken, details: Record<string, unknown> = {}) {
  const { token, hash, prefix } = newApiToken();
  const [row] = await tx
    .insert(apiToken)
    .values({
      organization_id: spec.organizationId,
      user_id: spec.userId,
      created_by: spec.createdBy,
      name: spec.name.trim(),
      role: spec.role,
      read_only: spec.readOnly,
      token_hash: hash,
      prefix,
      expires_at: spec.expiresAt,
    })
    .returning({ id: apiToken.id });
  const read = await readToken(tx, row.id);
  await audit(tx, actor, {
    action: 'api_token.created',
    target: { type: 'api_token', id: read.id, label: read.name },
    after: { prefix, role: read.role, read_only: read.read_only, expires_at: read.expires_at, user: read.user.email, service_account: read.service_account },
    details,
  });
  return { ...read, token };
}

/** Revokes the given tokens (those not revoked yet), one `api_token.revoked` entry each; answers the ids revoked. */
export async function revokeTokens(tx: Executor, actor: AuditActor | Ctx, where: ReturnType<typeof and>, details: Record<string, unknown> = {}) {
  const gone = await tx
    .update(apiToken)
    .set({ revoked_at: new Date() })
    .where(and(isNull(apiToken.revoked_at), where))
    .returning({ id: apiToken.id, name: apiToken.name, prefix: apiToken.prefix, user_id: apiToken.user_id });
  for (const t of gone) {
    await audit(tx, actor, { action: 'api_token.revoked', target: { type: 'api_token', id: t.id, label: t.name }, before: { prefix: t.prefix }, details });
  }
  return gone.map((t) => t.id);
}

/** A token's expiry from the request: null (never) or an instant that has not passed. */
export function expiryOf(value: string | null | undefined): Date | null {
  if (value == null) return null;
  const at = new Date(value);
  if (!(at.getTime() > Date.now())) throw invalid(['body', 'expires_at'], 'The expiry must be in the future.');
  return at;
}

/**
 * Tokens and service accounts are made by people signed in, not by API tokens: a leaked token must
 * not be able to mint others that outlive its revocation.
 */
function refuseTokenCaller(ctx: Ctx) {
  if (ctx.tokenId !== undefined) throw errors.forbidden('An API token cannot make API tokens or service accounts; sign in to make them.');
}

const tooHigh = (who: string, role: Role, wanted: Role) => errors.forbidden(`A ${who} with the role ${role} cannot grant the role ${wanted}.`);

// ------------------------------------------------------------------------------------------------
// Personal tokens

/** The caller's own personal tokens; an Owner with `all` sees every member's. */
export async function listTokens(ctx: Ctx, query: { all: boolean }) {
  if (query.all) requirePermission(ctx.role, 'OrganizationOwner');
  return tokensWhere(ctx.db, ctx.organization.id, and(eq(appUser.service_account, false), query.all ? undefined : eq(apiToken.user_id, ctx.user.id)));
}

/** A personal token: it acts as the caller, with a role no higher than the caller's (403). */
export async function createToken(ctx: Ctx, body: ApiTokenCreateT) {
  refuseTokenCaller(ctx);
  const role = body.role ?? ctx.role;
  if (!atLeast(ctx.role, role)) throw tooHigh('member', ctx.role, role);
  const expiresAt = expiryOf(body.expires_at);
  return ctx.db.transaction((tx) =>
    issueToken(tx, ctx, {
      organizationId: ctx.organization.id,
      userId: ctx.user.id,
      createdBy: ctx.user.id,
      name: body.name,
      role,
      readOnly: body.read_only ?? false,
      expiresAt,
    }),
  );
}

/**
 * Revokes a token of the organization: its creator (or, for a personal token, its user) and Owners
 * may. Tokens the caller may not see answer 404; a service account's token seen by a Manager who did
 * not make it, 403.
 */
export async function revokeToken(ctx: Ctx, id: number): Promise<null> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tokenSelect(tx)
      .where(and(eq(apiToken.id, id), eq(apiToken.organization_id, ctx.organization.id), isNull(apiToken.revoked_at)))
      .for('update', { of: apiToken });
    const mine = row && (row.token.created_by === ctx.user.id || (!row.serviceAccount && row.token.user_id === ctx.user.id));
    const owner = atLeast(ctx.role, 'Owner');
    const seen = row && (mine || owner || (row.serviceAccount && atLeast(ctx.role, 'Manager')));
    if (!seen) throw errors.notFound('An API token');
    if (!mine && !owner) throw errors.forbidden('Only the creator of a token or an Owner revokes it.');
    await revokeTokens(tx, ctx, eq(apiToken.id, id));
    return null;
  });
}

// ------------------------------------------------------------------------------------------------
// Service accounts

/** `ci-bot` in organization `my_org`: `ci-bot@my-org.service-accounts.invalid` (slugs hold no `-`, so this is one-to-one). */
export const serviceAccountEmail = (orgSlug: string, name: string) => `${name}@${orgSlug.replaceAll('_', '-')}.${SERVICE_ACCOUNT_DOMAIN}`;

export const serviceAccountName = (raw: string) => slugify(raw, '-').slice(0, 60);

const activeTokens = sql<number>`(SELECT count(*)::int FROM ${apiToken} WHERE ${apiToken.user_id} = ${appUser.id} AND ${apiToken.revoked_at} IS NULL AND (${apiToken.expires_at} IS NULL OR ${apiToken.expires_at} > now()))`;

function accountSelect(db: Executor, organizationId: number) {
  return db
    .select({
      id: appUser.id,
      email: appUser.email,
      role: userOrganization.role,
      created_at: appUser.created_at,
      deactivated_at: appUser.deactivated_at,
      active_tokens: activeTokens,
    })
    .from(appUser)
    .innerJoin(userOrganization, and(eq(userOrganization.user_id, appUser.id), eq(userOrganization.organization_id, organizationId)))
    .$dynamic();
}
type AccountRow = Awaited<ReturnType<ReturnType<typeof accountSelect>['execute']>>[number];

const presentAccount = (r: AccountRow): ServiceAccountReadT => ({
  id: r.id,
  name: r.email.slice(0, r.email.indexOf('@')),
  email: r.email,
  role: r.role,
  created_at: r.created_at.toISOString(),
  deactivated_at: iso(r.deactivated_at),
  active_tokens: Number(r.active_tokens),
});

/** The organization's service accounts, deactivated ones included, by name (Owners and Managers). */
export async function listServiceAccounts(ctx: Ctx) {
  requirePermission(ctx.role, 'OrganizationManager');
  const rows = await accountSelect(ctx.db, ctx.organization.id).where(eq(appUser.service_account, true)).orderBy(asc(appUser.email));
  return { items: rows.map(presentAccount), total: rows.length };
}

/** One service account of the organization, for writing: 404 unless it exists here and is active. */
async function activeAccount(ctx: Ctx, db: Executor, id: number) {
  const [row] = await accountSelect(db, ctx.organization.id).where(and(eq(appUser.id, id), eq(appUser.service_account, true), isNull(appUser.deactivated_at)));
  if (!row) throw errors.notFound('A service account');
  return row;
}

export interface NewServiceAccount {
  organizationId: number;
  organizationSlug: string;
  name: string;
  role: Role;
}

/**
 * Adds the app_user of a service account (its generated address, no password since it never signs
 * in with one, no confirmed address) and its membership, and writes `service_account.created`. A name taken in the
 * organization is a 422 `value_error.exists`.
 */
export async function insertServiceAccount(tx: Executor, actor: AuditActor | Ctx, spec: NewServiceAccount, details: Record<string, unknown> = {}) {
  const name = serviceAccountName(spec.name);
  if (name.length < 2) throw invalid(['body', 'name'], 'A service account name needs at least 2 letters or digits.');
  const email = serviceAccountEmail(spec.organizationSlug, name);
  const [user] = await tx
    .insert(appUser)
    .values({ email, password: NO_PASSWORD, service_account: true })
    .onConflictDoNothing({ target: appUser.email })
    .returning({ id: appUser.id });
  if (!user) throw exists('name', 'A service account with this name already exists.');
  await tx.insert(userOrganization).values({ user_id: user.id, organization_id: spec.organizationId, role: spec.role, default: true });
  await audit(tx, actor, {
    action: 'service_account.created',
    target: { type: 'user', id: user.id, label: email },
    after: { name, email, role: spec.role },
    details,
  });
  const [row] = await accountSelect(tx, spec.organizationId).where(eq(appUser.id, user.id));
  return presentAccount(row);
}

/** A service account (Owners and Managers), with a role no higher than the creator's (403); Member when omitted. */
export async function createServiceAccount(ctx: Ctx, body: ServiceAccountCreateT) {
  requirePermission(ctx.role, 'OrganizationManager');
  refuseTokenCaller(ctx);
  const role = body.role ?? 'Member';
  if (!atLeast(ctx.role, role)) throw tooHigh(ctx.role === 'Owner' ? 'Owner' : 'Manager', ctx.role, role);
  return ctx.db.transaction((tx) =>
    insertServiceAccount(tx, ctx, { organizationId: ctx.organization.id, organizationSlug: ctx.organization.slug, name: body.name, role }),
  );
}

/** Deactivates a service account (its tokens are refused from the next request) and revokes its tokens. */
export async function deactivateServiceAccount(ctx: Ctx, id: number): Promise<null> {
  requirePermission(ctx.role, 'OrganizationManager');
  return ctx.db.transaction(async (tx) => {
    const account = await activeAccount(ctx, tx, id);
    if (!atLeast(ctx.role, account.role as Role)) throw errors.forbidden(`A ${ctx.role} cannot deactivate a service account with the role ${account.role}.`);
    const now = new Date();
    await tx.update(appUser).set({ deactivated_at: now, tokens_valid_after: now, updated_at: now }).where(eq(appUser.id, id));
    const revoked = await revokeTokens(tx, ctx, eq(apiToken.user_id, id), { reason: 'service_account.deactivated' });
    await audit(tx, ctx, {
      action: 'service_account.deactivated',
      target: { type: 'user', id, label: account.email },
      before: { deactivated_at: null },
      after: { deactivated_at: now.toISOString() },
      details: { revoked_tokens: revoked },
    });
    return null;
  });
}

/** A service account's tokens that are not revoked (Owners and Managers). */
export async function listServiceAccountTokens(ctx: Ctx, id: number) {
  requirePermission(ctx.role, 'OrganizationManager');
  await activeAccount(ctx, ctx.db, id);
  return tokensWhere(ctx.db, ctx.organization.id, eq(apiToken.user_id, id));
}

/** A token acting as the service account, with a role no higher than the creator's (403) nor the account's (422). */
export async function createServiceAccountToken(ctx: Ctx, id: number, body: ApiTokenCreateT) {
  requirePermission(ctx.role, 'OrganizationManager');
  refuseTokenCaller(ctx);
  const account = await activeAccount(ctx, ctx.db, id);
  const accountRole = account.role as Role;
  const role = body.role ?? (atLeast(ctx.role, accountRole) ? accountRole : ctx.role);
  if (!atLeast(ctx.role, role)) throw tooHigh(ctx.role === 'Owner' ? 'Owner' : 'Manager', ctx.role, role);
  if (!atLeast(accountRole, role)) throw invalid(['body', 'role'], `The service account's role is ${accountRole}; its tokens cannot grant more.`);
  const expiresAt = expiryOf(body.expires_at);
  return ctx.db.transaction((tx) =>
    issueToken(tx, ctx, {
      organizationId: ctx.organization.id,
      userId: id,
      createdBy: ctx.user.id,
      name: body.name,
      role,
      readOnly: body.read_only ?? false,
      expiresAt,
    }),
  );
}

// ------------------------------------------------------------------------------------------------
// For the CLI: every token of an organization (or all), and revoking what a deactivated user holds.

/** Tokens not revoked, of one organization or of all, newest first, with their organization's slug. */
export async function allTokens(db: Executor, organizationIds?: number[]) {
  const rows = await tokenSelect(db)
    .where(and(isNull(apiToken.revoked_at), organizationIds ? inArray(apiToken.organization_id, organizationIds) : undefined))
    .orderBy(desc(apiToken.created_at), desc(apiToken.id));
  return rows.map((r) => ({ ...present(r), organization_id: r.token.organization_id }));
}
