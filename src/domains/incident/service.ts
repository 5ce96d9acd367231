// Incidents read, listed and deleted, and what people do to one besides editing it: reports, join,
// subscribe. Create and update are flows (flows.ts). Every read goes through the visibility rules.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import { readAfterCheck, removeRecord } from '../lifecycle/records.ts';
import type { Executor } from '../../db/connection.ts';
import { listTables, runList, type Page } from '../../list/engine.ts';
import { applyInclude, type Included } from '../../list/include.ts';
import type { Ctx } from '../../server/context.ts';
import type { GroupKind } from '../../plugins/types.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import { enqueueGroupMail } from '../effects/resources.ts';
import { membershipsChanged } from '../plugin/memberships.ts';
import { event } from '../event/table.ts';
import { logIncidentEvent } from '../event/service.ts';
import { participant, participantRole } from '../lifecycle/table.ts';
import type { ParticipantRole } from '../incident_role/roles.ts';
import { errors } from '../../server/errors.ts';
import { activeRoles, addParticipant, contactName, inactivateParticipant, participantByEmail, renounceRole } from '../lifecycle/participants.ts';
import { INCIDENT, incidentList } from './kind.ts';
import type { ExecutiveReportCreate, ReportType, TacticalReportCreate } from '../report/schema.ts';
import { report } from '../report/table.ts';
import { dashboardTables, readIncidentFor, type IncidentReadMinimalT, type IncidentReadT, readIncidents, readIncidentsIncluded } from './reader.ts';
import { assertCanEdit, assertCanJoin, assertCanSelfJoin, assertCanView, visibleIncidents } from './visibility.ts';

export { incidentList };

export interface IncidentListQuery extends ListQueryT {
  'include[]': string[];
  expand: boolean;
}

/** The incidents the caller may see: minimal items, full with `expand`, cut to `include[]` when given. */
export async function listIncidents(ctx: Ctx, query: IncidentListQuery): Promise<IncidentPage> {
  return readPage(ctx, await pageOfIds(ctx, query), query);
}

type IncidentPage = Page<Included<IncidentReadT | IncidentReadMinimalT>>;

/**
 * A dashboard's list (`include[]` within its fields), with every table it read: the list's and the
 * projection's; undefined when one cannot say (its answer is then not kept).
 */
export async function listDashboard(ctx: Ctx, query: IncidentListQuery): Promise<{ page: IncidentPage; tables: string[] | undefined }> {
  const page = await listIncidents(ctx, query);
  const read = dashboardTables(ctx.db, query.expand, ctx);
  return { page, tables: read && [...new Set([...listTables(ctx.db, ctx, incidentList, query, visibleIncidents(ctx)), ...read])] };
}

const pageOfIds = (ctx: Ctx, query: IncidentListQuery) => runList<{ id: number }>(ctx.db, ctx, incidentList, query, visibleIncidents(ctx));

/** The page's read objects (cut to `include[]`). */
async function readPage(ctx: Ctx, page: Page<{ id: number }>, query: IncidentListQuery): Promise<IncidentPage> {
  const include = query['include[]'];
  const ids = page.items.map((i) => i.id);
  const items = include.length
    ? await readIncidentsIncluded(ctx.db, ids, query.expand, ctx, include)
    : await readIncidents(ctx.db, ids, query.expand, ctx, true);
  return { ...page, items: applyInclude(items, include) };
}

/** Read objects of incidents the caller may see, with what they nest narrowed to what the caller may see. */
export async function readVisible(ctx: Ctx, db: Executor, ids: number[], full: true): Promise<IncidentReadT[]>;
export async function readVisible(ctx: Ctx, db: Executor, ids: number[], full: boolean): Promise<IncidentReadT[] | IncidentReadMinimalT[]>;
export async function readVisible(ctx: Ctx, db: Executor, ids: number[], full: boolean): Promise<IncidentReadT[] | IncidentReadMinimalT[]> {
  return readIncidents(db, ids, full, ctx);
}

export async function getIncident(ctx: Ctx, id: number) {
  return readAfterCheck(assertCanView(ctx, id), readVisible(ctx, ctx.db, [id], true));
}

/** GET incident: one statement reads the incident if the caller may see it. */
export async function getIncidentResponse(ctx: Ctx, id: number): Promise<IncidentReadT> {
  const read = await readIncidentFor(ctx, id);
  if (!read) throw errors.notFound('An incident');
  return read;
}

/** Removes the incident and everything that belongs to it (participants, timeline, reports, tasks, costs, feedback). */
export const deleteIncident = (ctx: Ctx, id: number) => removeRecord(ctx, INCIDENT, id, (tx) => assertCanEdit(ctx, id, tx));

const REPORT_EVENTS: Record<ReportType, string> = {
  'Executive Report': 'Incident executive report created',
  'Tactical Report': 'Incident tactical report created',
};
const REPORT_REASONS: Record<ReportType, string> = {
  'Executive Report': 'Wrote an executive report',
  'Tactical Report': 'Wrote a tactical report',
};

const REPORT_GROUPS: Record<ReportType, GroupKind> = { 'Executive Report': 'notifications', 'Tactical Report': 'tactical' };

/** A report as an e-mail: its fields, one paragraph each, under their names. */
const reportMail = (type: ReportType, author: string, details: Record<string, string>) => ({
  subject: `${type} by ${author}`,
  text: Object.entries(details)
    .map(([field, value]) => `${field.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())}:\n${value}`)
    .join('\n\n'),
});

/**
 * Stores a report by the caller, who becomes a participant (role Participant) if they were not;
 * the incident's channel is shown it.
 */
