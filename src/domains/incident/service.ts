// Incidents read, listed and deleted, and what people do to one besides editing it: reports, join,
// subscribe. Create and update are flows (flows.ts). Every read goes through the visibility rules.
import { and, eq, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import { readColumns } from '../../db/columns.ts';
import type { Executor } from '../../db/connection.ts';
import type { ListDefinition } from '../../list/definition.ts';
import { runList } from '../../list/engine.ts';
import { applyInclude } from '../../list/include.ts';
import type { Ctx } from '../../server/context.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { event } from '../event/table.ts';
import { logIncidentEvent } from '../event/service.ts';
import { individualContact } from '../individual/table.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { participant } from '../participant/table.ts';
import { addParticipant, participantByEmail } from '../participant/service.ts';
import { project } from '../project/table.ts';
import type { ExecutiveReportCreate, ReportType, TacticalReportCreate } from '../report/schema.ts';
import { report } from '../report/table.ts';
import { tag } from '../tag/table.ts';
import { tagType } from '../tag_type/table.ts';
import { readIncidents } from './reader.ts';
import { incident, incidentDuplicate, incidentTag } from './table.ts';
import { assertCanEdit, assertCanJoin, assertCanView, visibleIncidents } from './visibility.ts';

const columns = readColumns(incident);

/** What `filter` and `sortBy[]` reach from an incident (Dispatch's model names). */
export const incidentList: ListDefinition<typeof columns> = {
  model: 'Incident',
  tableName: 'incident',
  table: incident,
  columns,
  idColumn: incident.id,
  searchVector: incident.search_vector,
  separateCount: true,
  fields: {
    id: 'int',
    name: 'text',
    title: 'text',
    description: 'text',
    resolution: 'text',
    status: 'text',
    visibility: 'text',
    participants_team: 'text',
    participants_location: 'text',
    commanders_location: 'text',
    reporters_location: 'text',
    reported_at: 'timestamp',
    stable_at: 'timestamp',
    closed_at: 'timestamp',
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  relations: [
    { kind: 'one', model: 'Project', tableName: 'project', table: project, on: eq(project.id, incident.project_id), fields: { id: 'int', name: 'text' } },
    {
      kind: 'one',
      model: 'IncidentPriority',
      tableName: 'incident_priority',
      table: incidentPriority,
      on: eq(incidentPriority.id, incident.incident_priority_id),
      fields: { id: 'int', name: 'text', view_order: 'int', page_commander: 'bool' },
    },
    {
      kind: 'one',
      model: 'IncidentSeverity',
      tableName: 'incident_severity',
      table: incidentSeverity,
      on: eq(incidentSeverity.id, incident.incident_severity_id),
      fields: { id: 'int', name: 'text', view_order: 'int' },
    },
    {
      kind: 'one',
      model: 'IncidentType',
      tableName: 'incident_type',
      table: incidentType,
      on: eq(incidentType.id, incident.incident_type_id),
      fields: { id: 'int', name: 'text', visibility: 'text', exclude_from_metrics: 'bool' },
    },
    {
      kind: 'many',
      model: 'Tag',
      tableName: 'tag',
      table: tag,
      fields: { id: 'int', name: 'text', external_id: 'text', discoverable: 'bool' },
      exists: (c) =>
        sql`EXISTS (SELECT 1 FROM ${incidentTag} JOIN ${tag} ON ${tag.id} = ${incidentTag.tag_id} WHERE ${incidentTag.incident_id} = ${incident.id} AND ${c})`,
    },
    {
      kind: 'many',
      model: 'TagType',
      tableName: 'tag_type',
      table: tagType,
      fields: { id: 'int', name: 'text', exclusive: 'bool' },
      exists: (c) =>
        sql`EXISTS (SELECT 1 FROM ${incidentTag} JOIN ${tag} ON ${tag.id} = ${incidentTag.tag_id} JOIN ${tagType} ON ${tagType.id} = ${tag.tag_type_id} WHERE ${incidentTag.incident_id} = ${incident.id} AND ${c})`,
    },
    {
      // People taking part (commander and reporter included), as Dispatch filters "commander" and "participant".
      kind: 'many',
      model: 'IndividualContact',
      tableName: 'individual_contact',
      table: individualContact,
      fields: { id: 'int', email: 'text', name: 'text', title: 'text', company: 'text' },
      exists: (c) =>
        sql`EXISTS (SELECT 1 FROM ${participant} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} WHERE ${participant.incident_id} = ${incident.id} AND ${c})`,
    },
  ],
};

export interface IncidentListQuery extends ListQueryT {
  'include[]': string[];
  expand: boolean;
}

/** The incidents the caller may see: minimal items, full with `expand`, cut to `include[]` when given. */
export async function listIncidents(ctx: Ctx, query: IncidentListQuery) {
  const page = await runList<{ id: number }>(ctx.db, ctx, incidentList, query, visibleIncidents(ctx));
  const items = await readVisible(
    ctx,
    ctx.db,
    page.items.map((i) => i.id),
    query.expand,
  );
  return { ...page, items: applyInclude(items, query['include[]']) };
}

/** Read objects of incidents the caller may see, with what they nest narrowed to what the caller may see. */
export const readVisible = (ctx: Ctx, db: Executor, ids: number[], full: boolean) => readIncidents(db, ids, full, ctx);

export async function getIncident(ctx: Ctx, id: number) {
  // The check and the read run side by side on the pool; what was read is answered only if the check passes.
  const [, [item]] = await Promise.all([assertCanView(ctx, id), readVisible(ctx, ctx.db, [id], true)]);
  return item;
}

/** Removes the incident and everything that belongs to it (participants, timeline, reports, tasks, costs, feedback). */
export async function deleteIncident(ctx: Ctx, id: number): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    // Links where it is someone else's duplicate go with it too (cascade); nothing else points at an incident.
    await tx.delete(incidentDuplicate).where(eq(incidentDuplicate.duplicate_id, id));
    await tx.delete(incident).where(eq(incident.id, id));
  });
  return null;
}

