// What a person does with their own account: change the password (with the current one), reset it
// through a link sent to their address, confirm the address. Each refuses every token issued before
// a new password (tokens_valid_after), on every node, from the next request on.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import { audit } from '../audit/record.ts';
import { organization } from '../organization/table.ts';
import { mailConfigured, sendAccountMail } from './account-mail.ts';
import { consumeLink, issueLink, linkUrl } from './email-links.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { admission } from './registration.ts';
import { addMembership } from './membership.ts';
import { appUser, userOrganization } from './table.ts';
import { isCommonPassword } from './common-passwords.ts';
import type { Tokens } from './token.ts';

/**
 * The published rule for a password a person chooses (NIST SP 800-63B, 5.1.1.2): at least 8
 * characters, up to 256, any characters, none of the most breached ones; no composition rules, no
 * expiry.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export function checkNewPassword(password: string, loc: (string | number)[] = ['password']) {
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw invalid(loc, `A password needs at least ${PASSWORD_MIN} characters.`, 'value_error.any_str.min_length');
  if (length > PASSWORD_MAX) throw invalid(loc, `A password has at most ${PASSWORD_MAX} characters.`, 'value_error.any_str.max_length');
  if (isCommonPassword(password)) throw invalid(loc, 'This password is among the most common breached ones: choose another.', 'value_error.password.common');
}

/** Sets a new password (hashed at `cost`, MUSTER_PASSWORD_COST) and refuses every token issued before now. */
export async function setPassword(tx: Executor, userId: number, password: string, cost: number, extra: { confirm?: boolean } = {}) {
  const now = new Date();
  await tx
    .update(appUser)
    .set({
      password: await hashPassword(password, cost),
      tokens_valid_after: now,
      updated_at: now,
      ...(extra.confirm ? { email_confirmed_at: sql`coalesce(${appUser.email_confirmed_at}, now())` } : {}),
    })
    .where(eq(appUser.id, userId));
}

/** The caller changes their own password, proving the current one; answers a new token (the old ones stop working). */
export async function changePassword(ctx: Ctx, tokens: Tokens, body: { current_password: string; new_password: string }) {
  const [user] = await ctx.db.select({ password: appUser.password }).from(appUser).where(eq(appUser.id, ctx.user.id));
  if (!user || !(await verifyPassword(body.current_password, user.password))) {
    throw invalid(['current_password'], 'The current password is not right.', 'value_error.invalid.password');
  }
  checkNewPassword(body.new_password, ['new_password']);
  await ctx.db.transaction(async (tx) => {
    await setPassword(tx, ctx.user.id, body.new_password, ctx.settings.passwordCost);
    await audit(tx, ctx, { action: 'user.password_changed', target: { type: 'user', id: ctx.user.id, label: ctx.user.email } });
  });
  return { token: await tokens.issue(ctx.user.email) };
}

/** The account of `email` if it can be mailed a link from `org` (a person, active, member of it); undefined otherwise. */
async function mailableMember(db: Executor, email: string, organizationId: number) {
  const [row] = await db
    .select({ id: appUser.id, confirmed: sql<boolean>`${appUser.email_confirmed_at} IS NOT NULL` })
    .from(appUser)
    .innerJoin(userOrganization, and(eq(userOrganization.user_id, appUser.id), eq(userOrganization.organization_id, organizationId)))
    .where(and(eq(appUser.email, email), isNull(appUser.deactivated_at), eq(appUser.service_account, false)));
  return row;
}

/**
 * Starts a password reset for `email` in `org`: mails a link when a mail transport is configured;
 * without one, `link` is returned for the operator to hand over (`muster user reset-password`), and
 * an API caller learns nothing either way. Unknown addresses are answered as known ones are.
 */
export async function startPasswordReset(
  db: Executor,
  settings: Settings,
  email: string,
  org: { id: number; slug: string },
  opts: { returnLink?: boolean } = {},
): Promise<{ sent: boolean; link?: string }> {
  const user = await mailableMember(db, email, org.id);
  if (!user) return { sent: false };
  return db.transaction(async (tx) => {
    await audit(
      tx,
      { organizationId: org.id, userId: user.id, email },
      { action: 'user.password_reset_requested', target: { type: 'user', id: user.id, label: email } },
    );
    if (mailConfigured(settings)) {
      await sendAccountMail(tx, { user_id: user.id, organization_id: org.id, kind: 'reset' });
      return { sent: true };
    }
    if (!opts.returnLink) return { sent: false };
    const { token } = await issueLink(tx, settings, { userId: user.id, organizationId: org.id, purpose: 'reset' });
    return { sent: false, link: linkUrl(settings, org.slug, 'reset', token) };
  });
}

/** The audit entry of a followed link, in the organization it was asked from (its person is the actor). */
async function auditLink(tx: Executor, link: { userId: number; organizationId: number | null }, email: string, address: string | undefined, action: string) {
  if (link.organizationId === null) return;
  await audit(
    tx,
    { organizationId: link.organizationId, userId: link.userId, email, address },
    { action, target: { type: 'user', id: link.userId, label: email } },
  );
}

/** Sets a new password with a reset link's token; the link also proves the address. Answers a new token. */
export async function completePasswordReset(db: Executor, tokens: Tokens, settings: Settings, body: { token: string; password: string }, address?: string) {
  checkNewPassword(body.password);
  const email = await db.transaction(async (tx) => {
    const link = await consumeLink(tx, body.token, 'reset');
    if (!link) throw errors.linkInvalid();
    await setPassword(tx, link.userId, body.password, settings.passwordCost, { confirm: true });
    const [user] = await tx.select({ email: appUser.email }).from(appUser).where(eq(appUser.id, link.userId));
    await auditLink(tx, link, user.email, address, 'user.password_reset');
    return user.email;
  });
  return { token: await tokens.issue(email) };
}

/**
 * Confirms the address a confirmation link was sent to. A registration the organization's policy
 * admits only with a confirmed address (`domains`) becomes a membership now. Answers a token.
 */
export async function confirmAddress(db: Executor, tokens: Tokens, body: { token: string }, address?: string) {
  const email = await db.transaction(async (tx) => {
    const link = await consumeLink(tx, body.token, 'confirm');
    if (!link) throw errors.linkInvalid();
    const [user] = await tx
      .update(appUser)
      .set({ email_confirmed_at: sql`coalesce(${appUser.email_confirmed_at}, now())` })
      .where(eq(appUser.id, link.userId))
      .returning({ email: appUser.email });
    if (link.organizationId !== null) {
      const [org] = await tx.select().from(organization).where(eq(organization.id, link.organizationId));
      if (org) await joinOnConfirmation(tx, org, link.userId, user.email);
    }
    await auditLink(tx, link, user.email, address, 'user.email_confirmed');
    return user.email;
  });
  return { token: await tokens.issue(email) };
}

/** A registration held until the address was confirmed joins the organization, if its policy still admits it. */
async function joinOnConfirmation(tx: Executor, org: typeof organization.$inferSelect, userId: number, email: string) {
  const [member] = await tx
    .select({ id: userOrganization.user_id })
    .from(userOrganization)
    .where(and(eq(userOrganization.user_id, userId), eq(userOrganization.organization_id, org.id)));
  if (member) return;
  const admitted = await admission(tx, org, email, undefined, { confirmed: true }).catch(() => null);
  if (!admitted) return;
  await addMembership(tx, { userId, organizationId: org.id, role: admitted.role });
}
