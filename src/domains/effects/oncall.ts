// The on-call jobs (BEHAVIOR §6.1, §6.2, §7.1, §16.3): asking the project's on-call plugin who is on
// call for a service and bringing that person in (a routed service's person as Observer, a role
// policy's as that role, a case type's as the case's assignee), and paging a service. Both reach
// an outside system, so they run as jobs, enqueued by routing (routing.ts) keyed by the job that
// asked and what for: a retried parent enqueues each once.
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { defineJob, type JobDefinition, type JobEnv } from '../../jobs/definition.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { OncallService, PluginLog } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import type { ParticipantRole } from '../incident_role/roles.ts';
import { organization } from '../organization/table.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import type { RoleChange } from '../lifecycle/events.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { addParticipant, participantByEmail, participantEmail, renounceRole } from '../lifecycle/participants.ts';
import { subjectOf } from '../lifecycle/subject.ts';
import { logEvent } from '../event/service.ts';
import { event } from '../event/table.ts';
import { service } from '../service/table.ts';
import { errors } from '../../server/errors.ts';
import { ownerOf as eventOwner } from '../lifecycle/kind.ts';
import { assertVisible } from '../lifecycle/visibility.ts';
import { caseTable, incident, participant, participantRole } from '../lifecycle/table.ts';

export const ONCALL_RESOLVE = 'oncall-resolve';
export const ONCALL_PAGE = 'oncall-page';
export const ONCALL_PAGE_RESOLVE = 'oncall-page-resolve';

type KindName = 'incident' | 'case';

interface RecordRef {
  organization_id: number;
  kind: KindName;
  record_id: number;
  service: OncallService & { id: number };
  /** Who made the write that paged (the timeline names them); absent in jobs enqueued before it was kept. */
  user?: { id: number; email: string };
}

/** A closed record whose pages are resolved. */
interface ResolvePagesJob {
  organization_id: number;
  kind: KindName;
  record_id: number;
}

/** What a page's timeline event keeps of it (in `details`): the service, for resolving it on close. */
interface PageDetails {
  oncall_page: { service: RecordRef['service'] };
}

interface ResolveJob extends RecordRef {
  user: { id: number; email: string };
  /** What the on-call person becomes: Observer (a routed service) or the role a policy or case type gives. */
  role: ParticipantRole;
  /**
   * Who holds the role until the on-call person is known (the policy's individual, the reporter,
   * the caller), or null: when someone else holds it by the time the answer comes, a person chose
   * them and the answer is dropped.
   */
  provisional: string | null;
}

/** The on-call person of `service` joins the record as `role` (see ResolveJob). */
export async function enqueueOncallResolve(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  recordId: number,
  job: Omit<ResolveJob, 'organization_id' | 'user' | 'kind' | 'record_id'>,
  key: string,
) {
  const data: ResolveJob = {
    organization_id: ctx.organization.id,
    user: { id: ctx.user.id, email: ctx.user.email },
    kind: kind.name,
    record_id: recordId,
    ...job,
  };
  await enqueue(tx, ONCALL_RESOLVE, data, { key });
}

/** `service` is paged about the record. */
export async function enqueueOncallPage(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number, service: RecordRef['service'], key: string) {
  const data: RecordRef = {
    organization_id: ctx.organization.id,
    kind: kind.name,
    record_id: recordId,
    service,
    user: { id: ctx.user.id, email: ctx.user.email },
  };
  await enqueue(tx, ONCALL_PAGE, data, { key });
}

/** The record closed: the pages sent about it are resolved (in a job, after the write). */
export async function enqueueOncallPageResolve(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number) {
  const data: ResolvePagesJob = { organization_id: ctx.organization.id, kind: kind.name, record_id: recordId };
  await enqueue(tx, ONCALL_PAGE_RESOLVE, data);
}

const sameEmail = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

const pluginLog = (env: JobEnv, jobId: string): PluginLog => ({
  info: (msg) => env.log.info({ job: jobId }, msg),
  warn: (msg) => env.log.warn({ job: jobId }, msg),
});

/** The columns that name a record's owner: an incident's commander (and their location), a case's assignee. */
const OWNER_ROLE: Record<KindName, ParticipantRole> = { incident: 'Incident Commander', case: 'Assignee' };

async function ownerOf(tx: Executor, kind: RecordKind, recordId: number): Promise<number | null> {
  if (kind.name === 'incident') {
    const [row] = await tx.select({ id: incident.commander_id }).from(incident).where(eq(incident.id, recordId));
    return row?.id ?? null;
  }
  const [row] = await tx.select({ id: caseTable.assignee_id }).from(caseTable).where(eq(caseTable.id, recordId));
  return row?.id ?? null;
}

async function setOwner(tx: Executor, kind: RecordKind, recordId: number, participantId: number) {
  if (kind.name === 'incident') {
    const location = sql`(SELECT ${participant.location} FROM ${participant} WHERE ${participant.id} = ${participantId})`;
    await tx.update(incident).set({ commander_id: participantId, commanders_location: location }).where(eq(incident.id, recordId));
  } else {
    await tx.update(caseTable).set({ assignee_id: participantId }).where(eq(caseTable.id, recordId));
  }
}

