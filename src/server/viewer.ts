// Who reads: the caller (their context), whose organization, email and role decide which
// Restricted records they see, or the service itself reading on its own account (evaluating an
// organization's saved rules, answering a write it has just made for a caller who may see it all).
import { sql, type SQL } from 'drizzle-orm';
import { atLeast, provenEmail, type Ctx } from './context.ts';

/** The service reading on its own account: nothing is narrowed beyond what the query itself says. */
export const UNRESTRICTED = 'unrestricted' as const;

/** A caller's viewer carries their request's logger when they have one (`log`). */
export type Viewer = Pick<Ctx, 'organization' | 'user' | 'role' | 'log'> | typeof UNRESTRICTED;

/**
 * A viewer as the terms visibility rules are written in: values (a list's query, built per request)
 * or placeholders (a read prepared once per database, `paramsOf` giving their values).
 */
export interface ViewerTerms {
  organization: number | SQL;
  email: string | SQL;
  /** Sees every record of the organization (Admins and above). */
  all: boolean | SQL;
}

export const termsOf = (ctx: Pick<Ctx, 'organization' | 'user' | 'role'>): ViewerTerms => ({
  organization: ctx.organization.id,
  email: provenEmail(ctx.user),
  all: atLeast(ctx.role, 'Admin'),
});

/**
 * What a read of the organization's records depends on of its reader: Admins and above see every
 * record alike; a Member, the Restricted records their proven address takes part in, so each
 * Member reads apart. Reads with the same kind may share their answer.
 */
export const readerKind = (ctx: Pick<Ctx, 'user' | 'role'>): string => (atLeast(ctx.role, 'Admin') ? 'all' : `member ${ctx.user.id} ${provenEmail(ctx.user)}`);

/** The terms of a prepared read: their values come from `paramsOf`. */
export const PLACEHOLDERS: ViewerTerms = {
  organization: sql`${sql.placeholder('viewer_organization')}::int`,
  email: sql`${sql.placeholder('viewer_email')}::text`,
  all: sql`${sql.placeholder('viewer_all')}::boolean`,
};

export const paramsOf = (ctx: Pick<Ctx, 'organization' | 'user' | 'role'>) => ({
  viewer_organization: ctx.organization.id,
  viewer_email: provenEmail(ctx.user),
  viewer_all: atLeast(ctx.role, 'Admin'),
});
