// Where a record talks: an incident's own channel, or a thread for a case in the channel its case
// type names (`conversation_target`, a channel id or #name), as Dispatch 0.1.0 does. Stored in the
// record's `conversation` column as `{resource_id, resource_type, channel_id, thread_id, weblink}`
// (what the chat endpoints find a record by), plus what only Muster reads: who it invited, and
// `archived` once it archived the channel.
import { and, eq, sql } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import type { Configuration, ConversationPlugin, PluginEnv, Subject } from '../../plugins/types.ts';
import { caseType } from '../case_type/table.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { caseTable, type incident } from '../lifecycle/table.ts';
import { summaryOf } from './messages.ts';

/** The project's conversation plugin, ready to call. */
export interface Talk {
  plugin: ConversationPlugin;
  config: Configuration;
  env: PluginEnv;
}

export interface Room {
  resource_id: string;
  resource_type: string;
  channel_id: string;
  /** The ts of a case thread's root message; null for an incident's own channel. */
  thread_id: string | null;
  weblink: string;
  /**
   * Who Muster invited (lower-case e-mails): only newcomers are invited later, so that someone who
   * left the channel is not pulled back each time another person joins.
   */
  invited?: string[];
  /** Set once Muster archived the channel (the incident closed). */
  archived?: boolean;
}

const table = (kind: RecordKind) => kind.table as typeof incident;

/** The record's room as stored, or null. */
export async function storedRoom(db: Executor, kind: RecordKind, id: number): Promise<Room | null> {
  const [row] = await db
    .select({ conversation: table(kind).conversation })
    .from(table(kind))
    .where(eq(table(kind).id, id));
  const c = row?.conversation as Room | null | undefined;
  return c?.channel_id ? c : null;
}

/** Stores the record's room (in the caller's transaction). */
export async function storeRoom(tx: Executor, kind: RecordKind, id: number, room: Room): Promise<void> {
  await tx
    .update(table(kind))
    .set({ conversation: room })
    .where(eq(table(kind).id, id));
}

/** Notes what Muster did in a room, if it is still the record's (a reopened incident may have a new one). */
export async function noteRoom(db: Executor, kind: RecordKind, id: number, room: Room, note: Pick<Room, 'invited' | 'archived'>): Promise<void> {
  const t = table(kind);
  await db
    .update(t)
    .set({ conversation: sql`${t.conversation} || ${JSON.stringify(note)}::jsonb` })
    .where(and(eq(t.id, id), sql`${t.conversation} ->> 'channel_id' = ${room.channel_id}`));
  Object.assign(room, note);
}

/**
 * An incident's channel, made now: named after the incident (its name, else what its ticket would
 * name it), private when the incident is Restricted or the configuration says so. Its topic is
 * set once it is stored (sync.ts), so that a failure past this point never makes a second one.
 */
export async function makeChannel(talk: Talk, settings: Settings, s: Subject): Promise<Room> {
  const name = s.name ?? `${settings.namePrefix}-${s.organization.slug}-${s.project.slug}-${s.id}`;
  const channel = await talk.plugin.createChannel(name, { private: s.visibility === 'Restricted' }, talk.config, talk.env);
  return { resource_id: channel.id, resource_type: talk.plugin.slug, channel_id: channel.id, thread_id: null, weblink: channel.weblink };
}

/** The channel a case's type sends its cases to, if it names one. */
export async function caseTarget(db: Executor, caseId: number): Promise<string | null> {
  const [row] = await db
    .select({ target: caseType.conversation_target })
    .from(caseTable)
    .innerJoin(caseType, eq(caseType.id, caseTable.case_type_id))
    .where(eq(caseTable.id, caseId));
  return row?.target?.trim() || null;
}

/**
 * A case's thread, made now: the case's summary posted in its type's channel is the thread's root.
 * A target the app cannot find fails the job (retried; the case is not touched).
 */
export async function makeThread(talk: Talk, s: Subject, target: string): Promise<Room> {
  const channel = await talk.plugin.findChannel(target, talk.config, talk.env);
  if (!channel) throw new Error(`the conversation target ${target} of the case's type is no channel the app can see`);
  const { ts } = await talk.plugin.post(channel.id, summaryOf(s), talk.config, talk.env);
  return { resource_id: channel.id, resource_type: talk.plugin.slug, channel_id: channel.id, thread_id: ts, weblink: channel.weblink };
}
