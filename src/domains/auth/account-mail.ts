// Account mail: address confirmations, password resets, and the notice that someone tried to register
// an address that has an account. Sent by a background job (retried; never blocks or undoes the
// request), which makes the link itself, so no link or token ever rests in the job queue.
// Without a mail transport (MUSTER_SMTP_URL) none is sent: see docs/security.md.
import nodemailer from 'nodemailer';
import { eq } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import { defineJob } from '../../jobs/definition.ts';
import { enqueue } from '../../jobs/queue.ts';
import { organization } from '../organization/table.ts';
import { issueLink, linkUrl, type LinkPurpose } from './email-links.ts';
import { appUser } from './table.ts';

export const ACCOUNT_MAIL = 'account-mail';

export type AccountMail = { user_id: number; organization_id: number; kind: LinkPurpose | 'exists' };

export const mailConfigured = (settings: Settings) => !!settings.smtpUrl;

/** Enqueues account mail in the caller's transaction: it is sent once the transaction commits. */
export const sendAccountMail = (tx: Executor, mail: AccountMail) => enqueue(tx, ACCOUNT_MAIL, mail);

const TIMEOUT_MS = 30_000;

/** Sends one message through the configured transport. */
export async function deliver(settings: Settings, message: { to: string; subject: string; text: string }) {
  const transport = nodemailer.createTransport(settings.smtpUrl, {
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  } as never);
  try {
    await transport.sendMail({ from: settings.mailFrom, ...message });
  } finally {
    transport.close();
  }
}

function compose(kind: AccountMail['kind'], orgName: string, url: string | null, settings: Settings) {
  const hours = (seconds: number) => Math.max(1, Math.round(seconds / 3600));
  if (kind === 'confirm') {
    return {
      subject: 'Confirm your e-mail address for Muster',
      text: `Someone, probably you, registered this address with Muster (${orgName}).\n\nConfirm it here (valid for ${hours(settings.confirmLinkExp)} hours):\n${url}\n\nIf it was not you, ignore this message: nothing happens without the link.\n`,
    };
  }
  if (kind === 'reset') {
    return {
      subject: 'Reset your Muster password',
      text: `A new password was asked for this address's Muster account (${orgName}).\n\nSet one here (valid for ${hours(settings.resetLinkExp)} hours, once):\n${url}\n\nIf you did not ask, ignore this message: your password stays as it is.\n`,
    };
  }
  const signIn = `${settings.uiUrl.replace(/\/+$/, '')}/`;
  return {
    subject: 'Someone tried to register your address with Muster',
    text: `Someone tried to register this address with Muster (${orgName}), but it already has an account.\n\nIf it was you: sign in at ${signIn} (or reset your password there), and ask the organization for an invitation to join it.\nIf it was not you, nothing changed and you need do nothing.\n`,
  };
}

export const accountMailJob = defineJob<AccountMail>({
  name: ACCOUNT_MAIL,
  retryLimit: 5,
  retryDelay: 30,
  async run(job, { db, settings }) {
    if (!mailConfigured(settings)) return { skipped: 'no mail transport' };
    const { user_id, organization_id, kind } = job.data;
    const [user] = await db.select({ email: appUser.email }).from(appUser).where(eq(appUser.id, user_id));
    const [org] = await db.select({ slug: organization.slug, name: organization.name }).from(organization).where(eq(organization.id, organization_id));
    if (!user || !org) return { skipped: 'gone' };
    const url =
      kind === 'exists'
        ? null
        : linkUrl(settings, org.slug, kind, (await issueLink(db, settings, { userId: user_id, organizationId: organization_id, purpose: kind })).token);
    await deliver(settings, { to: user.email, ...compose(kind, org.name, url, settings) });
    return { sent: kind };
  },
});
