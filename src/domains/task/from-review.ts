// A review's open action items become the incident's tasks (source "Post Incident Review"), their
// owners its assignees; an item that is already a task of the incident (the same text) is not made
// twice. All of them in one transaction, through the one way a task is created.
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../server/context.ts';
import { reviewActionItems } from '../record_document/action-items.ts';
import { createTask } from './service.ts';
import { task } from './table.ts';

export async function tasksFromReview(ctx: Ctx, documentId: number) {
  return ctx.db.transaction(async (tx) => {
    const { incidentId, items } = await reviewActionItems(tx, ctx, documentId);
    const existing = new Set(
      (
        await tx
          .select({ description: task.description })
          .from(task)
          .where(and(eq(task.incident_id, incidentId)))
      ).map((t) => t.description?.trim()),
    );
    const made = [];
    for (const item of items) {
      if (existing.has(item.text)) continue;
      existing.add(item.text);
      made.push(
        await createTask(
          { ...ctx, db: tx },
          {
            incident: { id: incidentId },
            description: item.text,
            source: 'Post Incident Review',
            assignees: item.owners.map((email) => ({ individual: { email } })),
          },
        ),
      );
    }
    return made;
  });
}
