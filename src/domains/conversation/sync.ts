// The job that brings a record's room up to date with one event, through the project's active
// conversation plugin. Every run, whatever the event:
//   1. the room: the record's channel (or case thread) as stored; none yet (or the channel was
//      archived when the incident closed and it is open again: Slack lets no bot unarchive) and the
//      record is open: one is made now and stored, with the job's progress, in one transaction;
//   2. a room made by this job is set up: topic, every active participant invited (people Slack
//      does not know are logged, not an error), the summary posted;
//   3. the event: people changed -> active participants not invited yet are; a change, a report or
//      a reminder -> its message posted; the incident closed -> its channel archived after the message.
// The jobs of one record run one at a time (a singleton queue keyed by the record), so two events
// never make two channels. Slack calls that may be repeated (topic, invites, archive) are; a
// message posted is saved in the job's progress, so a retry (a rate limit: after the Retry-After
// Slack gave) posts nothing twice. An error fails the job after its retries and never the write
// that enqueued it. A Closed record is told only of its closing.
import type { Executor } from '../../db/connection.ts';
import { defineJob, type JobDefinition, type JobEnv } from '../../jobs/definition.ts';
import { type JobInfo, saveProgress } from '../../jobs/queue.ts';
import type { ChatMessage, Subject } from '../../plugins/types.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { activeParticipantEmails } from '../lifecycle/participants.ts';
import { subjectOf } from '../lifecycle/subject.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { CONVERSATION_SYNC, type ConversationEvent, type SyncJob } from './enqueue.ts';
import { changeOf, reminderOf, reportOf, resourceOf, summaryOf, topicOf } from './messages.ts';
import { caseTarget, makeChannel, makeThread, noteRoom, type Room, storedRoom, storeRoom, type Talk } from './room.ts';

/** What earlier attempts of a job did, kept in its data (saveProgress). */
interface Progress {
  /** The channel this job made: its setup follows. */
  made?: string;
  /** The made channel's topic, members and summary are done. */
  welcomed?: boolean;
  /** The event's message is posted. */
  posted?: boolean;
}

type Job = JobInfo<SyncJob & { progress?: Progress }>;

/** What a run did, for the job's output. */
interface Outcome {
  channel?: string;
  made?: boolean;
  invited?: number;
  unknown?: string[];
  posted?: boolean;
  archived?: boolean;
  skipped?: string;
}

const closes = (e: ConversationEvent) => e.event === 'updated' && e.change.status?.to === 'Closed';

/** The event's own message, if it has one (a creation's is the summary the room starts with). */
function messageOf(s: Subject, e: ConversationEvent): ChatMessage | null {
  switch (e.event) {
    case 'updated':
      return changeOf(s, e.change);
    case 'report':
      return reportOf(s, e.report);
    case 'reminder':
      return reminderOf(s, e.reminder);
    case 'resource':
      return resourceOf(s, e.resource);
    default:
      return null;
  }
}

class Run {
  readonly progress: Progress;
  readonly out: Outcome = {};

  constructor(
    readonly job: Job,
    readonly env: JobEnv,
    readonly kind: RecordKind,
    readonly talk: Talk,
    readonly subject: Subject,
  ) {
    this.progress = { ...job.data.progress };
  }

  /** Keeps what was done, with the caller's writes when given. */
  async save(done: Progress, tx?: Executor) {
    Object.assign(this.progress, done);
    const write = (t: Executor) => saveProgress(t, this.job, { progress: this.progress });
    if (tx) await write(tx);
    else await this.env.db.transaction(write);
  }

  /** The room to talk in, made now when the record has none it can use; null when it gets none. */
  async room(): Promise<Room | null> {
    const s = this.subject;
    const stored = await storedRoom(this.env.db, this.kind, s.id);
    if (stored && !stored.archived) return stored;
    if (s.status === 'Closed') return null;
    let room: Room;
    if (this.kind.name === 'incident') room = await makeChannel(this.talk, this.env.settings, s);
    else {
      const target = await caseTarget(this.env.db, s.id);
      if (!target) return null;
      room = await makeThread(this.talk, s, target);
    }
    await this.env.db.transaction(async (tx) => {
      await storeRoom(tx, this.kind, s.id, room);
      await this.save({ made: room.channel_id, welcomed: this.kind.name === 'case' }, tx);
    });
    this.out.made = true;
    return room;
  }

