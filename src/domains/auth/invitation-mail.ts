// An invitation naming an address is mailed to it when a mail transport is configured. Its token is
// derived from the server's secret and the invitation's own row (id and creation time), so the job
// makes it again when it sends the mail and no token ever rests in the job queue, as with account
// mail. A token sent after the secret changed would not hold: such a mail is not sent.
import { createHash, createHmac } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import { defineJob } from '../../jobs/definition.ts';
import { enqueue } from '../../jobs/queue.ts';
import { organization } from '../organization/table.ts';
import { deliver, mailConfigured } from './account-mail.ts';
import { appUser, invitation } from './table.ts';

export const INVITATION_MAIL = 'invitation-mail';

export const hashInvitationToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** The token of an invitation: unforgeable without the server's secret, the same each time it is made. */
export const invitationToken = (settings: Settings, row: { id: number; created_at: Date }) =>
  createHmac('sha256', settings.jwtSecret ?? '')
    .update(`invitation:${row.id}:${row.created_at.toISOString()}`)
    .digest('base64url');

/** Enqueues the invitation's mail in the caller's transaction, when there is a transport and an address to send it to. */
export async function mailInvitation(tx: Executor, settings: Settings, row: { id: number; email: string | null }) {
  if (row.email && mailConfigured(settings)) await enqueue(tx, INVITATION_MAIL, { invitation_id: row.id });
}

/** The UI's register page with the invitation: `/{organization}/auth/register?invitation=...`. */
export const invitationUrl = (settings: Settings, organizationSlug: string, token: string) =>
  `${settings.uiUrl.replace(/\/+$/, '')}/${encodeURIComponent(organizationSlug)}/auth/register?invitation=${encodeURIComponent(token)}`;

export const invitationMailJob = defineJob<{ invitation_id: number }>({
  name: INVITATION_MAIL,
  retryLimit: 5,
  retryDelay: 30,
  async run(job, { db, settings }) {
    if (!mailConfigured(settings)) return { skipped: 'no mail transport' };
    const [row] = await db
      .select({ invitation, org: { slug: organization.slug, name: organization.name }, inviter: appUser.email })
      .from(invitation)
      .innerJoin(organization, eq(organization.id, invitation.organization_id))
      .leftJoin(appUser, eq(appUser.id, invitation.created_by))
      .where(and(eq(invitation.id, job.data.invitation_id), isNull(invitation.used_at), gt(invitation.expires_at, sql`now()`)));
    // Withdrawn, used or expired meanwhile: nothing to invite to.
    if (!row?.invitation.email) return { skipped: 'gone' };
    const token = invitationToken(settings, row.invitation);
    if (hashInvitationToken(token) !== row.invitation.token_hash) return { skipped: 'secret changed' };
    const days = Math.max(1, Math.round((row.invitation.expires_at.getTime() - Date.now()) / 86_400_000));
    await deliver(settings, {
      to: row.invitation.email,
      subject: `You are invited to ${row.org.name} on Muster`,
      text: `${row.inviter ?? 'Someone'} invited you to join ${row.org.name} on Muster as ${row.invitation.role}.\n\nAccept here (valid for ${days} days, once), by creating an account or signing in with yours:\n${invitationUrl(settings, row.org.slug, token)}\n\nIf you did not expect this, ignore this message.\n`,
    });
    return { sent: 'invitation' };
  },
});
