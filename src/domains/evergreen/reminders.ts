// Evergreen reminders (BEHAVIOR §16.2; a periodic task, Mondays at 18:00): documents, services,
// teams and notifications marked evergreen whose owner has not been reminded for their interval
// (whole days since the last reminder, or since the record was created, at least
// `evergreen_reminder_interval`) are grouped by owner, one e-mail each listing them by kind, and
// their `evergreen_last_reminder_at` is set in the transaction that enqueues the e-mail.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { document } from '../document/table.ts';
import { notification } from '../notification/table.ts';
import { enqueueEmail } from '../plugin/messages.ts';
import type { ProjectScope } from '../project/each.ts';
import { service } from '../service/table.ts';
import { teamContact } from '../team/table.ts';

interface EvergreenTable {
  label: string;
  table: typeof document | typeof service | typeof teamContact | typeof notification;
  name: PgColumn;
}

const KINDS: EvergreenTable[] = [
  { label: 'Documents', table: document, name: document.name },
  { label: 'Services', table: service, name: service.name },
  { label: 'Teams', table: teamContact, name: teamContact.name },
  { label: 'Notifications', table: notification, name: notification.name },
];

export async function remindEvergreen({ ctx, project }: ProjectScope, now: Date): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const byOwner = new Map<string, Map<string, string[]>>();
    for (const k of KINDS) {
      const t = k.table as typeof document;
      const overdue = await tx
        .select({ id: t.id, name: k.name, owner: t.evergreen_owner })
        .from(t)
        .where(
          and(
            eq(t.project_id, project.id),
            eq(t.evergreen, true),
            isNotNull(t.evergreen_owner),
            sql`floor(extract(epoch FROM (${now}::timestamptz - coalesce(${t.evergreen_last_reminder_at}, ${t.created_at}))) / 86400) >= ${t.evergreen_reminder_interval}`,
          ),
        );
      if (overdue.length === 0) continue;
      for (const r of overdue) {
        const kinds = byOwner.get(r.owner!) ?? new Map<string, string[]>();
        kinds.set(k.label, [...(kinds.get(k.label) ?? []), String(r.name)]);
        byOwner.set(r.owner!, kinds);
      }
      await tx
        .update(t)
        .set({ evergreen_last_reminder_at: now })
        .where(
          inArray(
            t.id,
            overdue.map((r) => r.id),
          ),
        );
    }
    const day = now.toISOString().slice(0, 10);
    for (const [owner, kinds] of byOwner) {
      const sections = [...kinds].map(([label, names]) => `${label}:\n${names.map((n) => `- ${n}`).join('\n')}`);
      await enqueueEmail(
        tx,
        project.id,
        {
          to: [owner],
          subject: `Evergreen reminder: ${[...kinds.values()].flat().length} record(s) of ${project.name} to review`,
          text: `These records of ${project.name} that you own are due for review (are they still accurate?):\n\n${sections.join('\n\n')}\n`,
        },
        `evergreen:${project.id}:${owner.toLowerCase()}:${day}`,
      );
    }
    return byOwner.size;
  });
}