/**
 * Hands `role` over to the person with `email`, as an update naming a new commander or assignee
 * does: whoever holds it renounces it and the newcomer takes it (joining if needed); the record's
 * commander or assignee follows. Nothing happens (null) when they hold it already, or when someone
 * other than `provisional` holds it (a person chose them meanwhile).
 */
export async function handOverRole(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  recordId: number,
  role: ParticipantRole,
  email: string,
  provisional: string | null,
): Promise<RoleChange | null> {
  if (role === OWNER_ROLE[kind.name]) {
    const current = await ownerOf(tx, kind, recordId);
    const currentEmail = await participantEmail(tx, current);
    if (sameEmail(currentEmail, email)) return null;
    if (currentEmail && !sameEmail(currentEmail, provisional)) return null;
    if (current !== null) await renounceRole(tx, ctx, kind, recordId, current, role);
    await setOwner(tx, kind, recordId, await addParticipant(tx, ctx, kind, recordId, email, role));
    return { role, from: currentEmail ?? null, to: email };
  }
  const holders = await tx
    .select({ id: participant.id })
    .from(participant)
    .innerJoin(participantRole, eq(participantRole.participant_id, participant.id))
    .where(sql`${participant[kind.ownerColumn]} = ${recordId} AND ${participantRole.role} = ${role} AND ${participantRole.renounced_at} IS NULL`);
  const holderEmails = await Promise.all(holders.map((h) => participantEmail(tx, h.id)));
  if (holderEmails.some((e) => sameEmail(e, email))) return null;
  if (holders.some((_, i) => !sameEmail(holderEmails[i], provisional))) return null;
  for (const h of holders) await renounceRole(tx, ctx, kind, recordId, h.id, role);
  await addParticipant(tx, ctx, kind, recordId, email, role);
  return { role, from: holderEmails[0] ?? null, to: email };
}

/** The context a job acts in: the organization of the write, on behalf of the user who made it. */
async function jobContext(env: JobEnv, organizationId: number, user: Ctx['user']): Promise<Ctx | undefined> {
  const [org] = await env.db.select({ id: organization.id, slug: organization.slug }).from(organization).where(eq(organization.id, organizationId));
  if (!org) return undefined;
  return { db: env.db, settings: env.settings, user, organization: org, role: 'Owner' };
}

async function projectOfRecord(tx: Executor, kind: RecordKind, recordId: number): Promise<{ project_id: number; status: string } | undefined> {
  const [row] = await tx.select({ project_id: kind.table.project_id, status: kind.table.status }).from(kind.table).where(eq(kind.table.id, recordId));
  return row;
}

const serviceOf = (s: RecordRef['service']): OncallService => ({ external_id: s.external_id, name: s.name });

const resolveJob = (kinds: Record<KindName, RecordKind>) =>
  defineJob<ResolveJob>({
    name: ONCALL_RESOLVE,
    expireInSeconds: 120,
    async run(job, env) {
      const data = job.data;
      const kind = kinds[data.kind];
      const ctx = await jobContext(env, data.organization_id, data.user);
      const record = ctx && (await projectOfRecord(env.db, kind, data.record_id));
      if (!ctx || !record) return { skipped: 'record deleted' };
      if (record.status === 'Closed') return { skipped: 'record closed' };
      const oncall = await activeInstance(env.db, env.settings, record.project_id, 'oncall');
      if (!oncall) {
        env.log.info({ job: job.id, service: data.service.external_id }, 'no on-call plugin enabled: nobody resolved');
        return { skipped: 'no on-call plugin' };
      }
      const person = await oncall.plugin.getOncall(serviceOf(data.service), oncall.config, pluginEnv(env.settings, job.id, pluginLog(env, job.id)));
      if (!person?.email) return { skipped: 'nobody on call' };
      const changed = await env.db.transaction(async (tx) => {
        if (data.role !== 'Observer') {
          const handed = await handOverRole(tx, ctx, kind, data.record_id, data.role, person.email, data.provisional);
          // Its chat channel hears of it as of any role handed over (the newcomer is invited as any joiner).
          if (handed) await tellConversation(tx, kind, [data.record_id], { event: 'updated', change: { roles: [handed] } }, job.id);
          return !!handed;
        }
        // A routed person already there (or who left) is left as they are.
        if (await participantByEmail(tx, kind, data.record_id, person.email)) return false;
        await addParticipant(tx, ctx, kind, data.record_id, person.email, 'Observer');
        return true;
      });
      return { role: data.role, changed };
    },
  });