const REPORT_EVENTS: Record<ReportType, string> = {
  'Executive Report': 'Incident executive report created',
  'Tactical Report': 'Incident tactical report created',
};
const REPORT_REASONS: Record<ReportType, string> = {
  'Executive Report': 'Wrote an executive report',
  'Tactical Report': 'Wrote a tactical report',
};

/** Stores a report by the caller, who becomes a participant (role Participant) if they were not. */
async function createReport(ctx: Ctx, id: number, type: ReportType, details: Record<string, string>): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    // A participant (even one removed when the incident closed) writes as themselves, unchanged.
    const existing = await participantByEmail(tx, id, ctx.user.email);
    const author = existing ? existing.id : await addParticipant(tx, ctx, id, ctx.user.email, 'Participant', REPORT_REASONS[type]);
    await tx.insert(report).values({ organization_id: ctx.organization.id, incident_id: id, participant_id: author, type, details });
    await logIncidentEvent(tx, ctx, id, { description: REPORT_EVENTS[type], details });
  });
  return null;
}

export const createExecutiveReport = (ctx: Ctx, id: number, body: Static<typeof ExecutiveReportCreate>) =>
  createReport(ctx, id, 'Executive Report', { current_status: body.current_status, overview: body.overview, next_steps: body.next_steps });

export const createTacticalReport = (ctx: Ctx, id: number, body: Static<typeof TacticalReportCreate>) =>
  createReport(ctx, id, 'Tactical Report', { conditions: body.conditions, actions: body.actions, needs: body.needs });

/** The caller joins as an Observer (an inactive participant comes back). */
export async function joinIncident(ctx: Ctx, id: number): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    await assertCanJoin(ctx, id, tx);
    await addParticipant(tx, ctx, id, ctx.user.email, 'Observer', 'Joined the incident');
  });
  return null;
}

const SUBSCRIBED = 'subscribed to the incident';

/**
 * The caller follows the incident without taking part: recorded as a timeline event (once per
 * person), which is where notifications will find subscribers. It does not make them a participant.
 */
export async function subscribeToIncident(ctx: Ctx, id: number): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    await assertCanJoin(ctx, id, tx);
    const [already] = await tx
      .select({ uuid: event.uuid })
      .from(event)
      .where(and(eq(event.incident_id, id), sql`${event.details} ->> 'subscriber' = ${ctx.user.email.toLowerCase()}`))
      .limit(1);
    if (already) return;
    await logIncidentEvent(tx, ctx, id, { description: `${ctx.user.email} ${SUBSCRIBED}`, details: { subscriber: ctx.user.email.toLowerCase() } });
  });
  return null;
}
