// Notifications of incident and case events (BEHAVIOR §16.1).
import type { Executor } from '../../db/connection.ts';
import type { Subject } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import type { RecordEvent } from './events.ts';

/** Enqueues one message job per notification (and matching filter) that asks for this event. */
export async function notifyRecordEvent(_tx: Executor, _ctx: Ctx, _subject: Subject, _event: RecordEvent, _jobId: string): Promise<void> {}