const pageJob = (kinds: Record<KindName, RecordKind>) =>
  defineJob<RecordRef>({
    name: ONCALL_PAGE,
    expireInSeconds: 120,
    async run(job, env) {
      const data = job.data;
      const kind = kinds[data.kind];
      const subject = await subjectOf(env.db, env.settings, kind, data.record_id);
      if (!subject || subject.organization.id !== data.organization_id) return { skipped: 'record deleted' };
      // A page still waiting (retried) when the record closed would wake someone for nothing.
      if (subject.status === 'Closed') return { skipped: 'record closed' };
      const oncall = await activeInstance(env.db, env.settings, subject.project.id, 'oncall');
      if (!oncall) {
        env.log.info({ job: job.id, service: data.service.external_id }, 'no on-call plugin enabled: nobody paged');
        return { skipped: 'no on-call plugin' };
      }
      await oncall.plugin.page(serviceOf(data.service), subject, oncall.config, pluginEnv(env.settings, job.id, pluginLog(env, job.id)));
      // The timeline says who was paged, and keeps the service for resolving the page on close.
      const ctx = await jobContext(env, data.organization_id, data.user ?? { id: 0, email: '' });
      if (ctx) {
        const details: PageDetails = { oncall_page: { service: data.service } };
        await logEvent(env.db, ctx, eventOwner(kind, data.record_id), {
          description: `The on-call of ${data.service.name} was paged through ${oncall.plugin.title}`,
          type: 'Participant updated',
          details: details as unknown as Record<string, unknown>,
          owner: data.user?.email ?? null,
        });
      }
      return { paged: data.service.external_id };
    },
  });

/** The services paged about a record, from its timeline, each once. */
async function pagedServices(tx: Executor, kind: RecordKind, recordId: number): Promise<RecordRef['service'][]> {
  const rows = await tx
    .select({ details: event.details })
    .from(event)
    .where(and(eq(event[kind.ownerColumn], recordId), sql`${event.details} ? 'oncall_page'`));
  const byId = new Map<number, RecordRef['service']>();
  for (const r of rows) {
    const s = (r.details as PageDetails | null)?.oncall_page?.service;
    if (s && typeof s.id === 'number' && typeof s.external_id === 'string') byId.set(s.id, s);
  }
  return [...byId.values()];
}

/**
 * Resolves the pages sent about a closed record through the on-call plugin (when it can). Each
 * vendor's resolve is idempotent (the page's dedup key), so a retry resolves again harmlessly.
 */
const resolvePagesJob = (kinds: Record<KindName, RecordKind>) =>
  defineJob<ResolvePagesJob>({
    name: ONCALL_PAGE_RESOLVE,
    expireInSeconds: 120,
    async run(job, env) {
      const data = job.data;
      const kind = kinds[data.kind];
      const subject = await subjectOf(env.db, env.settings, kind, data.record_id);
      if (!subject || subject.organization.id !== data.organization_id) return { skipped: 'record deleted' };
      if (subject.status !== 'Closed') return { skipped: 'record reopened' };
      const services = await pagedServices(env.db, kind, data.record_id);
      if (services.length === 0) return { skipped: 'nothing paged' };
      const oncall = await activeInstance(env.db, env.settings, subject.project.id, 'oncall');
      if (!oncall?.plugin.resolve) return { skipped: 'no on-call plugin that resolves pages' };
      for (const s of services) await oncall.plugin.resolve(serviceOf(s), subject, oncall.config, pluginEnv(env.settings, job.id, pluginLog(env, job.id)));
      return { resolved: services.map((s) => s.external_id) };
    },
  });

/**
 * Someone asks for the on-call person of one of the record's project's active services (Dispatch's
 * engage-oncall): the person joins as an Observer once the on-call plugin names them, and the
 * service is paged when `page`. Returns the service's name.
 */
export async function engageOncall(ctx: Ctx, kind: RecordKind, recordId: number, serviceId: number, page: boolean): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const record = await assertVisible(ctx, kind, recordId, tx);
    const [svc] = await tx
      .select({ id: service.id, name: service.name, external_id: service.external_id })
      .from(service)
      .where(and(eq(service.id, serviceId), eq(service.project_id, record.project_id), eq(service.is_active, true)));
    if (!svc?.external_id) throw errors.notFound('An active on-call service');
    const ref = { id: svc.id, external_id: svc.external_id, name: svc.name ?? svc.external_id };
    const key = `engage:${kind.name}:${recordId}:${svc.id}:${Date.now()}`;
    await enqueueOncallResolve(tx, ctx, kind, recordId, { service: ref, role: 'Observer', provisional: null }, key);
    if (page) await enqueueOncallPage(tx, ctx, kind, recordId, ref, key);
    await logEvent(tx, ctx, eventOwner(kind, recordId), {
      description: `${ctx.user.email} engaged the on-call of ${ref.name}${page ? ' and paged it' : ''}`,
      type: 'Participant updated',
    });
    return ref.name;
  });
}

/** The on-call jobs; the app gives them the kinds of records. */
export const oncallJobs = (kinds: Record<KindName, RecordKind>): JobDefinition[] => [resolveJob(kinds), pageJob(kinds), resolvePagesJob(kinds)];
