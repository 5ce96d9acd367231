// Who may open a record's folder at the storage service, kept in step with the record's people
// through its plugin's `share` and `unshare` (Muster's own plugin has neither: its files are seen by
// whoever may see the record). What the plugin gave is noted in the record's stored folder, which
// reads never show: `shared`, e-mail -> the handle of the access Muster gave, or null for access
// the person had already. So each run shares with who joined since and takes back, from who left,
// only the access Muster gave; access given by a person at the service stays theirs to manage.
import { and, eq, sql } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import type { PluginEnv, StorageFolder, Subject } from '../../plugins/types.ts';
import type { RecordRows } from '../lifecycle/kind.ts';
import { activeParticipantEmails } from '../lifecycle/participants.ts';
import type { incident } from '../lifecycle/table.ts';
import { activeInstance } from '../plugin/active.ts';

/** A record's folder as stored, with who Muster shared it with. */
interface SharedFolder extends StorageFolder {
  shared?: Record<string, string | null>;
}

/** What one run did. */
export type Sharing = { shared: number; unshared: number } | { skipped: string };

/** Notes who the folder is shared with, if it is still the record's. */
async function noteShared(db: Executor, kind: RecordRows, id: number, folder: SharedFolder, shared: Record<string, string | null>) {
  const t = kind.table as typeof incident;
  await db
    .update(t)
    .set({ storage: sql`${t.storage} || jsonb_build_object('shared', ${JSON.stringify(shared)}::jsonb)` })
    .where(and(eq(t.id, id), sql`${t.storage} ->> 'resource_id' = ${folder.resource_id}`));
}

/** Shares the record's folder with its active people who joined since, and takes back what Muster gave those who left. */
export async function shareWithPeople(db: Executor, settings: Settings, kind: RecordRows, subject: Subject, env: PluginEnv): Promise<Sharing> {
  const t = kind.table as typeof incident;
  const [row] = await db.select({ storage: t.storage }).from(t).where(eq(t.id, subject.id));
  const folder = row?.storage as SharedFolder | null | undefined;
  if (!folder) return { skipped: 'no folder' };
  const storage = await activeInstance(db, settings, subject.project.id, 'storage');
  if (!storage?.plugin.share) return { skipped: 'the storage plugin shares nothing' };
  const people = new Set((await activeParticipantEmails(db, kind, subject.id)).map((e) => e.toLowerCase()));
  const shared = { ...folder.shared };
  const joined = [...people].filter((e) => !Object.hasOwn(shared, e));
  const left = Object.keys(shared).filter((e) => !people.has(e));
  let given = 0;
  if (joined.length) {
    const made = await storage.plugin.share(folder, joined, storage.config, env);
    Object.assign(shared, made);
    given = Object.values(made).filter((h) => h !== null).length;
    // Noted at once: a failure taking access back must not lose what was given.
    await noteShared(db, kind, subject.id, folder, shared);
  }
  const handles = left.map((e) => shared[e]).filter((h): h is string => h !== null);
  if (left.length) {
    if (handles.length && storage.plugin.unshare) await storage.plugin.unshare(folder, handles, storage.config, env);
    for (const e of left) delete shared[e];
    await noteShared(db, kind, subject.id, folder, shared);
  }
  return { shared: given, unshared: storage.plugin.unshare ? handles.length : 0 };
}
