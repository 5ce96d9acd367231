// What follows a write of incidents and cases beyond the records themselves (BEHAVIOR §6.1, §7.1,
// §16.1, §16.3): a ticket and a name, the contacts the project routes in, notifications, on-call.
// Plugins that reach nothing outside Muster (the built-in ticket plugin, the participant resolver)
// run in the write's transaction, so its answer shows what they did; everything else is one job
// enqueued in that transaction (`record-effects`), which fans out into a job per message. The chat
// channel's jobs (conversation/) are enqueued in the write's transaction itself, so that a
// record's channel hears of its events in the order they were written.
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { type Executor, onEmbedded } from '../../db/connection.ts';
import { defineJob } from '../../jobs/definition.ts';
import { enqueue, enqueueAll } from '../../jobs/queue.ts';
import type { Subject, Ticket, TicketSubject } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import { type ActiveInstance, activeInstance, pluginEnv, readPluginsOnce } from '../plugin/active.ts';
import { project } from '../project/table.ts';
import type { RecordChange, RecordEvent } from '../lifecycle/events.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { notifyRecordEvent } from './notify.ts';
import { routeRecords, routeServices } from './routing.ts';
import { enqueueOncallPageResolve } from './oncall.ts';
import { subjectsOf } from '../lifecycle/subject.ts';
import { type EffectsContext, jobContext } from './job-context.ts';
import { resourcesJob } from './resources.ts';
import { enqueueConferenceClose } from './conference-close.ts';

/** A record as it is inserted: what its ticket is made from. */
export interface NewRecord {
  id: number;
  project_id: number;
  title: string;
  description: string;
  status: string;
  visibility: string;
  /** A Date, or its JSON text when the rows come back as JSON. */
  reported_at: Date | string;
}

const RECORD_EFFECTS = 'record-effects';

interface EffectsJob extends EffectsContext {
  kind: 'incident' | 'case';
  ids: number[];
  event: RecordEvent;
}

/**
 * Names and tickets for new records from their project's ticket plugin, when it runs inline; the
 * caller writes them with the rest of the row. Records whose project has no enabled ticket plugin
 * keep no name (as Dispatch without one); a plugin that reaches outside names them in the job.
 */
export async function inlineTickets(tx: Executor, ctx: Ctx, kind: RecordKind, records: NewRecord[]): Promise<Map<number, Ticket>> {
  const out = new Map<number, Ticket>();
  if (records.length === 0) return out;
  const ticketing = new Map<number, ActiveInstance<'ticket'>>();
  for (const projectId of new Set(records.map((r) => r.project_id))) {
    const instance = await activeInstance(tx, ctx.settings, projectId, 'ticket');
    if (instance?.plugin.inline) ticketing.set(projectId, instance);
  }
  // The projects' names only where a plugin names records here (most projects have none that does).
  if (ticketing.size === 0) return out;
  const projects = await tx
    .select({ id: project.id, name: project.name, slug: project.slug })
    .from(project)
    .where(inArray(project.id, [...ticketing.keys()]));
  const log = { info() {}, warn() {} };
  for (const proj of projects) {
    const plugin = ticketing.get(proj.id)!;
    for (const r of records.filter((x) => x.project_id === proj.id)) {
      const subject: TicketSubject = {
        kind: kind.name,
        id: r.id,
        organization: { id: ctx.organization.id, slug: ctx.organization.slug },
        project: proj,
        title: r.title,
        description: r.description,
        status: r.status,
        visibility: r.visibility,
        reported_at: new Date(r.reported_at).toISOString(),
      };
      out.set(r.id, await plugin.plugin.create(subject, plugin.config, pluginEnv(ctx.settings, `${kind.name}:${r.id}`, log)));
    }
  }
  return out;
}

/** The columns a ticket fills. */
export const ticketColumns = (t: Ticket | undefined) =>
  t ? { name: t.name ?? null, ticket: { resource_id: t.resource_id, resource_type: t.resource_type, weblink: t.weblink } } : {};

/**
 * After records of `kind` were created (in the caller's transaction): contacts routed in, then the
 * background effects enqueued, and each record's chat channel made.
 */
export async function recordsCreated(tx: Executor, ctx: Ctx, kind: RecordKind, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await routeRecords(tx, ctx, kind, ids);
  // The background effects and the resources (groups, meetings): two jobs, one statement.
  await enqueueAll(tx, [effectsJob(ctx, kind, ids, { event: 'created' }), resourcesJob(ctx, kind, ids)]);
  await tellConversation(tx, kind, ids, { event: 'created' });
}

/**
 * After a record was updated: contacts routed again while it is open, and notifications when its
 * status or assessment changed; its chat channel hears of those and of roles handed over.
 */
export async function recordUpdated(tx: Executor, ctx: Ctx, kind: RecordKind, id: number, change: RecordChange): Promise<void> {
  await routeRecords(tx, ctx, kind, [id]);
  const event: RecordEvent = { event: 'updated', change };
  if (change.status || change.assessment?.length) await enqueueEffects(tx, ctx, kind, [id], event);
  if (change.status || change.assessment?.length || change.roles?.length) await tellConversation(tx, kind, [id], event);
  if (kind.name === 'incident' && change.status?.to === 'Closed') await enqueueConferenceClose(tx, ctx, id);
  if (change.status?.to === 'Closed') await enqueueOncallPageResolve(tx, ctx, kind, id);
  if (ticketShows(change)) await enqueue(tx, TICKET_UPDATE, { organization_id: ctx.organization.id, kind: kind.name, id } satisfies TicketUpdateJob);
}

