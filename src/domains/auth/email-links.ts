// One-time links sent by mail (email_link): `confirm` proves an address is its person's, `reset`
// sets a new password. A link's token is made when the mail is sent and stored only as its SHA-256;
// it is used once, before it expires, and a newer link of the same purpose replaces older ones.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Settings } from '../../config.ts';
import { emailLink } from './table.ts';

export type LinkPurpose = 'confirm' | 'reset';

const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const lifetime = (settings: Settings, purpose: LinkPurpose) => (purpose === 'reset' ? settings.resetLinkExp : settings.confirmLinkExp);

/** A new link for the user (older unused ones of the purpose stop working); its token is returned once. */
export async function issueLink(tx: Executor, settings: Settings, link: { userId: number; organizationId: number; purpose: LinkPurpose }) {
  await tx
    .update(emailLink)
    .set({ used_at: new Date() })
    .where(and(eq(emailLink.user_id, link.userId), eq(emailLink.purpose, link.purpose), isNull(emailLink.used_at)));
  const token = randomBytes(32).toString('base64url');
  const [row] = await tx
    .insert(emailLink)
    .values({
      user_id: link.userId,
      organization_id: link.organizationId,
      purpose: link.purpose,
      token_hash: hash(token),
      expires_at: new Date(Date.now() + lifetime(settings, link.purpose) * 1000),
    })
    .returning({ id: emailLink.id });
  return { id: row.id, token };
}

/** Uses up the link the token names, if it is of the purpose, unused and unexpired; null otherwise. */
export async function consumeLink(tx: Executor, token: string, purpose: LinkPurpose) {
  const [row] = await tx
    .update(emailLink)
    .set({ used_at: new Date() })
    .where(and(eq(emailLink.token_hash, hash(token)), eq(emailLink.purpose, purpose), isNull(emailLink.used_at), gt(emailLink.expires_at, sql`now()`)))
    .returning({ userId: emailLink.user_id, organizationId: emailLink.organization_id });
  return row ?? null;
}

/** The web UI's page a link opens: `/{organization}/auth/confirm?token=...` or `/auth/reset?token=...`. */
export const linkUrl = (settings: Settings, organizationSlug: string, purpose: LinkPurpose, token: string) =>
  `${settings.uiUrl.replace(/\/+$/, '')}/${encodeURIComponent(organizationSlug)}/auth/${purpose}?token=${encodeURIComponent(token)}`;
