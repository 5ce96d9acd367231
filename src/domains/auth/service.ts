import { and, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { readColumns as readColumnsOf } from '../../db/columns.ts';
import type { ListDefinition } from '../../list/definition.ts';
import { runList } from '../../list/engine.ts';
import { atLeast, isRole, requirePermission, type Ctx, type Role, type UserRef } from '../../server/context.ts';
import { errors, invalid, validationError } from '../../server/errors.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { organization, type OrganizationRow } from '../organization/table.ts';
import { projectColumns } from '../project/service.ts';
import { project, type ProjectRow } from '../project/table.ts';
import { decoyHash, hashPassword, needsRehash, randomPassword, verifyPassword } from './password.ts';
import type { UserLoginT, UserRegisterT, UserUpdateT } from './schema.ts';
import { admission, claimInvitation } from './registration.ts';
import type { Settings } from '../../config.ts';
import { audit } from '../audit/record.ts';
import { checkNewPassword, setPassword } from './account.ts';
import { isServiceAccountAddress } from './api-token.ts';
import { mailConfigured, sendAccountMail } from './account-mail.ts';
import { addMembership, removeMembership } from './membership.ts';
import { appUser, loginFailure, userOrganization, userProject } from './table.ts';
import type { Tokens } from './token.ts';

const FIRST_USER_LOCK = 7_357_114;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const orgColumns = readColumnsOf(organization);

export interface Caller {
  user: UserRef;
  organization: OrganizationRow | null;
  role: Role | null;
  /** Tokens issued before this instant (seconds since the epoch) are refused; null: none are. */
  tokensValidAfter: number | null;
  /** A service account, which never signs in with a session token. */
  serviceAccount: boolean;
}

/** The three shapes of the caller query, prepared once per database: no organization, by slug, by id. */
function callerQueries(db: Executor) {
  const query = (orgMatch: SQL, name: string) =>
    db
      .select({
        id: appUser.id,
        email: appUser.email,
        confirmed: sql<boolean>`${appUser.email_confirmed_at} IS NOT NULL`,
        validAfter: sql<number | null>`floor(extract(epoch FROM ${appUser.tokens_valid_after}))::float8`,
        serviceAccount: appUser.service_account,
        role: userOrganization.role,
        organization: orgColumns,
      })
      .from(appUser)
      .leftJoin(organization, orgMatch)
      .leftJoin(userOrganization, and(eq(userOrganization.user_id, appUser.id), eq(userOrganization.organization_id, organization.id)))
      .where(and(eq(appUser.email, sql.placeholder('email')), isNull(appUser.deactivated_at)))
      .limit(1)
      .prepare(name);
  return {
    none: query(sql`FALSE`, 'muster_caller'),
    slug: query(eq(organization.slug, sql.placeholder('org')), 'muster_caller_by_slug'),
    id: query(eq(organization.id, sql.placeholder('org')), 'muster_caller_by_id'),
  };
}
const preparedCallers = new WeakMap<Executor, ReturnType<typeof callerQueries>>();

/**
 * The caller and, when the URL names one, the organization and the caller's role in it, in a
 * single prepared query: this runs on every authenticated request. A deactivated user is no caller.
 */
export async function resolveCaller(db: Executor, email: string, org?: { slug: string } | { id: number }): Promise<Caller | null> {
  let queries = preparedCallers.get(db);
  if (!queries) preparedCallers.set(db, (queries = callerQueries(db)));
  const params = { email: normalizeEmail(email), org: org ? ('slug' in org ? org.slug : org.id) : null };
  const [row] = await (!org ? queries.none : 'slug' in org ? queries.slug : queries.id).execute(params);
  if (!row) return null;
  return {
    user: row.confirmed ? { id: row.id, email: row.email } : { id: row.id, email: row.email, unconfirmed: true },
    organization: (row.organization as OrganizationRow | null) ?? null,
    role: isRole(row.role) ? row.role : null,
    tokensValidAfter: row.validAfter == null ? null : Number(row.validAfter),
    serviceAccount: row.serviceAccount,
  };
}

interface Memberships {
  organizations: { organization: OrganizationRow; default: boolean; role: string | null }[];
  projects: { project: ProjectRow; default: boolean; role: string | null }[];
}

/** Organization and project memberships of the given users, optionally within one organization. */
async function membershipsOf(db: Executor, userIds: number[], organizationId?: number): Promise<Map<number, Memberships>> {
  const out = new Map<number, Memberships>(userIds.map((id) => [id, { organizations: [], projects: [] }]));
  if (userIds.length === 0) return out;
  const inOrg = (col: typeof userOrganization.organization_id | typeof userProject.organization_id): SQL | undefined =>
    organizationId === undefined ? undefined : eq(col, organizationId);
  const [orgs, projects] = await Promise.all([
    db
      .select({ user_id: userOrganization.user_id, default: userOrganization.default, role: userOrganization.role, organization: orgColumns })
      .from(userOrganization)
      .innerJoin(organization, eq(organization.id, userOrganization.organization_id))
      .where(and(inArray(userOrganization.user_id, userIds), inOrg(userOrganization.organization_id)))
      .orderBy(organization.id),
    db
      .select({ user_id: userProject.user_id, default: userProject.default, role: userProject.role, project: projectColumns })
      .from(userProject)
      .innerJoin(project, eq(project.id, userProject.project_id))
      .where(and(inArray(userProject.user_id, userIds), inOrg(userProject.organization_id)))
      .orderBy(project.id),
  ]);
  for (const o of orgs) out.get(o.user_id)!.organizations.push({ organization: o.organization as OrganizationRow, default: o.default, role: o.role });
  for (const p of projects) out.get(p.user_id)!.projects.push({ project: p.project as ProjectRow, default: p.default, role: p.role });
  return out;
}

export async function findOrganization(db: Executor, slug: string): Promise<OrganizationRow> {
  const [row] = await db.select(orgColumns).from(organization).where(eq(organization.slug, slug));
  if (!row) throw errors.organizationNotFound();
  return row as OrganizationRow;
}

const loginFailed = () =>
  validationError([
    { loc: ['username'], msg: 'Invalid username.', type: 'value_error.invalid.username' },
    { loc: ['password'], msg: 'Invalid password.', type: 'value_error.invalid.password' },
  ]);

/** How many failed logins are let through per account and client address together, and per client address, within a window of seconds. */
export interface LoginLimits {
  perAccount: number;
  perAddress: number;
  window: number;
}

type Key = { key: string; limit: number };

/**
 * 429 with the seconds left when a key has failed its limit in the current window; windows over do
 * not count. Unknown accounts are counted as known ones are, so the answers tell nothing about which exist.
 */
async function checkLimits(db: Executor, keys: Key[], window: number) {
  const rows = await db
    .select({
      key: loginFailure.key,
      failures: loginFailure.failures,
      left: sql<number>`EXTRACT(EPOCH FROM (${loginFailure.window_start} + make_interval(secs => ${window}) - now()))::float8`,
    })
    .from(loginFailure)
    .where(
      and(
        inArray(
          loginFailure.key,
          keys.map((k) => k.key),
        ),
        sql`${loginFailure.window_start} > now() - make_interval(secs => ${window})`,
      ),
    );
  const over = rows.filter((r) => r.failures >= keys.find((k) => k.key === r.key)!.limit);
  if (over.length) throw errors.tooManyLogins(Math.max(...over.map((r) => Number(r.left))));
  return new Set(rows.map((r) => r.key));
}

/** Counts an attempt under each key, in a window that starts with the first (a window over starts again). */
async function countAttempt(db: Executor, keys: Key[], window: number) {
  const over = sql`${loginFailure.window_start} <= now() - make_interval(secs => ${window})`;
  await db.execute(sql`
    INSERT INTO ${loginFailure} (key, failures, window_start)
    SELECT k, 1, now() FROM unnest(${sql.param(keys.map((k) => k.key))}::text[]) AS k
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN ${over} THEN 1 ELSE ${loginFailure.failures} + 1 END,
      window_start = CASE WHEN ${over} THEN now() ELSE ${loginFailure.window_start} END`);
  // Counts of windows long over go, a few at a time, so that the table holds little more than live windows.
  await db.execute(
    sql`DELETE FROM ${loginFailure} WHERE key IN (SELECT key FROM ${loginFailure} WHERE window_start < now() - make_interval(secs => ${window}) LIMIT 20)`,
  );
}

/** Counts an attempt under `key` (a client address's registrations or reset requests); 429 past the per-address limit. */
export async function limitAttempts(db: Executor, key: string, limits: LoginLimits) {
  const keys = [{ key, limit: limits.perAddress }];
  await checkLimits(db, keys, limits.window);
  await countAttempt(db, keys, limits.window);
}

export interface ClientInfo {
  address?: string;
  limits: LoginLimits;
}

/**
 * Signs in with a password. Failures are limited per account and client address together, and per
 * client address: a guesser is stopped, while the account's own person, from their own address,
 * still signs in (a stranger's failures never lock them out). Sign-ins and failures are audited.
 */
export async function login(db: Executor, tokens: Tokens, settings: Settings, orgSlug: string, body: UserLoginT, client: ClientInfo) {
  const org = await findOrganization(db, orgSlug);
  const email = normalizeEmail(body.email);
  const { limits, address } = client;
  const pairKey = `account:${email}|${address ?? ''}`;
  const keys: Key[] = [{ key: pairKey, limit: limits.perAccount }, ...(address ? [{ key: `address:${address}`, limit: limits.perAddress }] : [])];
  const counting = await checkLimits(db, keys, limits.window);
  const [user] = await db.select().from(appUser).where(eq(appUser.email, email));
  const usable = user && !user.deactivated_at && !user.service_account;
  const failed = async () => {
    await countAttempt(db, keys, limits.window);
    await audit(db, { organizationId: org.id, userId: user?.id ?? null, email, address }, { action: 'auth.login_failed' });
    return loginFailed();
  };
  if (!usable) {
    await verifyPassword(body.password, await decoyHash(settings.passwordCost));
    throw await failed();
  }
  if (!(await verifyPassword(body.password, user.password))) throw await failed();
  if (!org.password_login && settings.oidcIssuer) throw errors.passwordLoginOff();
  // A successful sign-in starts this pair's count again (not the address's: one account known to an
  // attacker must not reset the count of their guesses at others).
  if (counting.has(pairKey)) await db.delete(loginFailure).where(eq(loginFailure.key, pairKey));
  if (needsRehash(user.password, settings.passwordCost)) {
    await db
      .update(appUser)
      .set({ password: await hashPassword(body.password, settings.passwordCost) })
      .where(eq(appUser.id, user.id));
  }
  await audit(db, { organizationId: org.id, userId: user.id, email, address }, { action: 'auth.login' });
  const memberships = (await membershipsOf(db, [user.id])).get(user.id)!;
  return { token: await tokens.issue(user.email), projects: memberships.projects };
}

/**
 * Registers a new account in the URL's organization, if its policy admits the address or the
 * caller brings an invitation to it (registration.ts): 403 otherwise, before anything else. Attempts
 * are limited per client address. Never joins an existing account and never checks its password:
 * an existing account joins another organization by accepting an invitation while signed in.
 *
 * With a mail transport every registration that is not the installation's first answers alike
 * (`{token: null}`): a new address gets a confirmation link and joins the organization once
 * confirmed; an existing one gets a notice. Without one, a new account gets its token at once (its
 * address unconfirmed unless an invitation named it), and an existing address answers
 * `{token: null}` (docs/security.md says what that tells and why).
 */
export async function register(db: Executor, tokens: Tokens, settings: Settings, orgSlug: string, body: UserRegisterT, client: ClientInfo) {
  const org = await findOrganization(db, orgSlug);
  const email = normalizeEmail(body.email);
  if (isServiceAccountAddress(email)) throw invalid(['email'], 'This address is reserved for service accounts.', 'value_error.email');
  if (body.invitation === undefined) await admission(db, org, email, undefined);
  if (body.password != null) checkNewPassword(body.password);
  if (client.address) await limitAttempts(db, `register:${client.address}`, client.limits);
  const mail = mailConfigured(settings);
  const password = await hashPassword(body.password ?? randomPassword(), settings.passwordCost);
  const joined = await db.transaction(async (tx) => {
    // Serialises registrations so that exactly one can be the first.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_USER_LOCK})`);
    const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(appUser);
    const first = n === 0;
    if (!mail && body.invitation === undefined && org.registration === 'domains' && !first) throw errors.registrationNeedsMail();
    const admitted = await admission(tx, org, email, body.invitation, { confirmed: first });
    const [existing] = await tx.select({ id: appUser.id }).from(appUser).where(eq(appUser.email, email));
    if (existing) {
      if (mail) await sendAccountMail(tx, { user_id: existing.id, organization_id: org.id, kind: 'exists' });
      return false;
    }
    // Proven now: the installation's first account, or an address an invitation named (its inviter vouched for it).
    const confirmed = first || admitted.named === true;
    const [user] = await tx
      .insert(appUser)
      .values({ email, password, email_confirmed_at: confirmed ? new Date() : null })
      .returning({ id: appUser.id });
    if (mail && !confirmed) await sendAccountMail(tx, { user_id: user.id, organization_id: org.id, kind: 'confirm' });
    // With mail, a registration by policy joins when its link is followed (account.ts confirmAddress);
    // an invitation admits at once.
    if (admitted.invitationId === undefined && mail && !confirmed) return false;
    if (admitted.needsConfirmation) throw errors.registrationNeedsMail();
    if (admitted.invitationId !== undefined) await claimInvitation(tx, admitted.invitationId, user.id);
    const role = first ? 'Owner' : admitted.role;
    const projects = body.projects.length ? await resolveProjects(tx, org.id, body.projects) : [];
    await addMembership(tx, { userId: user.id, organizationId: org.id, role, projects });
    await audit(
      tx,
      { organizationId: org.id, userId: user.id, email, address: client.address },
      {
        action: 'user.registered',
        target: { type: 'user', id: user.id, label: email },
        after: { role, confirmed },
      },
    );
    return true;
  });
  return { token: joined ? await tokens.issue(email) : null };
}

type ProjectInput = { project: { id?: number; name?: string }; default?: boolean; role?: string | null };

/** Projects named in a body (by id, else by name) within the organization; unknown ones are a 422. */
async function resolveProjects(db: Executor, organizationId: number, inputs: ProjectInput[]) {
  const rows = (await db.select(projectColumns).from(project).where(eq(project.organization_id, organizationId))) as ProjectRow[];
  return inputs.map((input, i) => {
    const found = rows.find((r) => (input.project.id !== undefined ? r.id === input.project.id : r.name === input.project.name));
    if (!found) throw invalid(['projects', i, 'project'], 'Project not found.', 'value_error.not_found');
    return { project: found, default: input.default ?? false, role: input.role ?? null };
  });
}

export async function me(db: Executor, user: UserRef) {
  const memberships = (await membershipsOf(db, [user.id])).get(user.id)!;
  return { id: user.id, email: user.email, ...memberships, role: null };
}

const memberOf = (organizationId: number) =>
  sql`EXISTS (SELECT 1 FROM ${userOrganization} WHERE ${userOrganization.user_id} = ${appUser.id} AND ${userOrganization.organization_id} = ${organizationId})`;

const userList: ListDefinition<{ id: typeof appUser.id; email: typeof appUser.email }> = {
  model: 'DispatchUser',
  tableName: 'app_user',
  table: appUser,
  columns: { id: appUser.id, email: appUser.email },
  idColumn: appUser.id,
  searchVector: appUser.search_vector,
  fields: { id: 'int', email: 'text', created_at: 'timestamp' },
  relations: [
    {
      kind: 'many',
      model: 'Project',
      tableName: 'project',
      table: project,
      fields: { id: 'int', name: 'text' },
      exists: (condition) =>
        sql`EXISTS (SELECT 1 FROM ${userProject} JOIN ${project} ON ${project.id} = ${userProject.project_id} WHERE ${userProject.user_id} = ${appUser.id} AND ${condition})`,
    },
  ],
};

async function readUsers(ctx: Ctx, users: { id: number; email: string }[]) {
  const memberships = await membershipsOf(
    ctx.db,
    users.map((u) => u.id),
    ctx.organization.id,
  );
  return users.map((u) => {
    const m = memberships.get(u.id)!;
    return { id: u.id, email: u.email, ...m, role: m.organizations[0]?.role ?? null };
  });
}

/** Members of the caller's organization, with their role in it. */
export async function listUsers(ctx: Ctx, query: ListQueryT) {
  const page = await runList<{ id: number; email: string }>(ctx.db, ctx, userList, query, memberOf(ctx.organization.id));
  return { ...page, items: await readUsers(ctx, page.items) };
}

async function member(ctx: Ctx, id: number) {
  const [row] = await ctx.db
    .select({ id: appUser.id, email: appUser.email, role: userOrganization.role })
    .from(appUser)
    .innerJoin(userOrganization, and(eq(userOrganization.user_id, appUser.id), eq(userOrganization.organization_id, ctx.organization.id)))
    .where(eq(appUser.id, id));
  if (!row) throw errors.notFound('A user');
  return row;
}

export async function getUser(ctx: Ctx, id: number) {
  const [read] = await readUsers(ctx, [await member(ctx, id)]);
  return read;
}

/**
 * Users change their own project memberships, and their password with the current one; an Owner
 * changes anyone's project memberships and roles, never another person's password (accounts are
 * global: their person may belong to other organizations). An omitted role leaves the role as it is.
 */
export async function updateUser(ctx: Ctx, id: number, body: UserUpdateT) {
  const target = await member(ctx, id);
  const self = target.id === ctx.user.id;
  const owner = atLeast(ctx.role, 'Owner');
  if (!self && !owner) throw errors.forbidden("You don't have permissions to update this user. Please, contact your Muster admin.");
  const roleChange = body.role != null && body.role !== target.role;
  if (body.role != null && !isRole(body.role)) {
    throw invalid(['role'], `value is not a valid enumeration member; permitted: 'Owner', 'Manager', 'Admin', 'Member'`, 'type_error.enum');
  }
  if (roleChange && !owner) throw errors.forbidden("You don't have permissions to update the user's role. Please, contact your Muster admin.");
  if (body.password != null) {
    if (!self) throw errors.forbidden('A password is set only by its person: send them a reset link, or remove them from the organization.');
    const [row] = await ctx.db.select({ password: appUser.password }).from(appUser).where(eq(appUser.id, id));
    if (body.current_password == null || !(await verifyPassword(body.current_password, row.password))) {
      throw invalid(['current_password'], 'The current password is needed to set a new one.', 'value_error.invalid.password');
    }
    checkNewPassword(body.password);
  }
  await ctx.db.transaction(async (tx) => {
    if (roleChange) {
      if (target.role === 'Owner') await keepAnOwner(tx, ctx.organization.id, id);
      await tx
        .update(userOrganization)
        .set({ role: body.role! })
        .where(and(eq(userOrganization.user_id, id), eq(userOrganization.organization_id, ctx.organization.id)));
      await audit(tx, ctx, {
        action: 'user.role_changed',
        target: { type: 'user', id, label: target.email },
        before: { role: target.role },
        after: { role: body.role },
      });
    }
    if (body.password != null) {
      await setPassword(tx, id, body.password, ctx.settings.passwordCost);
      await audit(tx, ctx, { action: 'user.password_changed', target: { type: 'user', id, label: target.email } });
    }
    if (body.projects) {
      const projects = await resolveProjects(tx, ctx.organization.id, body.projects);
      // Dispatch semantics: the listed projects are the user's defaults; memberships are kept.
      await tx
        .update(userProject)
        .set({ default: false })
        .where(and(eq(userProject.user_id, id), eq(userProject.organization_id, ctx.organization.id)));
      for (const p of projects) {
        await tx
          .insert(userProject)
          .values({ user_id: id, project_id: p.project.id, organization_id: ctx.organization.id, default: p.default, role: p.role ?? 'Member' })
          .onConflictDoUpdate({ target: [userProject.user_id, userProject.project_id], set: { default: p.default, ...(p.role ? { role: p.role } : {}) } });
      }
    }
  });
  return getUser(ctx, id);
}

/** 409 unless the organization has an Owner besides `userId` (who is about to stop being one). */
async function keepAnOwner(tx: Executor, organizationId: number, userId: number) {
  const [{ n }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(userOrganization)
    .where(and(eq(userOrganization.organization_id, organizationId), eq(userOrganization.role, 'Owner'), ne(userOrganization.user_id, userId)));
  if (n === 0) throw errors.conflict('An organization needs at least one Owner; make someone else Owner first.');
}

/**
 * Removes a member from the organization (Owners; anyone may leave): their role, project memberships
 * and API tokens there end at once. The account itself, global, stays. The last Owner stays.
 */
export async function removeMember(ctx: Ctx, id: number) {
  const target = await member(ctx, id);
  if (target.id !== ctx.user.id) requirePermission(ctx.role, 'OrganizationOwner');
  await ctx.db.transaction(async (tx) => {
    if (target.role === 'Owner') await keepAnOwner(tx, ctx.organization.id, id);
    await removeMembership(tx, id, ctx.organization.id);
    await audit(tx, ctx, { action: 'user.removed', target: { type: 'user', id, label: target.email }, before: { role: target.role } });
  });
  return null;
}
