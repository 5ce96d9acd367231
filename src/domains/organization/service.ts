import { eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { readColumns as readColumnsOf } from '../../db/columns.ts';
import { runList } from '../../list/engine.ts';
import type { ListDefinition } from '../../list/definition.ts';
import { ApiError, errors } from '../../server/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { toHex } from '../../server/color.ts';
import type { Ctx, RequestLog, UserRef } from '../../server/context.ts';
import { requirePermission } from '../../server/context.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { userOrganization } from '../auth/table.ts';
import { audit, changedFields } from '../audit/record.ts';
import { insertProject } from '../project/service.ts';
import type { OrganizationCreateT, OrganizationUpdateT } from './schema.ts';
import { UNRESTRICTED } from '../../server/viewer.ts';
import { slugify } from '../../lib/slug.ts';
import { organization, type OrganizationRow } from './table.ts';

const readColumns = readColumnsOf(organization);

export const organizationList: ListDefinition<typeof readColumns> = {
  model: 'Organization',
  tableName: 'organization',
  table: organization,
  columns: readColumns,
  idColumn: organization.id,
  searchVector: organization.search_vector,
  fields: { id: 'int', name: 'text', slug: 'text', description: 'text', default: 'bool', banner_enabled: 'bool', banner_text: 'text' },
};

/** The organizations the caller belongs to: nobody reads another organization's record. */
export function listOrganizations(db: Executor, user: UserRef, query: ListQueryT, log?: RequestLog) {
  const mine = sql`EXISTS (SELECT 1 FROM ${userOrganization} WHERE ${userOrganization.organization_id} = ${organization.id} AND ${userOrganization.user_id} = ${user.id})`;
  // Organizations relate to no incident or case: nothing to narrow beyond `mine`.
  return runList<OrganizationRow>(db, UNRESTRICTED, organizationList, query, mine, undefined, log);
}

const colour = (value: string | null | undefined) => (value == null ? value : toHex(value));

/** Where a request that has no organization yet comes from, for the audit log. */
export interface Origin {
  address?: string | null;
  tokenId?: number | null;
}

/**
 * Creates an organization with its default project; the creator becomes its Owner. Its audit log
 * opens with `organization.created` (no actor when Muster creates `default` itself).
 */
export async function createOrganization(
  db: Executor,
  user: UserRef | null,
  body: OrganizationCreateT,
  description?: string,
  origin: Origin = {},
): Promise<OrganizationRow> {
  const name = body.name.trim();
  const slug = slugify(name);
  if (slug.length < 3) {
    throw errors.conflict(`The name "${name}" gives the URL slug "${slug}"; use a name with at least 3 letters or digits.`);
  }
  const nameTaken = () => errors.conflict('An organization with this name already exists.');
  return db
    .transaction(async (tx) => {
      const clash = await tx
        .select({ name: organization.name, slug: organization.slug })
        .from(organization)
        .where(or(eq(organization.name, name), eq(organization.slug, slug)));
      if (clash.length) {
        throw clash.some((c) => c.name === name) ? nameTaken() : errors.conflict(`An organization with this slug (${slug}) already exists.`);
      }
      const [row] = await tx
        .insert(organization)
        .values({
          name,
          slug,
          description: body.description ?? description ?? null,
          default: body.default ?? false,
          banner_enabled: body.banner_enabled ?? false,
          banner_text: body.banner_text ?? null,
          banner_color: colour(body.banner_color) ?? null,
          // `default` stays open to self-registration (the first start's Owner registers there); others need an invitation.
          registration: slug === DEFAULT_ORGANIZATION ? 'open' : 'invitation',
        })
        .returning();
      if (user) await tx.insert(userOrganization).values({ user_id: user.id, organization_id: row.id, role: 'Owner' });
      await insertProject(tx, row, { name: 'default', default: true, description: 'Default Dispatch project.' });
      await audit(
        tx,
        { organizationId: row.id, userId: user?.id, email: user?.email, address: origin.address, tokenId: origin.tokenId },
        { action: 'organization.created', target: { type: 'organization', id: row.id, label: row.name }, after: strip(row) },
      );
      return strip(row);
    })
    .catch((err) => {
      // Two creations of one name racing: the unique index decides, the loser hears 409.
      throw isUniqueViolation(err) ? nameTaken() : err;
    });
}

export async function updateOrganization(ctx: Ctx, body: OrganizationUpdateT): Promise<OrganizationRow> {
  requirePermission(ctx.role, 'OrganizationOwner');
  const changes: Partial<OrganizationRow> = { updated_at: new Date() };
  for (const key of ['description', 'default', 'banner_enabled', 'banner_text'] as const) {
    if (body[key] !== undefined) (changes as Record<string, unknown>)[key] = body[key] ?? (key === 'default' || key === 'banner_enabled' ? false : null);
  }
  if (body.banner_color !== undefined) changes.banner_color = colour(body.banner_color) ?? null;
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx.select(readColumns).from(organization).where(eq(organization.id, ctx.organization.id)).for('update');
    const [row] = await tx.update(organization).set(changes).where(eq(organization.id, ctx.organization.id)).returning();
    const after = strip(row);
    await audit(tx, ctx, {
      action: 'organization.updated',
      target: { type: 'organization', id: row.id, label: row.name },
      ...changedFields(before as Record<string, unknown>, after as Record<string, unknown>),
    });
    return after;
  });
}

function strip(row: OrganizationRow): OrganizationRow {
  const { search_vector: _v, ...rest } = row;
  return rest as OrganizationRow;
}

export const DEFAULT_ORGANIZATION = 'default';

/** Creates organization `default` and its project `default` when they are missing. */
export async function ensureDefaultOrganization(db: Executor): Promise<boolean> {
  const found = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, DEFAULT_ORGANIZATION));
  if (found.length) return false;
  try {
    await createOrganization(db, null, { name: DEFAULT_ORGANIZATION, default: true }, 'Default Dispatch organization.');
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 409) return false; // another node created it first
    throw err;
  }
}
