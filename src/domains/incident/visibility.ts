// Who may see, edit, join and subscribe to an incident (Dispatch's IncidentView, IncidentEdit and
// IncidentJoinOrSubscribe), as SQL for lists and counts and as checks for one incident.
//
// Who may see an incident is decided by the lifecycle kit (lifecycle/visibility.ts), as for cases.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/connection.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { incident } from '../lifecycle/table.ts';
import { project } from '../project/table.ts';
import { assertVisible, isParticipant, recordVisible, resolveVisible, visibleRecords } from '../lifecycle/visibility.ts';
import { INCIDENT } from './kind.ts';

export type IncidentRow = typeof incident.$inferSelect;

/** The incidents (rows of `table`, the incident table or an alias of it) the caller may see. */
export const visibleIncidents = (ctx: Ctx, table: typeof incident = incident): SQL => visibleRecords(ctx, INCIDENT, table);

/** For records that belong to an incident (tasks, costs, feedback): the incident `incidentId` (a column of theirs) is one the caller may see. */
export const incidentVisible = (ctx: Ctx, incidentId: PgColumn | SQL): SQL => recordVisible(ctx, INCIDENT, incidentId);

/** The incident if the caller may see it; 404 otherwise (missing, another organization's, or hidden). */
export const assertCanView = (ctx: Ctx, incidentId: number, db: Executor = ctx.db): Promise<IncidentRow> => assertVisible(ctx, INCIDENT, incidentId, db);

/** Whether the caller is the incident's commander or reporter. */
async function commandsOrReports(ctx: Ctx, incidentId: number, db: Executor): Promise<boolean> {
  const [hit] = await db
    .select({ id: incident.id })
    .from(incident)
    .where(
      and(
        eq(incident.id, incidentId),
        sql`(${isParticipant(ctx, INCIDENT, incident.id, incident.commander_id)} OR ${isParticipant(ctx, INCIDENT, incident.id, incident.reporter_id)})`,
      ),
    );
  return !!hit;
}

/** IncidentEdit: Admins and above, the commander and the reporter; 404 for those who may not see it, 403 for the others. */
export async function assertCanEdit(ctx: Ctx, incidentId: number, db: Executor = ctx.db): Promise<IncidentRow> {
  const row = await assertCanView(ctx, incidentId, db);
  if (!atLeast(ctx.role, 'Admin') && !(await commandsOrReports(ctx, incidentId, db))) throw errors.forbidden();
  return row;
}

/** IncidentJoinOrSubscribe: a Restricted incident only for Admins and above (404 if hidden, else 403). */
export async function assertCanJoin(ctx: Ctx, incidentId: number, db: Executor = ctx.db): Promise<IncidentRow> {
  const row = await assertCanView(ctx, incidentId, db);
  if (row.visibility === 'Restricted' && !atLeast(ctx.role, 'Admin')) throw errors.forbidden();
  return row;
}

/**
 * Joining: IncidentJoinOrSubscribe, and a Member joins only where the incident's project allows
 * self-join (beyond 0.1.0, as current Dispatch); Admins and above join as before.
 */
export async function assertCanSelfJoin(ctx: Ctx, incidentId: number, db: Executor = ctx.db): Promise<IncidentRow> {
  const row = await assertCanJoin(ctx, incidentId, db);
  if (atLeast(ctx.role, 'Admin')) return row;
  const [found] = await db.select({ allowed: project.allow_self_join }).from(project).where(eq(project.id, row.project_id));
  if (!found?.allowed) {
    throw errors.forbidden("This incident's project does not allow joining its incidents yourself. Please, ask the incident commander or an admin to add you.");
  }
  return row;
}

/** Whether the caller may see the incident (for code that has the row already). */
export async function canView(ctx: Ctx, incidentId: number, db: Executor = ctx.db): Promise<boolean> {
  const [row] = await db
    .select({ id: incident.id })
    .from(incident)
    .where(and(eq(incident.id, incidentId), visibleIncidents(ctx)));
  return !!row;
}

/** Incidents named by id in a body list: ones the caller may see, other than `except`; 422 on the item otherwise. */
export const visibleIncidentIds = (tx: Executor, ctx: Ctx, values: { id?: unknown }[], field: string, except?: number) =>
  resolveVisible(tx, ctx, INCIDENT, values, field, except);
