import type { PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { and, eq, ne, sql } from 'drizzle-orm';
import { audit, deletedEntry } from '../audit/record.ts';
import { type Executor, inTransaction } from '../../db/connection.ts';
import { readColumns as readColumnsOf } from '../../db/columns.ts';
import { isUniqueViolation, pgError } from '../../db/errors.ts';
import type { ListDefinition } from '../../list/definition.ts';
import { runList } from '../../list/engine.ts';
import type { Ctx } from '../../server/context.ts';
import { requirePermission } from '../../server/context.ts';
import { errors, exists } from '../../server/errors.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { slugify } from '../../lib/slug.ts';
import { organization, type OrganizationRow } from '../organization/table.ts';
import type { ProjectCreateT, ProjectUpdateT } from './schema.ts';
import { seedProject } from './seed.ts';
import { project, type ProjectRow } from './table.ts';

const readColumns = readColumnsOf(project);
export const projectColumns = readColumns;

export const projectList: ListDefinition<typeof readColumns> = {
  model: 'Project',
  tableName: 'project',
  table: project,
  columns: readColumns,
  idColumn: project.id,
  searchVector: project.search_vector,
  fields: {
    id: 'int',
    name: 'text',
    description: 'text',
    default: 'bool',
    color: 'text',
    annual_employee_cost: 'int',
    business_year_hours: 'int',
    owner_email: 'text',
    owner_conversation: 'text',
    display_name: 'text',
    enabled: 'bool',
    allow_self_join: 'bool',
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  relations: [
    {
      kind: 'one',
      model: 'Organization',
      tableName: 'organization',
      table: organization,
      on: eq(organization.id, project.organization_id),
      fields: { id: 'int', name: 'text', slug: 'text' },
    },
  ],
};

const inOrganization = (ctx: { organization: { id: number } }) => eq(project.organization_id, ctx.organization.id);

export const listProjects = (ctx: Ctx, query: ListQueryT) => runList<ProjectRow>(ctx.db, ctx, projectList, query, inOrganization(ctx));

const nameTaken = () => exists('name', 'A project with this name already exists.');
const notFound = () => errors.notFound('A project');

/** GET project's query, prepared once per database: it runs on every read of a project. */
const byId = (db: Executor) =>
  db
    .select(readColumns)
    .from(project)
    .where(and(eq(project.organization_id, sql.placeholder('organization')), eq(project.id, sql.placeholder('id'))))
    .prepare('muster_project_by_id');
const preparedById = new WeakMap<Executor, ReturnType<typeof byId>>();

export async function getProject(ctx: Ctx, id: number): Promise<ProjectRow> {
  const db = ctx.db;
  // A transaction's one short-lived connection runs it unprepared.
  const [row] = inTransaction(db)
    ? await db
        .select(readColumns)
        .from(project)
        .where(and(inOrganization(ctx), eq(project.id, id)))
    : await (preparedById.get(db) ?? preparedById.set(db, byId(db)).get(db)!).execute({ organization: ctx.organization.id, id });
  if (!row) throw notFound();
  return row as ProjectRow;
}

type ProjectFields = Omit<ProjectUpdateT, 'id'>;

/** Only one project per organization is the default: setting one clears the previous. */
async function clearOtherDefaults(tx: Executor, organizationId: number, keepId: number) {
  await tx
    .update(project)
    .set({ default: false })
    .where(and(eq(project.organization_id, organizationId), eq(project.default, true), ne(project.id, keepId)));
}

/** The stored values of a body: `name` trimmed with its slug, and null or empty web UI fields as their defaults. */
function values(body: ProjectFields) {
  const out: PgUpdateSetSource<typeof project> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined && k !== 'organization') (out as Record<string, unknown>)[k] = v;
  if (body.name !== undefined) {
    out.name = body.name.trim();
    out.slug = slugify(body.name.trim(), '-');
  }
  // An empty display name is the project's name (on an update without one, the stored name).
  if (body.display_name === null || body.display_name?.trim() === '') out.display_name = out.name ?? sql`${project.name}`;
  else if (body.display_name !== undefined) out.display_name = body.display_name.trim();
  for (const flag of ['enabled', 'allow_self_join'] as const) if (body[flag] === null) out[flag] = true;
  return out;
}

/** Inserts and seeds a project inside the caller's transaction; the caller has checked permissions. */
export async function insertProject(tx: Executor, org: Pick<OrganizationRow, 'id'>, body: ProjectFields): Promise<ProjectRow> {
  const fields = values(body);
  fields.display_name ??= fields.name;
  const [row] = await tx
    .insert(project)
    .values({ ...fields, organization_id: org.id } as typeof project.$inferInsert)
    .returning(readColumns);
  if (row.default) await clearOtherDefaults(tx, org.id, row.id);
  await seedProject(tx, { id: row.id, organization_id: org.id });
  return row as ProjectRow;
}

export async function createProject(ctx: Ctx, body: ProjectCreateT): Promise<ProjectRow> {
  requirePermission(ctx.role, 'ProjectCreate');
  const { organization: _ignored, id: _id, ...fields } = body;
  return ctx.db
    .transaction(async (tx) => {
      const row = await insertProject(tx, ctx.organization, fields);
      await audit(tx, ctx, { action: 'project.created', target: { type: 'project', id: row.id, label: row.name }, after: row });
      return row;
    })
    .catch((err) => {
      throw isUniqueViolation(err) ? nameTaken() : err;
    });
}

export async function updateProject(ctx: Ctx, id: number, body: ProjectUpdateT): Promise<ProjectRow> {
  requirePermission(ctx.role, 'ProjectUpdate');
  const { id: _id, ...fields } = body;
  return ctx.db
    .transaction(async (tx) => {
      const [row] = await tx
        .update(project)
        .set({ ...values(fields), updated_at: new Date() })
        .where(and(inOrganization(ctx), eq(project.id, id)))
        .returning(readColumns);
      if (!row) throw notFound();
      if (row.default) await clearOtherDefaults(tx, ctx.organization.id, row.id);
      return row as ProjectRow;
    })
    .catch((err) => {
      throw isUniqueViolation(err) ? nameTaken() : err;
    });
}

/**
 * Deletes the project and everything that belongs to it, table by table in the order of
 * `holdings` (projectHoldings: incidents and cases with their participants before the contacts they name...),
 * in one transaction. A record of another project still pointing at one of this project's (a
 * participant naming one of its contacts) makes it 409, and nothing is deleted.
 */
export async function deleteProject(ctx: Ctx, id: number, holdings: PgTable[]): Promise<void> {
  requirePermission(ctx.role, 'ProjectUpdate');
  await ctx.db
    .transaction(async (tx) => {
      const [row] = await tx
        .select(readColumns)
        .from(project)
        .where(and(inOrganization(ctx), eq(project.id, id)))
        .for('update');
      if (!row) throw notFound();
      for (const table of holdings) await tx.delete(table).where(sql`${sql.identifier('project_id')} = ${id}`);
      await tx.delete(project).where(eq(project.id, id));
      await audit(tx, ctx, deletedEntry('project', row));
    })
    .catch((err) => {
      const pg = pgError(err);
      if (pg?.code !== '23503') throw err;
      const holder = /from table "([^"]+)"/.exec(pg.detail ?? '')?.[1] ?? /on table "([^"]+)"/.exec((pg as { message?: string }).message ?? '')?.[1];
      throw errors.conflict(
        `A project whose records are still used by ${holder ? `${holder.replace(/_/g, ' ')} records` : 'records'} of another project cannot be deleted; remove or change those first.`,
      );
    });
}

/** The organization's default project, else its first one. */
export async function defaultProject(db: Executor, organizationId: number): Promise<ProjectRow | undefined> {
  const [row] = await db
    .select(readColumns)
    .from(project)
    .where(eq(project.organization_id, organizationId))
    .orderBy(sql`${project.default} DESC`, project.id)
    .limit(1);
  return row as ProjectRow | undefined;
}