async function createReport(ctx: Ctx, id: number, type: ReportType, details: Record<string, string>): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    // A participant (even one removed when the incident closed) writes as themselves, unchanged.
    const existing = await participantByEmail(tx, INCIDENT, id, ctx.user.email);
    const author = existing ? existing.id : await addParticipant(tx, ctx, INCIDENT, id, ctx.user.email, 'Participant', { reason: REPORT_REASONS[type] });
    const [written] = await tx
      .insert(report)
      .values({ organization_id: ctx.organization.id, incident_id: id, participant_id: author, type, details })
      .returning({ id: report.id });
    await logIncidentEvent(tx, ctx, id, { description: REPORT_EVENTS[type], details });
    await tellConversation(tx, INCIDENT, [id], { event: 'report', report: { type, author: ctx.user.email, details } });
    // BEHAVIOR §6.5: the executive report goes to the notifications group, the tactical one to the tactical group.
    await enqueueGroupMail(tx, ctx, INCIDENT, id, REPORT_GROUPS[type], reportMail(type, ctx.user.email, details), `report:${written.id}`);
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
    await assertCanSelfJoin(ctx, id, tx);
    await addParticipant(tx, ctx, INCIDENT, id, ctx.user.email, 'Observer', { reason: 'Joined the incident' });
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
    // Subscribers are members of the incident's groups.
    await membershipsChanged(tx, 'incident', id);
  });
  return null;
}

// ---- what people do from the chat platform ------------------------------------------------------
// These change the incident as an edit through the API does, so they need what an edit needs
// (IncidentEdit: Admins and above, the commander, the reporter).

export interface TimelineEntry {
  description: string;
  /** When it happened (a chat message's time, or what the person said). */
  at: Date;
  /** Who wrote or said it, as the timeline names them. */
  owner: string | null;
  source: string;
  type: 'Imported message' | 'Custom event';
  details?: Record<string, unknown>;
  /**
   * What makes the entry unique within the incident (a chat message's channel and time): an entry
   * with the same key is added once, however often it is asked for.
   */
  key?: string;
}

/** Adds an entry a person wrote to the incident's timeline; false when its key was added before. */
export async function addTimelineEntry(ctx: Ctx, id: number, entry: TimelineEntry): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    const details = { ...entry.details, ...(entry.key ? { import_key: entry.key } : {}) };
    if (entry.key) {
      // Two requests for one message (two people reacting at once) wait for each other here.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`timeline:${id}:${entry.key}`}))`);
      const [seen] = await tx
        .select({ uuid: event.uuid })
        .from(event)
        .where(and(eq(event.incident_id, id), sql`${event.details} ->> 'import_key' = ${entry.key}`))
        .limit(1);
      if (seen) return false;
    }
    await logIncidentEvent(tx, ctx, id, { description: entry.description, at: entry.at, owner: entry.owner, source: entry.source, type: entry.type, details });
    return true;
  });
}

/** Roles one person holds at a time: a newcomer takes them over. The commander and reporter change through an update. */
const SINGLE_HOLDER: ParticipantRole[] = ['Scribe', 'Liaison'];

/**
 * Gives the person with `email` a role in the incident other than commander and reporter (joining
 * if needed): the Scribe and the Liaison pass from whoever holds them.
 */
export async function assignIncidentRole(ctx: Ctx, id: number, email: string, role: Exclude<ParticipantRole, 'Incident Commander' | 'Reporter'>) {
  await ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    const target = await participantByEmail(tx, INCIDENT, id, email);
    if (SINGLE_HOLDER.includes(role)) {
      const holders = await tx
        .select({ id: participant.id })
        .from(participant)
        .innerJoin(participantRole, eq(participantRole.participant_id, participant.id))
        .where(and(eq(participant.incident_id, id), eq(participantRole.role, role), isNull(participantRole.renounced_at)));
      for (const h of holders) if (h.id !== target?.id) await renounceRole(tx, ctx, INCIDENT, id, h.id, role);
    }
    await addParticipant(tx, ctx, INCIDENT, id, email, role, { reason: `Assigned the ${role} role` });
  });
  return null;
}

/**
 * Takes a participant off the incident: their roles end and they stay listed, inactive (as removal
 * from the chat channel does). The commander is replaced, never removed: the incident keeps one.
 */
export async function removeIncidentParticipant(ctx: Ctx, id: number, participantId: number) {
  await ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    const [found] = await tx
      .select({ id: participant.id })
      .from(participant)
      .where(and(eq(participant.id, participantId), eq(participant.incident_id, id)));
    if (!found) throw errors.notFound('A participant');
    if ((await activeRoles(tx, participantId)).includes('Incident Commander'))
      throw errors.conflict('The commander cannot be removed: make someone else the commander first.');
    await inactivateParticipant(tx, ctx, INCIDENT, id, participantId);
  });
  return null;
}

/** Why a participant was added (`added_reason`), as someone tells it. */
export async function updateParticipantReason(ctx: Ctx, id: number, participantId: number, reason: string) {
  await ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    const changed = await tx
      .update(participant)
      .set({ added_reason: reason })
      .where(and(eq(participant.id, participantId), eq(participant.incident_id, id)))
      .returning({ id: participant.id });
    if (changed.length === 0) throw errors.notFound('A participant');
    await logIncidentEvent(tx, ctx, id, {
      description: `${await contactName(tx, participantId)}'s reason for taking part changed to "${reason}"`,
      type: 'Participant updated',
    });
  });
  return null;
}
