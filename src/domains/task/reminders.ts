// Task reminders (a periodic task, hourly): an Open task with reminders on, past its resolve-by
// time, reminds its owner and assignees once a day (at each whole day past due), by e-mail.
import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import { individualContact } from '../individual/table.ts';
import { incident, participant } from '../lifecycle/table.ts';
import { enqueueEmail } from '../plugin/messages.ts';
import type { ProjectScope } from '../project/each.ts';
import { task, taskAssignee } from './table.ts';

const HOUR = 3600_000;

export async function remindTasks({ ctx, project }: ProjectScope, now: Date): Promise<number> {
  const overdue = await ctx.db
    .select({
      id: task.id,
      description: task.description,
      resolve_by: task.resolve_by,
      owner_id: task.owner_id,
      incident: incident.name,
      incident_id: incident.id,
    })
    .from(task)
    .innerJoin(incident, eq(incident.id, task.incident_id))
    .where(and(eq(incident.project_id, project.id), eq(task.status, 'Open'), eq(task.reminders, true), isNotNull(task.resolve_by), lte(task.resolve_by, now)));
  // Once a day: at each whole 24 hours past due.
  const due = overdue.filter((t) => Math.floor((now.getTime() - t.resolve_by!.getTime()) / HOUR) % 24 === 0);
  if (due.length === 0) return 0;
  const people = await ctx.db
    .select({ task_id: taskAssignee.task_id, email: individualContact.email })
    .from(taskAssignee)
    .innerJoin(participant, eq(participant.id, taskAssignee.participant_id))
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(
      inArray(
        taskAssignee.task_id,
        due.map((t) => t.id),
      ),
    );
  const ownerIds = due.map((t) => t.owner_id).filter((v): v is number => v !== null);
  const owners = ownerIds.length
    ? await ctx.db
        .select({ id: participant.id, email: individualContact.email })
        .from(participant)
        .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
        .where(inArray(participant.id, ownerIds))
    : [];
  const ownerEmail = new Map(owners.map((o) => [o.id, o.email]));
  let sent = 0;
  await ctx.db.transaction(async (tx) => {
    for (const t of due) {
      const to = [
        ...new Set(
          [...(t.owner_id ? [ownerEmail.get(t.owner_id)] : []), ...people.filter((p) => p.task_id === t.id).map((p) => p.email)].filter(
            (e): e is string => !!e,
          ),
        ),
      ];
      if (to.length === 0) continue;
      const days = Math.floor((now.getTime() - t.resolve_by!.getTime()) / (24 * HOUR));
      const what = t.description ?? `task ${t.id}`;
      await enqueueEmail(
        tx,
        project.id,
        {
          to,
          subject: `[${t.incident ?? t.incident_id}] Task overdue: ${what.slice(0, 80)}`,
          text: `This task of ${t.incident ?? `incident ${t.incident_id}`} was due ${t.resolve_by!.toISOString()}${days ? ` (${days} day(s) ago)` : ''}:\n\n${what}\n\nResolve it, or turn its reminders off.\n`,
        },
        `task-reminder:${t.id}:${t.resolve_by!.toISOString()}:${days}`,
      );
      sent++;
    }
  });
  return sent;
}
