// Incident tasks: list (with include[]), create, update, delete; each write one transaction with its
// timeline event. Who may write: IncidentEdit on the task's incident (Admins and above, its
// commander and its reporter); a task's owner and assignees may also update it. Tasks of incidents
// the caller may not see are hidden: left out of lists, 404 otherwise.
//
// People are named by email (`individual.email`) and become participants of the incident (as
// Observers, or reactivated), as Dispatch does: the creator (always the caller), the assignees
// (none given: the creator), the owner (none given: the incident's commander).
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runList, type Page } from '../../list/engine.ts';
import { applyInclude, type Included } from '../../list/include.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { logIncidentEvent } from '../event/service.ts';
import { incident } from '../lifecycle/table.ts';
import { assertCanEdit, incidentVisible, visibleIncidents } from '../incident/visibility.ts';
import { individualContact } from '../individual/table.ts';
import { addParticipant } from '../lifecycle/participants.ts';
import { INCIDENT } from '../incident/kind.ts';
import { participant } from '../lifecycle/table.ts';
import { taskList } from './list.ts';
import { taskReader } from './reader.ts';
import type { TaskBody, TaskReadT } from './schema.ts';
import { task, taskAssignee } from './table.ts';
import { audit, deletedEntry } from '../audit/record.ts';
import { enqueueTaskTicket } from './ticket.ts';

const DAY = 24 * 3600_000;
const notFound = () => errors.notFound('A task');

type TaskRow = typeof task.$inferSelect;

/** When a task is due unless the body says: a day after creation, a week for post-incident review tasks. */
export const defaultResolveBy = (source: string, createdAt: Date) => new Date(createdAt.getTime() + (source === 'Post Incident Review' ? 7 : 1) * DAY);

async function readTask(db: Executor, ctx: Ctx, id: number): Promise<TaskReadT> {
  return (await taskReader()(db, [id], ctx)).get(id)!;
}

export async function listTasks(ctx: Ctx, query: ListQueryT, include: string[]): Promise<Page<Included<TaskReadT>>> {
  const page = await runList<{ id: number }>(
    ctx.db,
    ctx,
    taskList,
    query,
    eq(task.organization_id, ctx.organization.id),
    incidentVisible(ctx, task.incident_id),
  );
  const byId = await taskReader()(
    ctx.db,
    page.items.map((r) => r.id),
    ctx,
  );
  const items = page.items.map((r) => byId.get(r.id)!).filter(Boolean);
  return { ...page, items: applyInclude(items, include) };
}

/** The task's incident named in the body: one the caller may see, else 422 as for an unknown one. */
async function bodyIncident(tx: Executor, ctx: Ctx, ref: TaskBody['incident']): Promise<number> {
  const byId = typeof ref?.id === 'number';
  if (!byId && typeof ref?.name !== 'string') throw invalid(['incident'], 'field required', 'value_error.missing');
  const [row] = await tx
    .select({ id: incident.id })
    .from(incident)
    .where(and(byId ? eq(incident.id, ref!.id!) : eq(incident.name, ref!.name as string), visibleIncidents(ctx)));
  if (!row) throw invalid(['incident'], 'Incident not found.', 'value_error.not_found');
  return row.id;
}

/** A task of the caller's organization whose incident the caller may see; 404 otherwise. */
async function visibleTask(tx: Executor, ctx: Ctx, id: number, lock = false): Promise<TaskRow> {
  const query = tx
    .select()
    .from(task)
    .where(and(eq(task.id, id), eq(task.organization_id, ctx.organization.id), incidentVisible(ctx, task.incident_id)));
  // A write's first read holds the row: writes of one task run one after the other, and one that
  // waited for a delete finds no row (404).
  const [row] = await (lock ? query.for('update', { of: task }) : query);
  if (!row) throw notFound();
  return row;
}

const emailOf = (p: { individual?: { email?: string } } | null | undefined) => p?.individual?.email?.trim() || undefined;

/** The name a participant goes by in timeline events. */
async function participantName(tx: Executor, participantId: number): Promise<string> {
  const [row] = await tx
    .select({ name: individualContact.name, email: individualContact.email })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(eq(participant.id, participantId));
  return row?.name || row?.email || 'Someone';
}

/** The caller as a participant of the incident (added as an Observer if they were not one). */
const callerParticipant = (tx: Executor, ctx: Ctx, incidentId: number) =>
  addParticipant(tx, ctx, INCIDENT, incidentId, ctx.user.email, 'Observer', { reason: 'Created or changed an incident task' });

/** Adds the people named to the incident; their participant ids, without repeats. */
async function participantsFor(tx: Executor, ctx: Ctx, incidentId: number, people: TaskBody['assignees'], reason: string): Promise<number[]> {
  const ids: number[] = [];
  for (const p of people ?? []) {
    const email = emailOf(p);
    if (email) ids.push(await addParticipant(tx, ctx, INCIDENT, incidentId, email, 'Observer', { reason }));
  }
  return [...new Set(ids)];
}

async function setAssignees(tx: Executor, taskId: number, participantIds: number[]) {
  await tx.delete(taskAssignee).where(eq(taskAssignee.task_id, taskId));
  if (participantIds.length) await tx.insert(taskAssignee).values(participantIds.map((participant_id) => ({ task_id: taskId, participant_id })));
}

/** Plain fields a body sets (references and server-owned fields aside). */
function fieldsFrom(body: TaskBody) {
  const out: Partial<typeof task.$inferInsert> = {};
  for (const key of ['description', 'priority', 'source', 'resource_id', 'resource_type', 'weblink'] as const) {
    if (body[key] !== undefined) out[key] = body[key];
  }
  if (body.resolve_by !== undefined) out.resolve_by = body.resolve_by === null ? null : new Date(body.resolve_by);
  return out;
}

