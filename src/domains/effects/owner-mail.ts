// One e-mail to the owner (commander, assignee) of each of some incidents or cases, enqueued in
// one transaction, keyed per record: what the periodic reminders send.
import { enqueueEmail } from '../plugin/messages.ts';
import type { ProjectScope } from '../project/each.ts';
import type { Subject } from '../../plugins/types.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { subjectsOf } from '../lifecycle/subject.ts';

export async function emailOwners(
  { ctx, project }: ProjectScope,
  kind: RecordKind,
  ids: number[],
  message: (s: Subject) => { subject: string; text: string; key: string },
): Promise<number> {
  if (ids.length === 0) return 0;
  const subjects = await subjectsOf(ctx.db, ctx.settings, kind, ids);
  let sent = 0;
  await ctx.db.transaction(async (tx) => {
    for (const s of subjects) {
      if (!s.owner) continue;
      const m = message(s);
      await enqueueEmail(tx, project.id, { to: [s.owner], subject: m.subject, text: m.text }, m.key);
      sent++;
    }
  });
  return sent;
}