// ---- the ticket kept up to date -------------------------------------------------------------------

const TICKET_UPDATE = 'ticket-update';

interface TicketUpdateJob {
  organization_id: number;
  kind: 'incident' | 'case';
  id: number;
}

/** Whether a change is one a ticket shows: the title, status, priority, commander or assignee. */
const ticketShows = (c: RecordChange) =>
  !!(c.title || c.status || c.assessment?.includes('priority') || c.roles?.some((r) => r.role === 'Incident Commander' || r.role === 'Assignee'));

/**
 * The job that updates a record's ticket through the project's ticket plugin, with the record as it
 * is when the job runs (several quick changes read the same). A plugin without `update` has
 * nothing to do. A ticket still being made by the create job is waited for through retries; a
 * vendor that keeps failing ends the job failed with its reason, never the write.
 */
export const ticketUpdateJob = (kinds: Record<'incident' | 'case', RecordKind>) =>
  defineJob<TicketUpdateJob>({
    name: TICKET_UPDATE,
    // A vendor that is down for a while: retried after about 5 s, 10 s, 20 s, 40 s, 80 s (as messages are).
    retryLimit: 5,
    retryDelay: 5,
    async run(job, env) {
      const kind = kinds[job.data.kind];
      const [row] = await env.db
        .select({ project_id: kind.table.project_id, ticket: kind.table.ticket })
        .from(kind.table)
        .where(eq(kind.table.id, job.data.id));
      if (!row) return { skipped: `${job.data.kind} deleted` };
      const ticketing = await activeInstance(env.db, env.settings, row.project_id, 'ticket');
      if (!ticketing?.plugin.update) return { skipped: 'no ticket plugin that updates tickets' };
      if (!row.ticket) throw new Error(`the ${job.data.kind} has no ticket yet (its ticket plugin has not made one)`);
      const [subject] = await subjectsOf(env.db, env.settings, kind, [job.data.id]);
      const log = {
        info: (msg: string) => env.log.info({ job: job.id, queue: job.name }, msg),
        warn: (msg: string) => env.log.warn({ job: job.id, queue: job.name }, msg),
      };
      const ticket = row.ticket as Ticket;
      await ticketing.plugin.update(ticket, subject, ticketing.config, pluginEnv(env.settings, job.id, log));
      return { updated: ticket.resource_id };
    },
  });

const effectsJob = (ctx: Ctx, kind: RecordKind, ids: number[], event: RecordEvent) => {
  const data: EffectsJob = { organization_id: ctx.organization.id, user: { id: ctx.user.id, email: ctx.user.email }, kind: kind.name, ids, event };
  return { name: RECORD_EFFECTS, data };
};

async function enqueueEffects(tx: Executor, ctx: Ctx, kind: RecordKind, ids: number[], event: RecordEvent) {
  const { name, data } = effectsJob(ctx, kind, ids, event);
  await enqueue(tx, name, data);
}

/** The job that runs a write's background effects; the app gives it the kinds of records. */
export const recordEffectsJob = (kinds: Record<'incident' | 'case', RecordKind>) =>
  defineJob<EffectsJob>({
    name: RECORD_EFFECTS,
    async run(job, env) {
      const ctx = await jobContext(env, job.data);
      if (!ctx) return { skipped: 'organization deleted' };
      const kind = kinds[job.data.kind];
      // On a server, the job's records (a batch of signal instances opens many cases) share one
      // transaction, each project's plugins read once: about two statements per record instead of
      // seven. On the embedded database each record has its own, so that the one connection goes
      // back to the next ingestion batches between them instead of being held for the whole job.
      // A retry runs them all again: each child job is keyed by this job and what it is for, so
      // none is enqueued twice.
      const together = onEmbedded(env.db) ? job.data.ids.map((id) => [id]) : [job.data.ids];
      let records = 0;
      for (const ids of together) {
        records += await env.db.transaction(async (tx) => {
          readPluginsOnce(tx);
          const subjects = await subjectsOf(tx, env.settings, kind, ids);
          const ticketed = await withTickets(tx, kind, subjects);
          for (const subject of subjects) if (!ticketed.has(subject.id)) await externalTicket(tx, ctx, kind, subject, job.id);
          await notifyRecordEvent(tx, ctx, kind, subjects, job.data.event, job.id);
          await routeServices(tx, ctx, kind, subjects, job.data.event, job.id);
          return subjects.length;
        });
      }
      return { records };
    },
  });

/** The ids of those of the records that have a ticket already. */
async function withTickets(tx: Executor, kind: RecordKind, subjects: Subject[]): Promise<Set<number>> {
  const ids = subjects.map((s) => s.id);
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: kind.table.id })
    .from(kind.table)
    .where(and(inArray(kind.table.id, ids), isNotNull(kind.table.ticket)));
  return new Set(rows.map((r) => r.id));
}

/** A ticket from a plugin that reaches outside Muster (not inline), for a record that has none yet. */
async function externalTicket(tx: Executor, ctx: Ctx, kind: RecordKind, subject: Subject, jobId: string) {
  const ticketing = await activeInstance(tx, ctx.settings, subject.project.id, 'ticket');
  if (!ticketing || ticketing.plugin.inline) return;
  const id = subject.id;
  // One key per record: a job may carry several, and a receiver that honours the key makes one ticket each.
  const ticket = await ticketing.plugin.create(subject, ticketing.config, pluginEnv(ctx.settings, `${jobId}:${kind.name}:${id}`, { info() {}, warn() {} }));
  await tx.update(kind.table).set(ticketColumns(ticket)).where(eq(kind.table.id, id));
}
