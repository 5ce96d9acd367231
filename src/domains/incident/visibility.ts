// Who may see, edit, join and subscribe to an incident (Dispatch's IncidentView, IncidentEdit and
// IncidentJoinOrSubscribe), as SQL for lists and counts and as checks for one incident.
//
// An Open incident is seen by every member of its organization; a Restricted one by Admins and above
// and by its participants (any participant, active or not, matched by email). An incident the caller
// may not see answers 404 as a missing one does: nobody learns that it exists.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { resolveVisibleIds } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { termsOf, type ViewerTerms } from '../../server/viewer.ts';
import { errors } from '../../server/errors.ts';
import { individualContact } from '../individual/table.ts';
import { participant } from '../participant/table.ts';
import { incident } from './table.ts';

export type IncidentRow = typeof incident.$inferSelect;

type IncidentTable = typeof incident;

/** Whether the caller's email belongs to a participant of the incident `idColumn` holds. */
export function isParticipant(ctx: Ctx, idColumn: PgColumn | SQL, role?: 'commander_id' | 'reporter_id', table: IncidentTable = incident): SQL {
  return participates(ctx.user.email, idColumn, role, table);
}

function participates(email: ViewerTerms['email'], idColumn: PgColumn | SQL, role?: 'commander_id' | 'reporter_id', table: IncidentTable = incident): SQL {
  const which = role ? sql`${participant.id} = ${table[role]}` : sql`${participant.incident_id} = ${idColumn}`;
  return sql`EXISTS (SELECT 1 FROM ${participant} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} WHERE ${which} AND lower(${individualContact.email}) = lower(${email}))`;
}

/**
 * The rule itself, for a viewer given as terms (values, or a prepared statement's placeholders):
 * the rows of `table` (the incident table or an alias of it) in the viewer's organization, and of
 * them the Restricted ones only for Admins and above and participants.
 */
export function incidentRule(table: IncidentTable, v: ViewerTerms): SQL {
  const inOrganization = sql`${table.organization_id} = ${v.organization}`;
  if (v.all === true) return inOrganization;
  const seen = sql`${table.visibility} = 'Open' OR ${participates(v.email, table.id)}`;
  return v.all === false ? sql`(${inOrganization} AND (${seen}))` : sql`(${inOrganization} AND (${v.all} OR ${seen}))`;
}

/**
 * The incidents (rows of `table`, the incident table or an alias of it) the caller may see: those of
 * the caller's organization, and of them the Restricted ones only for Admins and above and participants.
 */
export function visibleIncidents(ctx: Ctx, table: IncidentTable = incident): SQL {
  return incidentRule(table, termsOf(ctx));
}

/**
 * For records that belong to an incident (tasks, costs, feedback): the incident `incidentId`
 * (a column of theirs) is one the caller may see.
 */
export function incidentVisible(ctx: Ctx, incidentId: PgColumn | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${incident} WHERE ${incident.id} = ${incidentId} AND ${visibleIncidents(ctx)})`;
}

/** The incident if the caller may see it; 404 otherwise (missing, another organization's, or hidden). */
export async function assertCanView(ctx: Ctx, incidentId: number, db: Executor = ctx.db): Promise<IncidentRow> {
  const [row] = await db
    .select()
    .from(incident)
    .where(and(eq(incident.id, incidentId), visibleIncidents(ctx)));
  if (!row) throw errors.notFound('An incident');
  return row;
}

/** Whether the caller is the incident's commander or reporter. */
async function commandsOrReports(ctx: Ctx, incidentId: number, db: Executor): Promise<boolean> {
  const [hit] = await db
    .select({ id: incident.id })
    .from(incident)
    .where(and(eq(incident.id, incidentId), sql`(${isParticipant(ctx, incident.id, 'commander_id')} OR ${isParticipant(ctx, incident.id, 'reporter_id')})`));
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
  resolveVisibleIds(tx, incident.id, visibleIncidents(ctx), values, field, 'Incident', except);
