// The `record-documents` job a write enqueues, in its own transaction, when the project's document
// plugin reaches an outside system: the job (jobs.ts) runs the steps the write would have run.
import type { Executor } from '../../db/connection.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { Ctx } from '../../server/context.ts';
import type { EffectsContext } from '../effects/job-context.ts';
import type { RecordChange } from '../lifecycle/events.ts';
import type { RecordKind } from '../lifecycle/kind.ts';

export const RECORD_DOCUMENTS = 'record-documents';

export interface DocumentsJob extends EffectsContext {
  kind: 'incident' | 'case';
  id: number;
  /** The status change the documents follow; none: the record was just created. */
  change?: RecordChange;
}

export async function enqueueDocuments(tx: Executor, ctx: Ctx, kind: RecordKind, id: number, change?: RecordChange): Promise<void> {
  const data: DocumentsJob = { organization_id: ctx.organization.id, user: { id: ctx.user.id, email: ctx.user.email }, kind: kind.name, id, change };
  await enqueue(tx, RECORD_DOCUMENTS, data);
}
