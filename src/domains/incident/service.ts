// Incidents read, listed and deleted, and what people do to one besides editing it: reports, join,
// subscribe. Create and update are flows (flows.ts). Every read goes through the visibility rules.
import { and, eq, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import { readAfterCheck, removeRecord } from '../lifecycle/records.ts';
import type { Executor } from '../../db/connection.ts';
import { runList, type Page } from '../../list/engine.ts';
import { applyInclude, type Included } from '../../list/include.ts';
import type { Ctx } from '../../server/context.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import { event } from '../event/table.ts';
import { logIncidentEvent } from '../event/service.ts';
import { addParticipant, participantByEmail } from '../lifecycle/participants.ts';
import { INCIDENT, incidentList } from './kind.ts';
import type { ExecutiveReportCreate, ReportType, TacticalReportCreate } from '../report/schema.ts';
import { report } from '../report/table.ts';
import { type IncidentReadMinimalT, type IncidentReadT, readIncidents } from './reader.ts';
import { assertCanEdit, assertCanJoin, assertCanView, visibleIncidents } from './visibility.ts';

export { incidentList };

export interface IncidentListQuery extends ListQueryT {
  'include[]': string[];
  expand: boolean;
}

/** The incidents the caller may see: minimal items, full with `expand`, cut to `include[]` when given. */
export async function listIncidents(ctx: Ctx, query: IncidentListQuery): Promise<Page<Included<IncidentReadT | IncidentReadMinimalT>>> {
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
export async function readVisible(ctx: Ctx, db: Executor, ids: number[], full: true): Promise<IncidentReadT[]>;
export async function readVisible(ctx: Ctx, db: Executor, ids: number[], full: boolean): Promise<IncidentReadT[] | IncidentReadMinimalT[]>;
export async function readVisible(ctx: Ctx, db: Executor, ids: number[], full: boolean): Promise<IncidentReadT[] | IncidentReadMinimalT[]> {
  return readIncidents(db, ids, full, ctx);
}

export async function getIncident(ctx: Ctx, id: number) {
  return readAfterCheck(assertCanView(ctx, id), readVisible(ctx, ctx.db, [id], true));
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
    await tx.insert(report).values({ organization_id: ctx.organization.id, incident_id: id, participant_id: author, type, details });
    await logIncidentEvent(tx, ctx, id, { description: REPORT_EVENTS[type], details });
    await tellConversation(tx, INCIDENT, [id], { event: 'report', report: { type, author: ctx.user.email, details } });
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
  });
  return null;
}
