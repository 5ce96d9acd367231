// Who is let in outside Muster follows a record's people: its folder's access (the storage
// plugin's `share` and `unshare`) and its groups' member lists (the participant-group plugin's
// `members`). A change of people enqueues one `record-memberships` job in its own transaction,
// only for a record that has a folder or groups and whose project's enabled plugin keeps such a
// list (Muster's own plugins keep none: the usual case costs one indexed look-up). The job
// (effects/memberships.ts) brings every list in line with the people as they are when it runs.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import { enqueue } from '../../jobs/queue.ts';
import { pluginOfType } from '../../plugins/registry.ts';
import { participantGroup } from '../group/table.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { plugin, pluginInstance } from './table.ts';

export const RECORD_MEMBERSHIPS = 'record-memberships';

export interface MembershipsJob {
  organization_id: number;
  kind: 'incident' | 'case';
  record_id: number;
}

/** The slug of the enabled plugin of a type in the project of the record `r`. */
const enabledSlug = (type: 'storage' | 'participant_group') =>
  sql`(SELECT p.slug FROM ${pluginInstance} i JOIN ${plugin} p ON p.id = i.plugin_id
    WHERE i.project_id = r.project_id AND i.plugin_type = ${sql.raw(`'${type}'`)} AND i.enabled LIMIT 1)`;

/**
 * The record's people changed (in the caller's transaction): its folder's access and its groups'
 * members follow, when it has them and its plugins keep them. Once per transaction is enough:
 * the job reads the people when it runs.
 */
export async function membershipsChanged(tx: Executor, kind: 'incident' | 'case', recordId: number): Promise<void> {
  const [r] = await runStatement<{ organization_id: number; txid: string; folder: boolean; storage: string | null; groups: boolean; group: string | null }>(
    tx,
    sql`SELECT r.organization_id, txid_current()::text AS txid, r.storage IS NOT NULL AS folder, ${enabledSlug('storage')} AS storage,
      EXISTS (SELECT 1 FROM ${participantGroup} g WHERE g.${sql.identifier(`${kind}_id`)} = r.id) AS groups,
      ${enabledSlug('participant_group')} AS "group"
      FROM ${kind === 'incident' ? incident : caseTable} r WHERE r.id = ${recordId}`,
  );
  if (!r) return;
  const sharing = r.folder && r.storage !== null && !!pluginOfType(r.storage, 'storage')?.share;
  const listing = r.groups && r.group !== null && !!pluginOfType(r.group, 'participant_group')?.members;
  if (!sharing && !listing) return;
  await enqueue(tx, RECORD_MEMBERSHIPS, { organization_id: r.organization_id, kind, record_id: recordId } satisfies MembershipsJob, {
    key: `${kind}:${recordId}:people:${r.txid}`,
    // One run per record at a time: each reads and writes what the folder was shared with.
    singletonKey: `${kind}:${recordId}`,
  });
}
