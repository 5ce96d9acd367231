// How members of an organization may sign in (beyond Dispatch 0.1.0): with a password, and with
// single sign-on when a provider is configured. GET /{organization}/auth/methods (public) tells the
// sign-in page what to offer; GET/PUT /{organization}/sign-in reads and sets whether passwords are
// accepted (Owners only set it, and only while single sign-on is configured: an organization must
// keep one way in).
import { eq } from 'drizzle-orm';
import { Type, type Static } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import { requirePermission, type Ctx } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import { Nullable } from '../../server/shapes.ts';
import { audit } from '../audit/record.ts';
import { organization, type OrganizationRow } from '../organization/table.ts';
import type { Sso } from './sso.ts';

export const SignInRead = Type.Object(
  {
    password_login: Type.Boolean(),
    sso: Nullable(Type.Object({ name: Type.String(), issuer: Type.String() })),
  },
  { title: 'SignInRead' },
);
export const SignInUpdate = Type.Object({ password_login: Type.Boolean() }, { title: 'SignInUpdate', additionalProperties: false });

export const SignInMethods = Type.Object(
  {
    password: Type.Boolean(),
    sso: Nullable(Type.Object({ name: Type.String(), url: Type.String() })),
  },
  { title: 'SignInMethods' },
);

/** Whether passwords are accepted in the organization: its switch counts only while a provider is configured (as login checks). */
export const passwordAccepted = (org: Pick<OrganizationRow, 'password_login'>, sso: Sso | null) => org.password_login || !sso?.issuer;

const ssoOf = (sso: Sso | null) => (sso?.browserSignIn ? { name: sso.name, issuer: sso.issuer! } : null);

/** The sign-in page's choices for an organization (unauthenticated: what any visitor sees). */
export async function signInMethods(db: Executor, orgSlug: string, sso: Sso | null, prefix: string): Promise<Static<typeof SignInMethods>> {
  const [org] = await db.select({ password_login: organization.password_login }).from(organization).where(eq(organization.slug, orgSlug));
  if (!org) throw errors.organizationNotFound();
  return {
    password: passwordAccepted(org, sso),
    sso: sso?.browserSignIn ? { name: sso.name, url: `${prefix}/${orgSlug}/auth/sso/login` } : null,
  };
}

export function getSignIn(ctx: Ctx<OrganizationRow>, sso: Sso | null): Static<typeof SignInRead> {
  requirePermission(ctx.role, 'OrganizationManager');
  return { password_login: ctx.organization.password_login, sso: ssoOf(sso) };
}

/** Turns password sign-in on or off (Owners). Off needs single sign-on configured, so that members keep a way in. */
export async function setSignIn(ctx: Ctx<OrganizationRow>, sso: Sso | null, body: Static<typeof SignInUpdate>): Promise<Static<typeof SignInRead>> {
  requirePermission(ctx.role, 'OrganizationOwner');
  if (!body.password_login && !sso?.browserSignIn) {
    throw invalid(['password_login'], 'Password sign-in can be turned off only while single sign-on is configured.', 'value_error');
  }
  const before = ctx.organization.password_login;
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(organization)
      .set({ password_login: body.password_login, updated_at: new Date() })
      .where(eq(organization.id, ctx.organization.id))
      .returning({ password_login: organization.password_login });
    if (before !== updated.password_login) {
      await audit(tx, ctx, {
        action: 'organization.sign_in_changed',
        target: { type: 'organization', id: ctx.organization.id, label: ctx.organization.slug },
        before: { password_login: before },
        after: { password_login: updated.password_login },
      });
    }
    return updated;
  });
  return { password_login: row.password_login, sso: ssoOf(sso) };
}
