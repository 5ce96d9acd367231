// Who is let in outside Muster follows a record's people: its folder's access (the storage
// plugin's `share` and `unshare`) and its groups' member lists (the participant-group plugin's
// `members`). A change of people enqueues one `record-memberships` job in its own transaction,
// only for a record that has a folder or groups and whose project's enabled plugin keeps such a
// list (Muster's own plugins keep none: the usual case costs one indexed look-up). The job
// (effects/memberships.ts) brings every list in line with the people as they are when it runs.
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
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

/**
 * The record's people changed (in the caller's transaction): its folder's access and its groups'
 * members follow, when it has them and its plugins keep them. Once per transaction is enough:
 * the job reads the people when it runs.
 */
export async function membershipsChanged(tx: Executor, kind: 'incident' | 'case', recordId: number): Promise<void> {
  // Drizzle's builder takes one table type, not a union of two; both have the columns used here.
  const table = (kind === 'incident' ? incident : caseTable) as typeof incident;
  const owner = kind === 'incident' ? participantGroup.incident_id : participantGroup.case_id;
  // The slug of the project's enabled plugin of a type.
  const enabledSlug = (type: string) =>
    tx
      .select({ slug: plugin.slug })
      .from(pluginInstance)
      .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
      .where(and(eq(pluginInstance.project_id, table.project_id), eq(pluginInstance.plugin_type, type), eq(pluginInstance.enabled, true)))
      .limit(1);
  const groups = tx.select({ id: participantGroup.id }).from(participantGroup).where(eq(owner, table.id));
  const [r] = await tx
    .select({
      organization_id: table.organization_id,
      txid: sql<string>`txid_current()::text`,
      folder: sql<boolean>`${table.storage} IS NOT NULL`,
      storage: sql<string | null>`(${enabledSlug('storage')})`,
      groups: sql<boolean>`EXISTS (${groups})`,
      group: sql<string | null>`(${enabledSlug('participant_group')})`,
    })
    .from(table)
    .where(eq(table.id, recordId));
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
