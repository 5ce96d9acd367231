// Daily case reminders to assignees (periodic tasks at 18:00): cases waiting for triage (New or
// Triage) for a day or more, cases Stable for a day or more (close them?), and Escalated cases whose
// incidents are all Closed (the case can close too). One e-mail per case, keyed by the day.
import { and, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { emailOwners } from '../effects/owner-mail.ts';
import { caseIncident, caseTable, incident } from '../lifecycle/table.ts';
import type { ProjectScope } from '../project/each.ts';
import { CASE } from './kind.ts';

const DAY = 24 * 3600_000;

export type CaseReminder = 'triage' | 'stable' | 'close';

const WHICH: Record<CaseReminder, (now: Date) => SQL | undefined> = {
  triage: (now) => and(inArray(caseTable.status, ['New', 'Triage']), lte(caseTable.reported_at, new Date(now.getTime() - DAY))),
  stable: (now) => and(eq(caseTable.status, 'Stable'), lte(caseTable.stable_at, new Date(now.getTime() - DAY))),
  close: () =>
    and(
      eq(caseTable.status, 'Escalated'),
      sql`EXISTS (SELECT 1 FROM ${caseIncident} WHERE ${caseIncident.case_id} = ${caseTable.id})`,
      sql`NOT EXISTS (SELECT 1 FROM ${caseIncident} JOIN ${incident} ON ${incident.id} = ${caseIncident.incident_id} WHERE ${caseIncident.case_id} = ${caseTable.id} AND ${incident.status} <> 'Closed')`,
    ),
};

const ASK: Record<CaseReminder, string> = {
  triage: 'is waiting for triage',
  stable: 'has been Stable for a day or more; close it when nothing is left to do',
  close: 'was escalated and every incident it was escalated to is closed; close the case too',
};

export async function remindCases({ ctx, project }: ProjectScope, now: Date, which: CaseReminder): Promise<number> {
  const rows = await ctx.db
    .select({ id: caseTable.id })
    .from(caseTable)
    .where(and(eq(caseTable.project_id, project.id), WHICH[which](now)));
  const day = now.toISOString().slice(0, 10);
  return emailOwners(
    { ctx, project },
    CASE,
    rows.map((r) => r.id),
    (s) => ({
      subject: `[${s.name ?? s.id}] Case ${which} reminder`,
      text: `${s.name ?? `Case ${s.id}`} (${s.title}) ${ASK[which]}: ${s.weblink}\n`,
      key: `case-${which}-reminder:${s.id}:${day}`,
    }),
  );
}
