// What an operator does to accounts and tokens from the command line (`muster user`, `muster token`):
// no caller, no HTTP. Each change of access is one transaction with its audit entries, whose actor is
// the operator (no user, no e-mail; details `{ via: 'cli' }`).
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { atLeast, isRole, ROLES, type Role } from '../../server/context.ts';
import { audit, type AuditActor } from '../audit/record.ts';
import { organization } from '../organization/table.ts';
import { allTokens, insertServiceAccount, issueToken, revokeTokens, serviceAccountEmail, serviceAccountName } from './api-tokens.ts';
import { checkNewPassword, startPasswordReset } from './account.ts';
import { addMembership } from './membership.ts';
import { hashPassword, randomPassword } from './password.ts';
import { ApiError } from '../../server/errors.ts';
import type { Settings } from '../../config.ts';
import { normalizeEmail } from './service.ts';
import { apiToken, appUser, userOrganization } from './table.ts';

/** A refusal the CLI prints as it is (exit 1), with no stack. */
export class OperatorError extends Error {}

const VIA = { via: 'cli' };
export const operator = (organizationId: number): AuditActor => ({ organizationId, userId: null, email: null, tokenId: null, address: null });

export function parseRole(value: string): Role {
  const role = ROLES.find((r) => r.toLowerCase() === value.trim().toLowerCase());
  if (!role) throw new OperatorError(`unknown role "${value}": one of ${ROLES.join(', ')}`);
  return role;
}

export async function organizationBySlug(db: Executor, slug: string) {
  const [row] = await db.select({ id: organization.id, slug: organization.slug }).from(organization).where(eq(organization.slug, slug));
  if (!row) throw new OperatorError(`no organization "${slug}"`);
  return row;
}

async function userByEmail(db: Executor, email: string) {
  const [row] = await db
    .select()
    .from(appUser)
    .where(eq(appUser.email, normalizeEmail(email)));
  if (!row) throw new OperatorError(`no user ${normalizeEmail(email)}`);
  return row;
}

async function roleIn(db: Executor, userId: number, organizationId: number): Promise<Role | null> {
  const [row] = await db
    .select({ role: userOrganization.role })
    .from(userOrganization)
    .where(and(eq(userOrganization.user_id, userId), eq(userOrganization.organization_id, organizationId)));
  return row && isRole(row.role) ? row.role : null;
}

async function organizationsOf(db: Executor, userId: number) {
  return (await db.select({ id: userOrganization.organization_id }).from(userOrganization).where(eq(userOrganization.user_id, userId))).map((r) => r.id);
}

export interface UserLine {
  email: string;
  organization: string | null;
  role: string | null;
  confirmed: boolean;
  deactivated: boolean;
  serviceAccount: boolean;
}

/** Every user with each membership (one line each; a user of no organization once), by e-mail. */
export async function listAccounts(db: Executor, orgSlug?: string): Promise<UserLine[]> {
  const org = orgSlug ? await organizationBySlug(db, orgSlug) : undefined;
  const rows = await db
    .select({
      email: appUser.email,
      organization: organization.slug,
      role: userOrganization.role,
      confirmed: sql<boolean>`${appUser.email_confirmed_at} IS NOT NULL`,
      deactivated: sql<boolean>`${appUser.deactivated_at} IS NOT NULL`,
      serviceAccount: appUser.service_account,
    })
    .from(appUser)
    .leftJoin(userOrganization, eq(userOrganization.user_id, appUser.id))
    .leftJoin(organization, eq(organization.id, userOrganization.organization_id))
    .where(org ? eq(userOrganization.organization_id, org.id) : undefined)
    .orderBy(asc(appUser.email), asc(organization.slug));
  return rows;
}

/**
 * A person's account, made by an operator: its address counts as confirmed. An existing account is
 * added to the organization (its password kept); one that belongs there already is refused.
 */
export async function createAccount(db: Executor, settings: Settings, opts: { email: string; orgSlug: string; role: Role; password?: string }) {
  const email = normalizeEmail(opts.email);
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new OperatorError(`not an e-mail address: ${opts.email}`);
  if (email.endsWith('.invalid')) throw new OperatorError('addresses under .invalid are reserved for service accounts');
  if (opts.password !== undefined) {
    try {
      checkNewPassword(opts.password);
    } catch (err) {
      if (err instanceof ApiError) throw new OperatorError((err.detail as { msg: string }[])[0].msg);
      throw err;
    }
  }
  const org = await organizationBySlug(db, opts.orgSlug);
  const password = await hashPassword(opts.password ?? randomPassword(), settings.passwordCost);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(appUser).where(eq(appUser.email, email));
    if (existing && (await roleIn(tx, existing.id, org.id)))
      throw new OperatorError(`${email} is a member of ${org.slug} already (muster user set-role changes the role)`);
    if (existing?.service_account) throw new OperatorError(`${email} is a service account`);
    if (existing && opts.password !== undefined) {
      throw new OperatorError(`${email} has an account already: it joins ${org.slug} with its own password (leave out --password-stdin)`);
    }
    const user = existing ?? (await tx.insert(appUser).values({ email, password, email_confirmed_at: new Date() }).returning())[0];
    await addMembership(tx, { userId: user.id, organizationId: org.id, role: opts.role });
    await audit(tx, operator(org.id), {
      action: existing ? 'user.joined' : 'user.created',
      target: { type: 'user', id: user.id, label: email },
      after: { role: opts.role, email_confirmed: existing ? existing.email_confirmed_at !== null : true },
      details: VIA,
    });
    return { id: user.id, email, created: !existing, organization: org.slug, role: opts.role };
  });
}

