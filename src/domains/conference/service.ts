// An incident's meeting: made once by the project's conference plugin, kept in its `conference`,
// told on the timeline and posted to its chat channel (made first if it has none yet); ended
// through the plugin when the incident closes.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Conference, PluginEnv, Subject } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { logIncidentEvent } from '../event/service.ts';
import { incident } from '../lifecycle/table.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import { INCIDENT_ROWS } from '../lifecycle/kind.ts';

/**
 * Opens the incident's meeting unless it has one (or its project has no conference plugin
 * enabled); `people` are its participants' e-mails. Returns whether one was made.
 */
export async function openConference(tx: Executor, ctx: Ctx, subject: Subject, people: string[], key: string): Promise<boolean> {
  const [row] = await tx.select({ conference: incident.conference }).from(incident).where(eq(incident.id, subject.id));
  if (!row || row.conference) return false;
  const plugin = await activeInstance(tx, ctx.settings, subject.project.id, 'conference');
  if (!plugin) return false;
  const made = await plugin.plugin.create(subject, people, plugin.config, pluginEnv(ctx.settings, key, { info() {}, warn() {} }));
  const conference = {
    resource_id: made.resource_id,
    resource_type: made.resource_type,
    weblink: made.weblink,
    conference_id: made.conference_id,
    conference_challenge: made.conference_challenge ?? null,
  };
  await tx.update(incident).set({ conference }).where(eq(incident.id, subject.id));
  await logIncidentEvent(tx, ctx, subject.id, {
    description: `Meeting created: ${withoutToken(made.weblink)}`,
    details: { conference: { resource_id: made.resource_id, resource_type: made.resource_type } },
    owner: 'Muster',
  });
  // Through the record's room job: it runs after the room is made, whichever job ran first.
  await tellConversation(tx, INCIDENT_ROWS, [subject.id], { event: 'resource', resource: { what: 'Meeting', weblink: made.weblink } }, `${key}:post`);
  return true;
}

/** A link without its query (a room token is for the incident's people, not for its timeline's readers). */
const withoutToken = (link: string) => link.split('?')[0];

/**
 * Ends the meeting of an incident that is Closed (still Closed when this runs: one reopened in the
 * meantime keeps it) through the project's conference plugin. Returns whether it did.
 */
export async function closeConference(tx: Executor, ctx: Ctx, incidentId: number, log: PluginEnv['log'], key: string): Promise<boolean> {
  const [row] = await tx
    .select({ conference: incident.conference, status: incident.status, project_id: incident.project_id })
    .from(incident)
    .where(eq(incident.id, incidentId));
  if (!row?.conference || row.status !== 'Closed') return false;
  const plugin = await activeInstance(tx, ctx.settings, row.project_id, 'conference');
  if (!plugin) return false;
  const conference = row.conference as Conference;
  await plugin.plugin.delete(conference, plugin.config, pluginEnv(ctx.settings, key, log));
  await logIncidentEvent(tx, ctx, incidentId, {
    description: 'Meeting ended: the incident is closed',
    details: { conference: { resource_id: conference.resource_id, resource_type: conference.resource_type } },
    owner: 'Muster',
  });
  return true;
}
