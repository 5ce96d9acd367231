// Periodic messages about a project's incidents (BEHAVIOR §13): report reminders to commanders
// whose tactical or executive report is overdue by the priority's reminder hours (and to the
// incident's chat channel), close reminders for incidents long Stable, and the daily and weekly
// summaries sent to the project's notifications. Each message is a job keyed by what it is for and
// the period it belongs to, so a task run again for the same period (or a retried job) sends
// nothing twice.
import { and, desc, eq, gte, inArray, isNotNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { emailOwners } from '../effects/owner-mail.ts';
import { subjectsOf } from '../lifecycle/subject.ts';
import { incident } from '../lifecycle/table.ts';
import { notification } from '../notification/table.ts';
import { enqueueConversation, enqueueEmail, enqueueWebhook } from '../plugin/messages.ts';
import type { ProjectScope } from '../project/each.ts';
import { report } from '../report/table.ts';
import { INCIDENT } from './kind.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Whole hours from `since` to `now`. */
const hoursSince = (since: Date, now: Date) => Math.floor((now.getTime() - since.getTime()) / HOUR);

/**
 * Reminds commanders of Active incidents whose tactical or executive report is due: when the whole
 * hours since the last report of that type (or since the incident was reported) are a positive
 * multiple of the priority's reminder hours. Returns how many reminders it enqueued.
 */
export async function remindReports({ ctx, project }: ProjectScope, now: Date): Promise<number> {
  const rows = await ctx.db
    .select({
      id: incident.id,
      reported_at: incident.reported_at,
      tactical: incidentPriority.tactical_report_reminder,
      executive: incidentPriority.executive_report_reminder,
      last_tactical: sql<Date | null>`(SELECT max(${report.created_at}) FROM ${report} WHERE ${report.incident_id} = ${incident.id} AND ${report.type} = 'Tactical Report')`,
      last_executive: sql<Date | null>`(SELECT max(${report.created_at}) FROM ${report} WHERE ${report.incident_id} = ${incident.id} AND ${report.type} = 'Executive Report')`,
    })
    .from(incident)
    .innerJoin(incidentPriority, eq(incidentPriority.id, incident.incident_priority_id))
    .where(and(eq(incident.project_id, project.id), eq(incident.status, 'Active')));
  const due: { id: number; kind: 'tactical' | 'executive'; hours: number; since: Date }[] = [];
  for (const r of rows) {
    for (const [kind, every, last] of [
      ['tactical', r.tactical, r.last_tactical],
      ['executive', r.executive, r.last_executive],
    ] as const) {
      const since = new Date(last ?? r.reported_at);
      const hours = hoursSince(since, now);
      if (every > 0 && hours > 0 && hours % every === 0) due.push({ id: r.id, kind, hours, since });
    }
  }
  if (due.length === 0) return 0;
  const subjects = new Map((await subjectsOf(ctx.db, ctx.settings, INCIDENT, [...new Set(due.map((d) => d.id))])).map((s) => [s.id, s]));
  let sent = 0;
  await ctx.db.transaction(async (tx) => {
    for (const d of due) {
      const s = subjects.get(d.id);
      // Counted from the last report: a new report starts a new count, with keys of its own.
      const key = `report-reminder:${d.id}:${d.kind}:${d.since.toISOString()}:${d.hours}`;
      await tellConversation(tx, INCIDENT, [d.id], { event: 'reminder', reminder: { report: d.kind, hours: d.hours } }, key);
      if (!s?.owner) continue;
      const label = d.kind === 'tactical' ? 'tactical' : 'executive';
      await enqueueEmail(
        tx,
        project.id,
        {
          to: [s.owner],
          subject: `[${s.name ?? s.id}] ${label[0].toUpperCase()}${label.slice(1)} report reminder`,
          text: `The ${label} report of ${s.name ?? `incident ${s.id}`} (${s.title}) is due: the last one was ${d.hours} hour(s) ago.\n\nWrite it: ${s.weblink}\n`,
        },
        key,
      );
      sent++;
    }
  });
  return sent;
}

/** Reminds commanders of incidents Stable for a week or more to close them (Mondays). */
export async function remindToClose({ ctx, project }: ProjectScope, now: Date): Promise<number> {
  const stale = await ctx.db
    .select({ id: incident.id })
    .from(incident)
    .where(
      and(
        eq(incident.project_id, project.id),
        eq(incident.status, 'Stable'),
        isNotNull(incident.stable_at),
        lte(incident.stable_at, new Date(now.getTime() - 7 * DAY)),
      ),
    );
  const week = now.toISOString().slice(0, 10);
  return emailOwners(
    { ctx, project },
    INCIDENT,
    stale.map((r) => r.id),
    (s) => ({
      subject: `[${s.name ?? s.id}] Close reminder`,
      text: `${s.name ?? `Incident ${s.id}`} (${s.title}) has been Stable for a week or more. If nothing is left to do, close it: ${s.weblink}\n`,
      key: `close-reminder:${s.id}:${week}`,
    }),
  );
}

/**
 * The incidents a summary over `days` names: Active ones, and those that became Stable or Closed
 * within the window. Only Open incidents: a summary goes to channels and lists whoever may not see
 * a Restricted one.
 */
async function summaryIncidents(db: Executor, projectId: number, since: Date, until: Date, activeToo: boolean) {
  const within = (col: typeof incident.stable_at) => and(gte(col, since), lt(col, until));
  const changed = or(within(incident.stable_at), within(incident.closed_at));
  return db
    .select({ id: incident.id, name: incident.name, title: incident.title, status: incident.status })
    .from(incident)
    .where(
      and(
        eq(incident.project_id, projectId),
        eq(incident.visibility, 'Open'),
        activeToo ? or(eq(incident.status, 'Active'), changed) : and(ne(incident.status, 'Active'), changed),
      ),
    )
    .orderBy(incident.status, desc(incident.reported_at));
}

/**
 * Sends a summary to every enabled notification of the project (e-mail, conversation or webhook):
 * the daily one (Active incidents and those that became Stable or Closed in the last 24 hours) or
 * the weekly one (those that became Stable or Closed in the last 7 days). Nothing to say: nothing sent.
 */
export async function sendSummary({ ctx, project }: ProjectScope, now: Date, period: 'daily' | 'weekly'): Promise<number> {
  const since = new Date(now.getTime() - (period === 'daily' ? DAY : 7 * DAY));
  const items = await summaryIncidents(ctx.db, project.id, since, now, period === 'daily');
  if (items.length === 0) return 0;
  const targets = await ctx.db
    .select({ id: notification.id, type: notification.type, target: notification.target })
    .from(notification)
    .where(and(eq(notification.project_id, project.id), eq(notification.enabled, true), inArray(notification.type, ['email', 'conversation', 'webhook'])));
  if (targets.length === 0) return 0;
  const title = `${period === 'daily' ? 'Daily' : 'Weekly'} incident summary for ${project.name}`;
  const lines = items.map((i) => `- [${i.status}] ${i.name ?? `#${i.id}`}: ${i.title}`);
  const text = `${title} (${items.length} incident${items.length === 1 ? '' : 's'}):\n\n${lines.join('\n')}\n`;
  const key = `${period}-summary:${project.id}:${now.toISOString().slice(0, 10)}`;
  await ctx.db.transaction(async (tx) => {
    for (const t of targets) {
      if (t.type === 'email') await enqueueEmail(tx, project.id, { to: [t.target], subject: title, text }, `${key}:${t.id}`);
      else if (t.type === 'conversation') await enqueueConversation(tx, project.id, t.target, text, `${key}:${t.id}`);
      else await enqueueWebhook(tx, project.id, t.target, `incident.summary.${period}`, { project: project.name, incidents: items }, `${key}:${t.id}`);
    }
  });
  return targets.length;
}
