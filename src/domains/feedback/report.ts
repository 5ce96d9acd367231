// The daily feedback report (a periodic task): the feedback participants gave on the project's
// incidents in the last 24 hours, e-mailed to the project's owner (`owner_email`); a project
// without one, or without new feedback, sends nothing. Feedback on Restricted incidents is left out:
// the owner's address may be anyone's.
import { and, eq, gte, lt } from 'drizzle-orm';
import { incident } from '../lifecycle/table.ts';
import { enqueueEmail } from '../plugin/messages.ts';
import type { ProjectScope } from '../project/each.ts';
import { project as projectTable } from '../project/table.ts';
import { feedback } from './table.ts';

export async function sendFeedbackReport({ ctx, project }: ProjectScope, now: Date): Promise<number> {
  const [owner] = await ctx.db.select({ email: projectTable.owner_email }).from(projectTable).where(eq(projectTable.id, project.id));
  if (!owner?.email) return 0;
  const since = new Date(now.getTime() - 24 * 3600_000);
  const rows = await ctx.db
    .select({ rating: feedback.rating, text: feedback.feedback, incident: incident.name, incident_id: incident.id })
    .from(feedback)
    .innerJoin(incident, eq(incident.id, feedback.incident_id))
    .where(and(eq(feedback.project_id, project.id), eq(incident.visibility, 'Open'), gte(feedback.created_at, since), lt(feedback.created_at, now)));
  if (rows.length === 0) return 0;
  const lines = rows.map((r) => `- ${r.incident ?? `incident ${r.incident_id}`}: ${r.rating}${r.text ? ` - ${r.text}` : ''}`);
  await enqueueEmail(
    ctx.db,
    project.id,
    {
      to: [owner.email],
      subject: `Incident feedback for ${project.name}: ${rows.length} in the last day`,
      text: `Feedback given in the last 24 hours on incidents of ${project.name}:\n\n${lines.join('\n')}\n`,
    },
    `feedback-report:${project.id}:${now.toISOString().slice(0, 10)}`,
  );
  return 1;
}
