// Notifications of incident and case events (BEHAVIOR §16.1). A record's creation, a change of its
// status, or (while it is not Closed) of its type, severity or priority is news; every enabled
// notification of its project hears of it: one with no search filters once, one with filters once
// per filter that matches the record (a filter matches records of its own subject only). Each
// hearing is one message job, enqueued in the caller's transaction and keyed by the parent job, the
// notification and the filter, so a retried parent sends nothing twice.
//
// Restricted records are notified like any other: the targets are chosen by Admins, who see every
// record; the message says the record is Restricted.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Subject } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { notification, notificationFilter } from '../notification/table.ts';
import { searchFilter } from '../search_filter/table.ts';
import type { RecordEvent } from '../lifecycle/events.ts';
import { matchFilters } from './filter-match.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { enqueueConversation, enqueueEmail, enqueueWebhook } from '../plugin/messages.ts';

/** Whether an event is news to notifications. */
export function isNews(subject: Pick<Subject, 'status'>, event: RecordEvent): boolean {
  if (event.event === 'created') return true;
  if (event.change.status) return true;
  return (event.change.assessment?.length ?? 0) > 0 && subject.status !== 'Closed';
}

/**
 * Enqueues one message job per record, notification (and matching filter) that asks for this event.
 * The notifications of all the records' projects are read at once, and their filters evaluated at
 * once for all the records (the cases a signal batch opens share one job).
 */
export async function notifyRecordEvent(tx: Executor, ctx: Ctx, kind: RecordKind, subjects: Subject[], event: RecordEvent, jobId: string): Promise<void> {
  const news = subjects.filter((s) => isNews(s, event));
  if (news.length === 0) return;
  const notifications = await tx
    .select({ id: notification.id, project_id: notification.project_id, name: notification.name, type: notification.type, target: notification.target })
    .from(notification)
    .where(
      and(
        eq(notification.organization_id, ctx.organization.id),
        inArray(notification.project_id, [...new Set(news.map((s) => s.project.id))]),
        eq(notification.enabled, true),
      ),
    )
    .orderBy(asc(notification.id));
  if (notifications.length === 0) return;
  const links = await tx
    .select({
      notification_id: notificationFilter.notification_id,
      id: searchFilter.id,
      name: searchFilter.name,
      subject: searchFilter.subject,
      expression: searchFilter.expression,
    })
    .from(notificationFilter)
    .innerJoin(searchFilter, eq(searchFilter.id, notificationFilter.search_filter_id))
    .where(
      inArray(
        notificationFilter.notification_id,
        notifications.map((n) => n.id),
      ),
    )
    .orderBy(asc(searchFilter.id));
  // Every filter of these notifications is evaluated at once; one of another subject matches nothing.
  const ofKind = links.filter((l) => l.subject === kind.name);
  const matched = await matchFilters(
    tx,
    kind,
    news.map((s) => s.id),
    ofKind,
  );
  for (const subject of news) {
    for (const { project_id: _, ...n } of notifications.filter((x) => x.project_id === subject.project.id)) {
      const own = links.filter((l) => l.notification_id === n.id);
      const firings = own.length === 0 ? [null] : own.filter((f) => matched.get(f.id)?.has(subject.id));
      // Keyed by the record too: one job may carry several records (the cases a signal batch opens).
      for (const f of firings) await sendNotice(tx, n, subject, event, f, `${jobId}:${kind.name}:${subject.id}:${n.id}:${f?.id ?? 'all'}`);
    }
  }
}

/** A search filter a notification names: what it is called goes into the message. */
interface NamedFilter {
  id: number;
  name: string;
}

interface Target {
  id: number;
  name: string;
  type: string;
  target: string;
}

async function sendNotice(tx: Executor, n: Target, subject: Subject, event: RecordEvent, filter: NamedFilter | null, key: string) {
  const notice = noticeOf(subject, event, n, filter);
  switch (n.type) {
    case 'email':
      await enqueueEmail(tx, subject.project.id, { to: [n.target], subject: notice.subjectLine, text: notice.text }, key);
      return;
    case 'conversation':
      await enqueueConversation(tx, subject.project.id, n.target, `${notice.subjectLine}\n${notice.text}`, key);
      return;
    case 'webhook':
      await enqueueWebhook(tx, subject.project.id, n.target, notice.webhookEvent, notice.payload, key);
      return;
  }
}

const KIND_WORD = { incident: 'Incident', case: 'Case' } as const;

/** What happened, in words: "created", "status changed from Active to Stable", "priority and severity changed". */
export function eventWords(event: RecordEvent): string {
  if (event.event === 'created') return 'created';
  const parts: string[] = [];
  if (event.change.status) parts.push(`status changed from ${event.change.status.from} to ${event.change.status.to}`);
  const assessed = event.change.assessment ?? [];
  if (assessed.length) parts.push(`${assessed.join(' and ')} changed`);
  return parts.join('; ') || 'updated';
}

/** A notification's message: an e-mail's subject and text, a chat post, a webhook's event and payload. */
export function noticeOf(subject: Subject, event: RecordEvent, n: Pick<Target, 'id' | 'name'>, filter: NamedFilter | null) {
  const word = KIND_WORD[subject.kind];
  const label = subject.name ?? `${subject.kind} ${subject.id}`;
  // A notification's target (a list, a channel, a URL) is read by people who may not open a
  // Restricted record: its name and link are told, never its title.
  const restricted = subject.visibility === 'Restricted';
  const title = restricted ? '(restricted)' : subject.title;
  const none = (v: string | null) => v ?? 'none';
  const lines = [
    `${word} ${label} ${eventWords(event)}.`,
    '',
    `Title: ${title}`,
    `Status: ${subject.status}`,
    `Type: ${none(subject.type)}`,
    `Priority: ${none(subject.priority)}`,
    `Severity: ${none(subject.severity)}`,
    `${subject.kind === 'incident' ? 'Commander' : 'Assignee'}: ${none(subject.owner)}`,
    `Reporter: ${none(subject.reporter)}`,
    `Project: ${subject.project.name}`,
    ...(subject.visibility === 'Restricted' ? ['Visibility: Restricted (only its participants and Admins may open it)'] : []),
    '',
    subject.weblink,
    '',
    `Sent for the notification "${n.name}"${filter ? ` (search filter "${filter.name}")` : ''}.`,
  ];
  const { description: _description, organization, ...record } = subject;
  if (restricted) record.title = title;
  return {
    subjectLine: `[${label}] ${title}`,
    text: `${lines.join('\n')}\n`,
    webhookEvent: `${subject.kind}.${event.event}`,
    payload: {
      notification: { id: n.id, name: n.name },
      filter: filter ? { id: filter.id, name: filter.name } : null,
      change: event.event === 'updated' ? event.change : null,
      record: { ...record, organization: { slug: organization.slug, name: organization.name } },
    },
  };
}
