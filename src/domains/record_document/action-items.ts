// The action items of a review: the checklist under its "Action items" heading, each line
// `- [ ] what to do (owner: a@example.com, b@example.com)`, as reviewers write them and as the
// review's template fills them from the incident's tasks.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { findDocument } from './content.ts';
import { recordDocument } from './table.ts';

export interface ActionItem {
  text: string;
  owners: string[];
  done: boolean;
}

const ITEM = /^\s*[-*+]\s+\[( |x|X)\]\s+(.*?)\s*(?:\(owners?:\s*([^)]*)\))?\s*$/;

export function actionItems(markdown: string): ActionItem[] {
  const out: ActionItem[] = [];
  let inside = false;
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      inside = /^action items\b/i.test(heading[1].trim());
      continue;
    }
    const item = inside ? ITEM.exec(line) : null;
    if (!item?.[2]) continue;
    const owners = (item[3] ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter((o) => /^[^\s@]+@[^\s@]+$/.test(o));
    out.push({ text: item[2], owners, done: item[1] !== ' ' });
  }
  return out;
}

/** The review's incident and its open action items; 404 for a document the caller may not see or that belongs to no incident. */
export async function reviewActionItems(db: Executor, ctx: Ctx, documentId: number): Promise<{ incidentId: number; items: ActionItem[] }> {
  const doc = await findDocument(db, ctx, documentId);
  const [owner] = await db.select({ incident_id: recordDocument.incident_id }).from(recordDocument).where(eq(recordDocument.document_id, doc.id));
  if (!owner?.incident_id) throw errors.notFound('A review of an incident');
  return { incidentId: owner.incident_id, items: actionItems(doc.content ?? '').filter((i) => !i.done) };
}
