// Test fixtures of the meeting plugins (Zoom, Teams): the world with its local Slack (so the
// incident's channel is told of the meeting), a conference instance configured over the API as an
// Owner does it, and the jobs that make and end meetings.
import { and, eq } from 'drizzle-orm';
import { plugin, pluginInstance } from '../../src/domains/plugin/table.ts';
import { listJobs } from '../../src/jobs/admin.ts';
import { expect } from 'vitest';
import { call, type Res } from '../helpers.ts';
import { drainJobs } from '../jobs.ts';
import { person } from './incidents.ts';
import type { SlackWorld } from './slack.ts';

/** The default project's instance of the plugin `slug`. */
export async function instanceOf(w: SlackWorld, slug: string): Promise<number> {
  const [row] = await w.t.database.db
    .select({ id: pluginInstance.id })
    .from(pluginInstance)
    .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
    .where(and(eq(plugin.slug, slug), eq(pluginInstance.project_id, w.projectId)));
  return row.id;
}

/** Enables the default project's instance of `slug` with a configuration, through the API. */
export async function configureConference(w: SlackWorld, slug: string, configuration: Record<string, unknown>): Promise<Res> {
  return call(w.t.app, 'PUT', `/default/plugins/instances/${await instanceOf(w, slug)}`, { token: w.owner, body: { enabled: true, configuration } });
}

/** Runs the jobs until none is pending; `retryNow` runs retries without their back-off (never a Retry-After test's). */
export const drainMeetings = (w: SlackWorld, opts: { retryNow?: boolean } = {}) => drainJobs(w.t.database, w.t.settings, 40_000, opts);

/** Jobs of the queues that make and end meetings, newest first. */
export const meetingJobs = async (w: SlackWorld) => listJobs(w.t.database, { names: ['record-resources', 'conference-close'], limit: 500 });

/** Makes the meeting queues give up after one retry, without back-off (a test of a vendor that keeps failing). */
export async function retryOnce(w: SlackWorld) {
  await w.t.database.query(
    `UPDATE pgboss.queue SET retry_limit = 1, retry_delay = 1, retry_backoff = false WHERE name IN ('record-resources', 'conference-close')`,
  );
}

/** Makes the meeting queues fail a job at its first error (a test that waits out a time limit once). */
export async function retryNever(w: SlackWorld) {
  await w.t.database.query(`UPDATE pgboss.queue SET retry_limit = 0 WHERE name IN ('record-resources', 'conference-close')`);
}

/** Restores the queues' own retries. */
export async function retryAsDeclared(w: SlackWorld) {
  await w.t.database.query(
    `UPDATE pgboss.queue SET retry_limit = 5, retry_delay = 10, retry_backoff = true WHERE name IN ('record-resources', 'conference-close')`,
  );
}

/** The descriptions of an incident's timeline. */
export async function timeline(w: SlackWorld, id: number): Promise<string[]> {
  return (await call(w.t.app, 'GET', `/default/incidents/${id}`, { token: w.owner })).body.events.map((e: { description: string }) => e.description);
}

/** The messages of the incident's Slack channel. */
export async function channelMessages(w: SlackWorld, id: number): Promise<string[]> {
  const read = (await call(w.t.app, 'GET', `/default/incidents/${id}`, { token: w.owner })).body;
  return (w.slack.channels.get(read.conversation?.channel_id)?.messages ?? []).map((m) => m.text);
}

/**
 * Incidents as the meeting tests write them over the API: made by `creator` (commanded by the
 * Owner), read by the Owner, and moved to a status by sending the read back, as the web UI does.
 */
export function meetingIncidents(w: SlackWorld, creator: 'owner' | 'member') {
  const read = async (id: number) => (await call(w.t.app, 'GET', `/default/incidents/${id}`, { token: w.owner })).body;
  return {
    async create(title: string) {
      const res = await call(w.t.app, 'POST', '/default/incidents', {
        token: w[creator],
        body: { title, description: 'It broke.', commander: person('owner@example.com') },
      });
      expect(res.status).toBe(200);
      return res.body as { id: number; name: string; conference: unknown };
    },
    read,
    setStatus: async (id: number, status: string) =>
      call(w.t.app, 'PUT', `/default/incidents/${id}`, { token: w.owner, body: { ...(await read(id)), status } }),
  };
}
