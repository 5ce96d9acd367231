// Who may register themselves in an organization (beyond Dispatch 0.1.0, whose register endpoint
// made anyone a Member of any organization): each organization's policy, `open`, `domains` (e-mail
// addresses of its listed domains) or `invitation`, and the invitations its Owners and Managers
// issue. An invitation's token is shown once (and mailed to the address it names, when mail is
// configured), stored as its SHA-256, used once before it expires, and by its e-mail address when it
// names one. An invitation admits whatever the policy.
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { Type, type Static } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import { atLeast, requirePermission, type Ctx, type Role, type UserRef } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import { DateTime, Email, Id, Nullable } from '../../server/shapes.ts';
import { organization, type OrganizationRow } from '../organization/table.ts';
import { audit } from '../audit/record.ts';
import { hashInvitationToken, invitationToken, mailInvitation } from './invitation-mail.ts';
import { addMembership } from './membership.ts';
import { appUser, invitation, userOrganization } from './table.ts';

export const REGISTRATION_POLICIES = ['open', 'domains', 'invitation'] as const;
export type RegistrationPolicy = (typeof REGISTRATION_POLICIES)[number];

const Policy = Type.Unsafe<RegistrationPolicy>({ type: 'string', enum: [...REGISTRATION_POLICIES] });
const Domain = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$' });

export const RegistrationRead = Type.Object({ policy: Policy, domains: Type.Array(Type.String()) }, { title: 'RegistrationRead' });
export const RegistrationUpdate = Type.Object(
  { policy: Policy, domains: Type.Optional(Type.Array(Domain, { maxItems: 100 })) },
  { title: 'RegistrationUpdate', additionalProperties: false },
);

const InvitedRole = Type.Unsafe<Role>({ type: 'string', enum: ['Member', 'Admin', 'Manager', 'Owner'], default: 'Member' });
export const InvitationCreate = Type.Object(
  { email: Type.Optional(Nullable(Email())), role: Type.Optional(InvitedRole) },
  { title: 'InvitationCreate', additionalProperties: false },
);
const invitationFields = {
  id: Id(),
  email: Nullable(Type.String()),
  role: Type.String(),
  created_at: DateTime(),
  expires_at: DateTime(),
};
export const InvitationRead = Type.Object(invitationFields, { title: 'InvitationRead' });
/** The answer to a new invitation: the only time its token is shown. */
export const InvitationCreated = Type.Object({ ...invitationFields, token: Type.String() }, { title: 'InvitationCreated' });
export const InvitationList = Type.Object({ items: Type.Array(InvitationRead), total: Type.Integer() }, { title: 'InvitationList' });

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
const normalize = (email: string) => email.trim().toLowerCase();

export function getRegistration(ctx: Ctx<OrganizationRow>): Static<typeof RegistrationRead> {
  requirePermission(ctx.role, 'OrganizationManager');
  return { policy: ctx.organization.registration as RegistrationPolicy, domains: ctx.organization.registration_domains };
}

/** Sets the organization's policy (Owners only). `domains` needs at least one domain; the list is kept as given, lower-cased. */
export async function setRegistration(ctx: Ctx<OrganizationRow>, body: Static<typeof RegistrationUpdate>): Promise<Static<typeof RegistrationRead>> {
  requirePermission(ctx.role, 'OrganizationOwner');
  const domains = [...new Set((body.domains ?? ctx.organization.registration_domains).map((d) => d.toLowerCase()))];
  if (body.policy === 'domains' && domains.length === 0) throw invalid(['domains'], 'A domains policy needs at least one domain.', 'value_error.missing');
  const before = { policy: ctx.organization.registration, domains: ctx.organization.registration_domains };
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(organization)
      .set({ registration: body.policy, registration_domains: domains, updated_at: new Date() })
      .where(eq(organization.id, ctx.organization.id))
      .returning({ policy: organization.registration, domains: organization.registration_domains });
    await audit(tx, ctx, {
      action: 'registration.policy_changed',
      target: { type: 'organization', id: ctx.organization.id, label: ctx.organization.slug },
      before,
      after: updated,
    });
    return updated;
  });
  return { policy: row.policy as RegistrationPolicy, domains: row.domains };
}

/** A new invitation (Owners and Managers), for a role no higher than the inviter's own. */
export async function createInvitation(ctx: Ctx, body: Static<typeof InvitationCreate>): Promise<Static<typeof InvitationCreated>> {
  requirePermission(ctx.role, 'OrganizationManager');
  const role = body.role ?? 'Member';
  if (!atLeast(ctx.role, role)) throw errors.forbidden(`A ${ctx.role} cannot invite a ${role}.`);
  const { row, token } = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(invitation)
      .values({
        organization_id: ctx.organization.id,
        email: body.email ? body.email.trim().toLowerCase() : null,
        role,
        // Replaced below by the hash of the token the row itself makes (invitation-mail.ts).
        token_hash: hashInvitationToken(randomBytes(32).toString('base64url')),
        created_by: ctx.user.id,
        expires_at: new Date(Date.now() + ctx.settings.invitationExp * 1000),
      })
      .returning();
    const made = invitationToken(ctx.settings, inserted);
    const [created] = await tx
      .update(invitation)
      .set({ token_hash: hashInvitationToken(made) })
      .where(eq(invitation.id, inserted.id))
      .returning();
    await mailInvitation(tx, ctx.settings, created);
    await audit(tx, ctx, {
      action: 'invitation.created',
      target: { type: 'invitation', id: created.id, label: created.email },
      after: { email: created.email, role },
    });
    return { row: created, token: made };
  });
  return { ...present(row), token };
}

const present = (row: typeof invitation.$inferSelect) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
});