/** Changes a member's role; the last Owner of an organization stays Owner. */
export async function setAccountRole(db: Executor, email: string, orgSlug: string, role: Role) {
  const org = await organizationBySlug(db, orgSlug);
  const user = await userByEmail(db, email);
  return db.transaction(async (tx) => {
    const before = await roleIn(tx, user.id, org.id);
    if (!before) throw new OperatorError(`${user.email} is not a member of ${org.slug}`);
    if (before === role) return { email: user.email, before, role, changed: false };
    if (before === 'Owner') {
      const [{ n }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(userOrganization)
        .where(and(eq(userOrganization.organization_id, org.id), eq(userOrganization.role, 'Owner'), ne(userOrganization.user_id, user.id)));
      if (n === 0) throw new OperatorError(`${user.email} is the last Owner of ${org.slug}; make someone else Owner first`);
    }
    await tx
      .update(userOrganization)
      .set({ role })
      .where(and(eq(userOrganization.user_id, user.id), eq(userOrganization.organization_id, org.id)));
    await audit(tx, operator(org.id), {
      action: 'user.role_changed',
      target: { type: 'user', id: user.id, label: user.email },
      before: { role: before },
      after: { role },
      details: VIA,
    });
    return { email: user.email, before, role, changed: true };
  });
}

/**
 * Deactivates an account everywhere: it signs in nowhere, its session tokens and API tokens are
 * refused from the next request, and its API tokens are revoked. Its records keep naming it.
 */
export async function deactivateAccount(db: Executor, email: string) {
  const user = await userByEmail(db, email);
  if (user.deactivated_at) throw new OperatorError(`${user.email} is deactivated already`);
  return db.transaction(async (tx) => {
    const now = new Date();
    await tx.update(appUser).set({ deactivated_at: now, tokens_valid_after: now, updated_at: now }).where(eq(appUser.id, user.id));
    let revoked = 0;
    for (const orgId of await organizationsOf(tx, user.id)) {
      const ids = await revokeTokens(tx, operator(orgId), and(eq(apiToken.user_id, user.id), eq(apiToken.organization_id, orgId)), {
        ...VIA,
        reason: 'user.deactivated',
      });
      revoked += ids.length;
      await audit(tx, operator(orgId), {
        action: user.service_account ? 'service_account.deactivated' : 'user.deactivated',
        target: { type: 'user', id: user.id, label: user.email },
        before: { deactivated_at: null },
        after: { deactivated_at: now.toISOString() },
        details: { ...VIA, revoked_tokens: ids },
      });
    }
    return { email: user.email, revoked };
  });
}

/** Marks an account's address as proven (an operator vouches for it). */
export async function confirmAccount(db: Executor, email: string) {
  const user = await userByEmail(db, email);
  if (user.service_account) throw new OperatorError(`${user.email} is a service account: its address is nobody's mailbox`);
  if (user.email_confirmed_at) return { email: user.email, changed: false };
  return db.transaction(async (tx) => {
    await tx.update(appUser).set({ email_confirmed_at: new Date(), updated_at: new Date() }).where(eq(appUser.id, user.id));
    for (const orgId of await organizationsOf(tx, user.id)) {
      await audit(tx, operator(orgId), { action: 'user.email_confirmed', target: { type: 'user', id: user.id, label: user.email }, details: VIA });
    }
    return { email: user.email, changed: true };
  });
}

export interface TokenRequest {
  orgSlug: string;
  /** The person the token is made for (acting as them), or who makes the service account's token. */
  email: string;
  name: string;
  role?: Role;
  readOnly: boolean;
  expiresInDays?: number;
  /** A service account of the organization to act as; made (with `role`, else Member) when it does not exist. */
  serviceAccount?: string;
}

/**
 * A token from the command line: a personal token of `email`, or a token of a service account made
 * on `email`'s authority. Either way its role is no higher than `email`'s role in the organization.
 */
export async function createTokenFor(db: Executor, req: TokenRequest) {
  const org = await organizationBySlug(db, req.orgSlug);
  const user = await userByEmail(db, req.email);
  if (user.deactivated_at) throw new OperatorError(`${user.email} is deactivated`);
  if (user.service_account) throw new OperatorError(`${user.email} is a service account: name it with --service-account`);
  const userRole = await roleIn(db, user.id, org.id);
  if (!userRole) throw new OperatorError(`${user.email} is not a member of ${org.slug}`);
  const wanted = req.role;
  if (wanted && !atLeast(userRole, wanted)) throw new OperatorError(`${user.email} is ${userRole} in ${org.slug}: a token made by them cannot grant ${wanted}`);
  if (req.expiresInDays !== undefined && !(Number.isInteger(req.expiresInDays) && req.expiresInDays > 0)) {
    throw new OperatorError('--expires-in-days takes a whole number of days, at least 1');
  }
  const expiresAt = req.expiresInDays === undefined ? null : new Date(Date.now() + req.expiresInDays * 86_400_000);
  return db.transaction(async (tx) => {
    let actsAs = { id: user.id, role: userRole };
    let account: { email: string; created: boolean } | undefined;
    if (req.serviceAccount !== undefined) {
      const email = serviceAccountEmail(org.slug, serviceAccountName(req.serviceAccount));
      const [found] = await tx
        .select({ id: appUser.id, deactivated: appUser.deactivated_at, serviceAccount: appUser.service_account })
        .from(appUser)
        .where(eq(appUser.email, email));
      if (found && (!found.serviceAccount || found.deactivated)) throw new OperatorError(`service account ${email} is deactivated`);
      if (found) {
        const role = await roleIn(tx, found.id, org.id);
        if (!role) throw new OperatorError(`service account ${email} is not a member of ${org.slug}`);
        actsAs = { id: found.id, role };
        account = { email, created: false };
      } else {
        const role = wanted ?? 'Member';
        const made = await insertServiceAccount(
          tx,
          operator(org.id),
          { organizationId: org.id, organizationSlug: org.slug, name: req.serviceAccount, role },
          VIA,
        );
        actsAs = { id: made.id, role };
        account = { email: made.email, created: true };
      }
    }
    const role = wanted ?? (atLeast(userRole, actsAs.role) ? actsAs.role : userRole);
    if (!atLeast(actsAs.role, role)) throw new OperatorError(`the service account is ${actsAs.role}: its tokens cannot grant ${role}`);
    const token = await issueToken(
      tx,
      operator(org.id),
      { organizationId: org.id, userId: actsAs.id, createdBy: user.id, name: req.name, role, readOnly: req.readOnly, expiresAt },
      VIA,
    );
    return { ...token, organization: org.slug, account };
  });
}

/** Tokens not revoked, of one organization or all, with their organization's slug. */
export async function listAllTokens(db: Executor, orgSlug?: string) {
  const org = orgSlug ? await organizationBySlug(db, orgSlug) : undefined;
  const rows = await allTokens(db, org ? [org.id] : undefined);
  const slugs = new Map(
    (
      await db
        .select({ id: organization.id, slug: organization.slug })
        .from(organization)
        .where(inArray(organization.id, [...new Set(rows.map((r) => r.organization_id)), -1]))
    ).map((o) => [o.id, o.slug]),
  );
  return rows.map((r) => ({ ...r, organization: slugs.get(r.organization_id) ?? String(r.organization_id) }));
}

/** Revokes one token by id. */
export async function revokeTokenById(db: Executor, id: number) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ organization_id: apiToken.organization_id, revoked_at: apiToken.revoked_at, name: apiToken.name })
      .from(apiToken)
      .where(eq(apiToken.id, id));
    if (!row) throw new OperatorError(`no API token ${id} (muster token list shows them)`);
    if (row.revoked_at) throw new OperatorError(`API token ${id} is revoked already`);
    await revokeTokens(tx, operator(row.organization_id), and(eq(apiToken.id, id), isNull(apiToken.revoked_at)), VIA);
    return { id, name: row.name };
  });
}

/**
 * Starts a password reset for a member: the link is mailed when a mail transport is configured, and
 * answered (for the operator to hand over) when none is.
 */
export async function resetAccountPassword(db: Executor, settings: Settings, email: string, orgSlug: string) {
  const org = await organizationBySlug(db, orgSlug);
  const user = await userByEmail(db, email);
  if (user.service_account) throw new OperatorError(`${user.email} is a service account: it has no password to reset`);
  if (user.deactivated_at) throw new OperatorError(`${user.email} is deactivated`);
  if (!(await roleIn(db, user.id, org.id))) throw new OperatorError(`${user.email} is not a member of ${org.slug}`);
  const started = await startPasswordReset(db, settings, user.email, org, { returnLink: true });
  if (!started.sent && !started.link) throw new OperatorError(`no reset could be started for ${user.email}`);
  return { email: user.email, ...started };
}
