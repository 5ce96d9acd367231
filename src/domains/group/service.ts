// A record's groups: Dispatch's tactical group (its people) and, for incidents, its notifications
// group (those who follow it), made once by the project's participant-group plugin and kept here.
// Muster's own plugin keeps no member lists: the members are read from the record when a message
// is sent (groupMembers), so they follow its participants and subscribers without being synced. A
// plugin whose groups keep a list (Google Groups) has it brought in line when the record's people
// change (effects/memberships.ts) and again before each message.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { GroupKind, Subject } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import type { GroupRead } from '../case/schema.ts';
import { RESOURCE_DESCRIPTIONS } from '../document/descriptions.ts';
import { event } from '../event/table.ts';
import { insertEvents } from '../event/service.ts';
import { ownerOf, type RecordRows } from '../lifecycle/kind.ts';
import { activeParticipantEmails } from '../lifecycle/participants.ts';
import { assertVisible } from '../lifecycle/visibility.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { participantGroup } from './table.ts';

/** The groups a record of each kind has (Dispatch makes both for incidents, the tactical one for cases). */
export const GROUP_KINDS: Record<'incident' | 'case', GroupKind[]> = { incident: ['tactical', 'notifications'], case: ['tactical'] };

const ownerColumn = (kind: RecordRows) => (kind.ownerColumn === 'incident_id' ? participantGroup.incident_id : participantGroup.case_id);

/**
 * Makes the groups these records lack (one record's, or those of the cases a batch of signal
 * instances opens) through each project's participant-group plugin (none enabled: none made); each
 * made is told on its record's timeline. Safe to run again: a group made is not made twice. The
 * groups they have are read in one statement, each project's plugin once, and those made are
 * inserted and told in one more statement, whose text is the same whatever their number. Given the
 * database rather than a transaction, the plugin is asked outside any, so that an outside system's
 * answers hold no connection (the embedded database has one). A plugin that fails for a record
 * throws, and nothing is written.
 */
export async function createGroupsOf(db: Executor, ctx: Ctx, kind: RecordRows, subjects: Subject[], keyOf: (subject: Subject) => string): Promise<number> {
  if (subjects.length === 0) return 0;
  const owner = ownerColumn(kind);
  const have = new Set(
    (
      await runStatement<{ id: number; kind: string }>(
        db,
        sql`SELECT ${owner} AS id, ${participantGroup.kind} AS kind FROM ${participantGroup} WHERE ${owner} = ANY(${sql.param(subjects.map((s) => s.id))}::int[])`,
      )
    ).map((g) => `${g.id}:${g.kind}`),
  );
  const plugins = new Map<number, Awaited<ReturnType<typeof activeInstance<'participant_group'>>>>();
  for (const projectId of new Set(subjects.map((s) => s.project.id)))
    plugins.set(projectId, await activeInstance(db, ctx.settings, projectId, 'participant_group'));
  const rows: Record<string, unknown>[] = [];
  const events: Parameters<typeof insertEvents>[1] = [];
  for (const subject of subjects) {
    const plugin = plugins.get(subject.project.id);
    if (!plugin) continue;
    for (const groupKind of GROUP_KINDS[kind.name].filter((k) => !have.has(`${subject.id}:${k}`))) {
      const env = pluginEnv(ctx.settings, `${keyOf(subject)}:${groupKind}`, { info() {}, warn() {} });
      const group = await plugin.plugin.create(subject, groupKind, plugin.config, env);
      rows.push({
        project_id: subject.project.id,
        owner_id: subject.id,
        kind: groupKind,
        name: group.name,
        email: group.email,
        resource_id: group.resource_id,
        resource_type: group.resource_type,
        weblink: group.weblink,
        description: group.description,
      });
      events.push({ ...madeEvent(groupKind, group.email), record: ownerOf(kind, subject.id) });
    }
  }
  if (rows.length === 0) return 0;
  await runStatement(
    db,
    sql`
    WITH made AS (
      INSERT INTO ${participantGroup} (organization_id, project_id, ${sql.identifier(kind.ownerColumn)}, kind, name, email, resource_id, resource_type, weblink, description)
      SELECT ${ctx.organization.id}::int, x.project_id, x.owner_id, x.kind, x.name, x.email, x.resource_id, x.resource_type, x.weblink, x.description
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(project_id int, owner_id int, kind text, name text, email text, resource_id text,
        resource_type text, weblink text, description text)
    )
    ${insertEvents(ctx, events)}`,
  );
  return rows.length;
}

/** The timeline's word for a group made. */
const madeEvent = (groupKind: GroupKind, email: string) => ({
  description: `${groupKind === 'tactical' ? 'Tactical' : 'Notifications'} group created: ${email}`,
  details: { group: { kind: groupKind, email } },
  owner: 'Muster',
});

type GroupRow = typeof participantGroup.$inferSelect;
const groupRead = (g: GroupRow): Static<typeof GroupRead> => ({
  id: g.id,
  name: g.name,
  email: g.email,
  // Dispatch's reads give every group the same description; the plugin's stays in the table.
  description: RESOURCE_DESCRIPTIONS.group,
  resource_id: g.resource_id,
  resource_type: g.resource_type,
  weblink: g.weblink,
});

/** The record's group of a kind, if made. */
export async function groupOf(tx: Executor, kind: RecordRows, recordId: number, groupKind: GroupKind): Promise<GroupRow | undefined> {
  const [g] = await tx
    .select()
    .from(participantGroup)
    .where(and(eq(ownerColumn(kind), recordId), eq(participantGroup.kind, groupKind)));
  return g;
}

/** The record's groups as made, tactical first. */
export async function listGroupRows(db: Executor, kind: RecordRows, recordId: number): Promise<(GroupRow & { kind: GroupKind })[]> {
  const rows = await db
    .select()
    .from(participantGroup)
    .where(eq(ownerColumn(kind), recordId))
    .orderBy(asc(participantGroup.id));
  return rows as (GroupRow & { kind: GroupKind })[];
}

/** The groups of a record the caller may see (404 otherwise), tactical first. */
export async function listGroups(ctx: Ctx, kind: RecordRows, recordId: number): Promise<(Static<typeof GroupRead> & { kind: string })[]> {
  await assertVisible(ctx, kind, recordId, ctx.db);
  return (await listGroupRows(ctx.db, kind, recordId)).map((g) => ({ ...groupRead(g), kind: g.kind }));
}

/**
 * The e-mails of a group's members now: the tactical group is the record's active participants
 * and its subscribers (BEHAVIOR §6.6: subscribing joins the tactical group); the notifications
 * group is its subscribers and `followers` (the teams routed to it), lower-cased, each once.
 */
export async function groupMembers(tx: Executor, kind: RecordRows, recordId: number, groupKind: GroupKind, followers: string[] = []): Promise<string[]> {
  const subscribers = await tx
    .selectDistinct({ email: sql<string>`lower(${event.details} ->> 'subscriber')` })
    .from(event)
    .where(and(eq(event[kind.ownerColumn], recordId), sql`${event.details} ->> 'subscriber' IS NOT NULL`));
  const people = groupKind === 'tactical' ? await activeParticipantEmails(tx, kind, recordId) : followers;
  return [...new Set([...people, ...subscribers.map((s) => s.email)].map((email) => email.toLowerCase()))];
}
