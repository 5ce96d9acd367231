// The `record-documents` job: a record's documents made, refreshed and made read-only by a document
// plugin that reaches an outside system, after the write, the same steps the write runs for an inline
// one (make.ts). Each run is one transaction: a plugin that fails rolls it back, and the retry
// (the plugin is given the same idempotency key) makes what is still missing.
import { defineJob } from '../../jobs/definition.ts';
import { jobContext } from '../effects/job-context.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { type DocumentsJob, RECORD_DOCUMENTS } from './enqueue.ts';
import { recordDocumentsCreated, recordDocumentsUpdated } from './make.ts';

export const recordDocumentsJob = (kinds: Record<'incident' | 'case', RecordKind>) =>
  defineJob<DocumentsJob>({
    name: RECORD_DOCUMENTS,
    // A document service that is down for a while: retried after about 10 s, 20 s, 40 s, 80 s, 160 s.
    retryLimit: 5,
    retryDelay: 10,
    async run(job, env) {
      const ctx = await jobContext(env, job.data);
      if (!ctx) return { skipped: 'organization deleted' };
      const kind = kinds[job.data.kind];
      const { id, change } = job.data;
      await env.db.transaction(async (tx) => {
        const inTx = { ...ctx, db: tx };
        if (change) await recordDocumentsUpdated(tx, inTx, kind, id, change, 'job');
        else await recordDocumentsCreated(tx, inTx, kind, [id], 'job');
      });
      return { [kind.name]: id };
    },
  });