/** The invitations not used yet and not expired, newest first (their tokens are never shown again). */
export async function listInvitations(ctx: Ctx): Promise<Static<typeof InvitationList>> {
  requirePermission(ctx.role, 'OrganizationManager');
  const rows = await ctx.db
    .select()
    .from(invitation)
    .where(and(eq(invitation.organization_id, ctx.organization.id), isNull(invitation.used_at), gt(invitation.expires_at, sql`now()`)))
    .orderBy(desc(invitation.created_at), desc(invitation.id));
  return { items: rows.map(present), total: rows.length };
}

/** Withdraws an invitation: it can no longer be used. */
export async function deleteInvitation(ctx: Ctx, id: number): Promise<null> {
  requirePermission(ctx.role, 'OrganizationManager');
  await ctx.db.transaction(async (tx) => {
    const gone = await tx
      .delete(invitation)
      .where(and(eq(invitation.id, id), eq(invitation.organization_id, ctx.organization.id), isNull(invitation.used_at)))
      .returning({ id: invitation.id, email: invitation.email, role: invitation.role });
    if (gone.length === 0) throw errors.notFound('An invitation');
    await audit(tx, ctx, {
      action: 'invitation.deleted',
      target: { type: 'invitation', id, label: gone[0].email },
      before: { email: gone[0].email, role: gone[0].role },
    });
  });
  return null;
}

/**
 * Whether `email` may register in `org` and with which role: with an invitation token, the role it
 * grants (locked until the transaction ends; `claimInvitation` then uses it up) and whether the
 * invitation named the address; without one, Member if the organization's policy admits the
 * address. A `domains` policy admits an address only once it is confirmed (`needsConfirmation`
 * otherwise: the registration waits for the link). 403 otherwise.
 */
export async function admission(
  tx: Executor,
  org: OrganizationRow,
  email: string,
  token: string | undefined,
  opts: { confirmed: boolean } = { confirmed: false },
): Promise<{ role: Role; invitationId?: number; named?: boolean; needsConfirmation?: boolean }> {
  if (token !== undefined) {
    const [row] = await tx
      .select({ id: invitation.id, role: invitation.role, email: invitation.email })
      .from(invitation)
      .where(
        and(
          eq(invitation.token_hash, hashInvitationToken(token)),
          eq(invitation.organization_id, org.id),
          isNull(invitation.used_at),
          gt(invitation.expires_at, sql`now()`),
        ),
      )
      .for('update');
    if (!row || (row.email !== null && row.email !== email)) throw errors.invitationInvalid();
    return { role: row.role as Role, invitationId: row.id, named: row.email !== null };
  }
  const policy = org.registration as RegistrationPolicy;
  if (policy === 'open') return { role: 'Member' };
  if (policy === 'domains') {
    if (!org.registration_domains.includes(domainOf(email))) throw errors.registrationDomain();
    return opts.confirmed ? { role: 'Member' } : { role: 'Member', needsConfirmation: true };
  }
  throw errors.registrationClosed();
}

/** The invitation a signed-in person holds, in any organization: locked, unused, unexpired, for their address if it names one. */
async function heldInvitation(tx: Executor, token: string, email: string) {
  const [row] = await tx
    .select({ id: invitation.id, organizationId: invitation.organization_id, role: invitation.role, email: invitation.email })
    .from(invitation)
    .where(and(eq(invitation.token_hash, hashInvitationToken(token)), isNull(invitation.used_at), gt(invitation.expires_at, sql`now()`)))
    .for('update');
  if (!row || (row.email !== null && row.email !== email)) throw errors.invitationInvalid();
  return row;
}

export const InvitationAccept = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { title: 'InvitationAccept', additionalProperties: false },
);
export const InvitationAccepted = Type.Object(
  { organization: Type.Object({ id: Id(), slug: Type.String(), name: Type.String() }), role: Type.String() },
  { title: 'InvitationAccepted' },
);

/**
 * A signed-in person joins the organization an invitation is for: how an existing account joins
 * another organization (never by registering again with its password). An invitation that names the
 * address confirms it, as it does at registration. 409 when they are a member already.
 */
export async function acceptInvitation(db: Executor, caller: UserRef, token: string, address?: string): Promise<Static<typeof InvitationAccepted>> {
  return db.transaction(async (tx) => {
    const held = await heldInvitation(tx, token, normalize(caller.email));
    const [org] = await tx.select().from(organization).where(eq(organization.id, held.organizationId));
    const [member] = await tx
      .select({ id: userOrganization.user_id })
      .from(userOrganization)
      .where(and(eq(userOrganization.user_id, caller.id), eq(userOrganization.organization_id, org.id)));
    if (member) throw errors.conflict('You are a member of this organization already.');
    await addMembership(tx, { userId: caller.id, organizationId: org.id, role: held.role as Role });
    await claimInvitation(tx, held.id, caller.id);
    if (held.email !== null)
      await tx
        .update(appUser)
        .set({ email_confirmed_at: sql`coalesce(${appUser.email_confirmed_at}, now())` })
        .where(eq(appUser.id, caller.id));
    await audit(
      tx,
      { organizationId: org.id, userId: caller.id, email: caller.email, address },
      {
        action: 'invitation.accepted',
        target: { type: 'invitation', id: held.id, label: held.email },
        after: { role: held.role },
      },
    );
    return { organization: { id: org.id, slug: org.slug, name: org.name }, role: held.role };
  });
}

/** Marks the invitation used by the user just registered. */
export async function claimInvitation(tx: Executor, invitationId: number, userId: number) {
  await tx.update(invitation).set({ used_at: new Date(), used_by: userId }).where(eq(invitation.id, invitationId));
}