export async function createTask(ctx: Ctx, body: TaskBody) {
  return ctx.db.transaction(async (tx) => {
    const incidentId = await bodyIncident(tx, ctx, body.incident);
    const inc = await assertCanEdit(ctx, incidentId, tx);
    const now = new Date();
    const creatorId = await callerParticipant(tx, ctx, incidentId);
    const assignees = await participantsFor(tx, ctx, incidentId, body.assignees, 'Assigned an incident task');
    if (assignees.length === 0) assignees.push(creatorId);
    const ownerEmail = emailOf(body.owner);
    const ownerId = ownerEmail
      ? await addParticipant(tx, ctx, INCIDENT, incidentId, ownerEmail, 'Observer', { reason: 'Owns an incident task' })
      : inc.commander_id;
    const fields = fieldsFrom(body);
    const source = fields.source ?? 'Incident';
    const status = body.status ?? 'Open';
    const [row] = await tx
      .insert(task)
      .values({
        ...fields,
        organization_id: ctx.organization.id,
        project_id: inc.project_id,
        incident_id: incidentId,
        status,
        priority: fields.priority ?? 'Low',
        source,
        weblink: fields.weblink ?? `${ctx.settings.uiUrl.replace(/\/+$/, '')}/${ctx.organization.slug}/tasks`,
        resolve_by: fields.resolve_by ?? defaultResolveBy(source, now),
        resolved_at: status === 'Resolved' ? now : null,
        creator_id: creatorId,
        owner_id: ownerId,
        created_at: now,
        updated_at: now,
      })
      .returning();
    await setAssignees(tx, row.id, assignees);
    await enqueueTaskTicket(tx, ctx, row.id);
    await logIncidentEvent(tx, ctx, incidentId, {
      description: `New incident task created by ${await participantName(tx, creatorId)}`,
      details: { task_id: row.id, description: row.description, weblink: row.weblink },
      at: now,
    });
    return readTask(tx, ctx, row.id);
  });
}

/** Whether the caller is the task's owner or one of its assignees. */
async function worksOn(tx: Executor, ctx: Ctx, row: TaskRow): Promise<boolean> {
  const mine = sql`lower(${individualContact.email}) = lower(${ctx.user.email})`;
  const [hit] = await tx
    .select({ id: participant.id })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(
      and(
        mine,
        sql`(${participant.id} = ${row.owner_id} OR ${participant.id} IN (SELECT ${taskAssignee.participant_id} FROM ${taskAssignee} WHERE ${taskAssignee.task_id} = ${row.id}))`,
      ),
    )
    .limit(1);
  return !!hit;
}

/** IncidentEdit on the task's incident, or (for updates) the task's owner or an assignee. */
async function assertCanWrite(tx: Executor, ctx: Ctx, row: TaskRow, ownWork: boolean) {
  if (atLeast(ctx.role, 'Admin')) return;
  if (ownWork && (await worksOn(tx, ctx, row))) return;
  await assertCanEdit(ctx, row.incident_id, tx);
}

/**
 * Updates a task. Fields sent are copied; assignees and owner sent replace the old ones (an empty
 * list keeps them) and join the incident; the incident stays. resolved_at is set when the task is
 * resolved and cleared when it is reopened.
 */
export async function updateTask(ctx: Ctx, id: number, body: TaskBody) {
  return ctx.db.transaction(async (tx) => {
    const row = await visibleTask(tx, ctx, id, true);
    await assertCanWrite(tx, ctx, row, true);
    const now = new Date();
    const values: Partial<typeof task.$inferInsert> = { ...fieldsFrom(body), updated_at: now };
    const status = body.status ?? row.status;
    if (status !== row.status) {
      values.status = status;
      values.resolved_at = status === 'Resolved' ? now : null;
    }
    const assignees = await participantsFor(tx, ctx, row.incident_id, body.assignees, 'Assigned an incident task');
    if (assignees.length) await setAssignees(tx, id, assignees);
    const ownerEmail = emailOf(body.owner);
    if (ownerEmail) values.owner_id = await addParticipant(tx, ctx, INCIDENT, row.incident_id, ownerEmail, 'Observer', { reason: 'Owns an incident task' });
    await tx.update(task).set(values).where(eq(task.id, id));
    if (status !== row.status) await enqueueTaskTicket(tx, ctx, id);
    const who = await callerName(tx, ctx, row.project_id);
    const what = status === row.status ? 'updated' : status === 'Resolved' ? 'resolved' : 'reopened';
    await logIncidentEvent(tx, ctx, row.incident_id, {
      description: `Incident task ${what} by ${who}`,
      details: { task_id: id, description: values.description ?? row.description },
      at: now,
    });
    return readTask(tx, ctx, id);
  });
}

export async function deleteTask(ctx: Ctx, id: number) {
  await ctx.db.transaction(async (tx) => {
    const row = await visibleTask(tx, ctx, id, true);
    await assertCanWrite(tx, ctx, row, false);
    await tx.delete(task).where(eq(task.id, id));
    await audit(tx, ctx, deletedEntry('task', row));
    await logIncidentEvent(tx, ctx, row.incident_id, {
      description: `Incident task deleted by ${await callerName(tx, ctx, row.project_id)}`,
      details: { task_id: id, description: row.description },
    });
  });
  return null;
}

/** The caller's name as the project's contacts know them, else their email. */
async function callerName(tx: Executor, ctx: Ctx, projectId: number): Promise<string> {
  const [row] = await tx
    .select({ name: individualContact.name })
    .from(individualContact)
    .where(and(eq(individualContact.project_id, projectId), sql`lower(${individualContact.email}) = lower(${ctx.user.email})`))
    .orderBy(individualContact.id)
    .limit(1);
  return row?.name || ctx.user.email;
}