  /** Invites the active participants the room has not invited yet; those the platform does not know are tried again next time. */
  async invite(room: Room) {
    const before = new Set(room.invited);
    const newcomers = (await activeParticipantEmails(this.env.db, this.kind, this.subject.id)).filter((e) => !before.has(e.toLowerCase()));
    if (newcomers.length === 0) return;
    const { invited, unknown } = await this.talk.plugin.invite(room.channel_id, newcomers, this.talk.config, this.talk.env);
    if (unknown.length) this.talk.env.log.info(`not invited, unknown to the chat platform: ${unknown.join(', ')}`);
    if (invited.length) await noteRoom(this.env.db, this.kind, this.subject.id, room, { invited: [...before, ...invited.map((e) => e.toLowerCase())] });
    this.out.invited = invited.length;
    this.out.unknown = unknown;
  }

  async post(room: Room, message: ChatMessage) {
    await this.talk.plugin.post(room.channel_id, { ...message, thread: room.thread_id ?? undefined }, this.talk.config, this.talk.env);
  }

  /** A channel this job made: its topic, its people and the summary it starts with. */
  async welcome(room: Room) {
    await this.talk.plugin.setTopic(room.channel_id, topicOf(this.subject), this.talk.config, this.talk.env);
    await this.invite(room);
    await this.post(room, summaryOf(this.subject));
    await this.save({ welcomed: true });
  }

  async archive(room: Room) {
    await this.talk.plugin.archive(room.channel_id, this.talk.config, this.talk.env);
    await noteRoom(this.env.db, this.kind, this.subject.id, room, { archived: true });
    this.out.archived = true;
  }

  async run(): Promise<Outcome> {
    const { event } = this.job.data;
    const s = this.subject;
    const closed = s.status === 'Closed';
    if (closed && !closes(event)) return { skipped: `${this.kind.name} closed` };
    const room = await this.room();
    if (!room) return { skipped: closed ? `${this.kind.name} closed` : 'no conversation target' };
    this.out.channel = room.channel_id;
    const own = this.kind.name === 'incident';
    if (this.progress.made === room.channel_id && !this.progress.welcomed) await this.welcome(room);
    else if (own && event.event === 'people') await this.invite(room);
    if (own && event.event === 'updated' && event.change.roles?.some((r) => r.role === 'Incident Commander'))
      await this.talk.plugin.setTopic(room.channel_id, topicOf(s), this.talk.config, this.talk.env);
    const message = messageOf(s, event);
    if (message && !this.progress.posted) {
      await this.post(room, message);
      await this.save({ posted: true });
      this.out.posted = true;
    }
    // Closed when the job runs too: reopened meanwhile, its channel stays.
    if (own && closes(event) && closed) await this.archive(room);
    return this.out;
  }
}

const RETRIES = { retryLimit: 5, retryDelay: 5, expireInSeconds: 120 } as const;

/** The job; the app gives it the kinds of records. */
export const conversationSyncJob = (kinds: Record<'incident' | 'case', RecordKind>): JobDefinition =>
  defineJob<SyncJob & { progress?: Progress }>({
    name: CONVERSATION_SYNC,
    policy: 'singleton',
    ...RETRIES,
    async run(job, env) {
      const kind = kinds[job.data.kind];
      const subject = await subjectOf(env.db, env.settings, kind, job.data.record_id);
      if (!subject || subject.organization.id !== job.data.organization_id) return { skipped: 'record deleted' };
      const active = await activeInstance(env.db, env.settings, subject.project.id, 'conversation');
      if (!active) return { skipped: 'no active conversation plugin' };
      const log = {
        info: (msg: string) => env.log.info({ job: job.id, queue: job.name, [kind.name]: subject.id }, msg),
        warn: (msg: string) => env.log.warn({ job: job.id, queue: job.name, [kind.name]: subject.id }, msg),
      };
      const talk: Talk = { plugin: active.plugin, config: active.config, env: pluginEnv(env.settings, job.id, log) };
      return new Run(job, env, kind, talk, subject).run();
    },
  });
