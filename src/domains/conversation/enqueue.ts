// What a write tells the chat platform, in the write's own transaction: one `conversation-sync` job
// per event of a record (created, updated, people changed, a report, a reminder), and only for a
// record whose project has an enabled conversation plugin. The jobs of one record run one at a
// time and in order (sync.ts): the first that finds no channel makes it, the others use it, so an
// event written before the channel exists loses nothing.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { RecordEvent } from '../lifecycle/events.ts';
import type { RecordRows } from '../lifecycle/kind.ts';
import type { incident } from '../lifecycle/table.ts';
import { readsPluginsOnce } from '../plugin/active.ts';
import { pluginInstance } from '../plugin/table.ts';
import type { ReminderNote, ReportNote, ResourceNote } from './messages.ts';

export const CONVERSATION_SYNC = 'conversation-sync';

export type ConversationEvent =
  | RecordEvent
  /** Someone joined, came back, left or took a role: the channel's members follow. */
  | { event: 'people' }
  | { event: 'report'; report: ReportNote }
  | { event: 'reminder'; reminder: ReminderNote }
  /** A document, meeting or folder made for the record: its link is posted. */
  | { event: 'resource'; resource: ResourceNote };

export interface SyncJob {
  organization_id: number;
  kind: 'incident' | 'case';
  record_id: number;
  event: ConversationEvent;
}

interface Talking {
  id: number;
  organization_id: number;
  txid: string;
}

/** In a transaction that reads plugins once: whether each record talks, found once (null: it does not). */
const known = new WeakMap<Executor, Map<string, Talking | null>>();

/**
 * Those of the records that talk (their project has an enabled conversation plugin): their id and
 * organization, and the id of the transaction writing them. The usual case (no plugin) costs one
 * indexed look-up, once per record in a transaction that reads plugins once (a batch's new cases
 * are told of their creation, then of their documents).
 */
async function talking(tx: Executor, kind: RecordRows, ids: number[]): Promise<Talking[]> {
  if (ids.length === 0) return [];
  if (!readsPluginsOnce(tx)) return lookUp(tx, kind, ids);
  const memo = known.get(tx) ?? new Map<string, Talking | null>();
  known.set(tx, memo);
  const key = (id: number) => `${kind.name}:${id}`;
  const unknown = ids.filter((id) => !memo.has(key(id)));
  if (unknown.length > 0) {
    const found = new Map((await lookUp(tx, kind, unknown)).map((r) => [r.id, r]));
    for (const id of unknown) memo.set(key(id), found.get(id) ?? null);
  }
  return ids.map((id) => memo.get(key(id))).filter((r): r is Talking => !!r);
}

function lookUp(tx: Executor, kind: RecordRows, ids: number[]): Promise<Talking[]> {
  // Drizzle's builder takes one table type, not a union of two; both have the columns used here.
  const table = kind.table as typeof incident;
  return tx
    .select({ id: table.id, organization_id: table.organization_id, txid: sql<string>`txid_current()::text` })
    .from(table)
    .innerJoin(
      pluginInstance,
      and(eq(pluginInstance.project_id, table.project_id), eq(pluginInstance.plugin_type, 'conversation'), eq(pluginInstance.enabled, true)),
    )
    .where(inArray(table.id, ids));
}

/**
 * Tells the records' channels (or threads) of `event`, in the caller's transaction. `key` names
 * what it is for when the caller may run again (a job): then each is enqueued once.
 */
export async function tellConversation(tx: Executor, kind: RecordRows, ids: number[], event: ConversationEvent, key?: string): Promise<void> {
  await tellConversations(
    tx,
    kind,
    ids.map((id) => ({ id, event })),
    key,
  );
}

/** tellConversation with an event of each record's own (the documents a batch of new records got): one look-up for all. */
export async function tellConversations(tx: Executor, kind: RecordRows, told: { id: number; event: ConversationEvent }[], key?: string): Promise<void> {
  const events = new Map<number, ConversationEvent[]>();
  for (const { id, event } of told) events.set(id, [...(events.get(id) ?? []), event]);
  for (const r of await talking(tx, kind, [...events.keys()]))
    for (const event of events.get(r.id)!) await enqueueSync(tx, { organization_id: r.organization_id, kind: kind.name, record_id: r.id, event }, key);
}

/**
 * The record's people changed (in the caller's transaction): its channel invites whoever is new.
 * Called after every change of people, so once per transaction is enough: the job invites everyone
 * active when it runs.
 */
export async function peopleChanged(tx: Executor, kind: RecordRows, recordId: number): Promise<void> {
  const [r] = await talking(tx, kind, [recordId]);
  if (r) await enqueueSync(tx, { organization_id: r.organization_id, kind: kind.name, record_id: recordId, event: { event: 'people' } }, `people:${r.txid}`);
}

/** One job per record and event; the jobs of one record run one at a time, in order (sync.ts). */
const enqueueSync = (tx: Executor, data: SyncJob, key: string | undefined) =>
  enqueue(tx, CONVERSATION_SYNC, data, {
    key: key === undefined ? undefined : `${data.kind}:${data.record_id}:${key}`,
    singletonKey: `${data.kind}:${data.record_id}`,
  });
