// Test fixtures of the on-call plugins: the plugin enabled in `default` over HTTP as an Admin would
// (its save checked against the vendor's peer), a priority that pages commanders and assignees, and
// a service wired to the incident commander policy and to a case type, so that creating an incident
// or a case pages the service and closing it resolves the page.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installPlugins } from '../../src/domains/plugin/catalogue.ts';
import { call, type Res } from '../helpers.ts';
import { drainJobs } from '../jobs.ts';
import { listJobs } from '../../src/jobs/admin.ts';
import { startJobWorkers } from '../../src/app/jobs.ts';
import type { HttpPeer } from '../peers/http-peer.ts';
import { api } from './incidents.ts';
import type { World } from './world.ts';

/** Saves the `default` project's instance of `slug` with `configuration`, enabled; the answer as it came. */
export async function saveOncallPlugin(w: World, slug: string, configuration: Record<string, unknown>): Promise<Res> {
  await installPlugins(w.t.database.db);
  const list = await call(w.t.app, 'GET', '/default/plugins/instances', { token: w.admin, query: { itemsPerPage: -1 } });
  const instance = list.body.items.find((i: { plugin: { slug: string }; project: { name: string } }) => i.plugin.slug === slug && i.project.name === 'default');
  expect(instance, `an instance of ${slug} in default`).toBeTruthy();
  expect(instance.enabled).toBe(false);
  return call(w.t.app, 'PUT', `/default/plugins/instances/${instance.id}`, { token: w.admin, body: { enabled: true, configuration } });
}

const post = (w: World, path: string, body: Record<string, unknown>) =>
  call(w.t.app, 'POST', `/default/${path}`, { token: w.owner, body: { project: { name: 'default' }, ...body } });

/**
 * A service with `externalId`, commanding `Paging` incidents (whose priority pages commanders) and
 * assigned `On call` cases (whose `Urgent` priority pages assignees).
 */
export async function pagingService(w: World, externalId: string): Promise<void> {
  expect((await post(w, 'incident_priorities', { name: 'Paging', page_commander: true, view_order: 9 })).status).toBe(200);
  const svc = await post(w, 'services', { name: 'Payments on call', external_id: externalId });
  expect(svc.status).toBe(200);
  const policy = await call(w.t.app, 'PUT', `/default/incident_roles/${encodeURIComponent('Incident Commander')}`, {
    token: w.owner,
    query: { projectName: 'default' },
    body: { policies: [{ order: 1, service: { external_id: externalId }, incident_priorities: [{ name: 'Paging' }], incident_types: [{ name: 'Default' }] }] },
  });
  expect(policy.status).toBe(200);
  expect((await post(w, 'case_types', { name: 'On call', oncall_service: { id: svc.body.id } })).status).toBe(200);
  expect((await post(w, 'case_priorities', { name: 'Urgent', page_assignee: true, view_order: 9 })).status).toBe(200);
}

/** Runs every job until none is left; retries run at once (their back-off is not waited out). */
export const drain = (w: World) => drainJobs(w.t.database, w.t.settings, 60_000, { retryNow: true });

/** Every job of the on-call queues that did not complete, as `[queue, state, output]`. */
export async function unfinishedOncallJobs(w: World) {
  return (await listJobs(w.t.database, { limit: 1000 }))
    .filter((j) => j.name.startsWith('oncall-') && j.state !== 'completed')
    .map((j) => ({ name: j.name, state: j.state, output: JSON.stringify(j.output) }));
}

/** Retries are few and quick: a vendor that keeps failing ends its job failed within a test. */
export const shortRetries = (w: World) =>
  w.t.database.query(`UPDATE pgboss.queue SET retry_limit = 2, retry_delay = 1, retry_backoff = false WHERE name LIKE 'oncall-%'`);

/** The record's timeline descriptions. */
export async function timeline(w: World, kind: 'incidents' | 'cases', id: number): Promise<string[]> {
  const res = await call(w.t.app, 'GET', `/default/${kind}/${id}`, { token: w.owner });
  return (res.body.events as { description: string }[]).map((e) => e.description);
}

/**
 * Runs the workers until an on-call job waits for a retry after a refusal whose message contains
 * `reason` (a 429), and answers how many seconds it waits: the vendor's Retry-After, not the
 * queue's back-off. The workers stop then; the job stays waiting.
 */
export async function deferredSeconds(w: World, reason: string, timeoutMs = 30_000): Promise<number> {
  const queue = await startJobWorkers(w.t.database, w.t.settings, { info() {}, warn() {}, error() {} } as never, {
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
  });
  try {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await w.t.database.query<{ wait: number }>(
        `SELECT extract(epoch FROM start_after - now())::int AS wait FROM pgboss.job WHERE name LIKE 'oncall-%' AND state = 'retry' AND output->>'message' LIKE $1`,
        [`%${reason}%`],
      );
      if (row) return row.wait;
      if (Date.now() > until) throw new Error(`no on-call job deferred by "${reason}" within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await queue.stop(2_000);
  }
}

/** The jobs waiting for a retry run now. */
export const retryNow = (w: World) => w.t.database.query(`UPDATE pgboss.job SET start_after = now() WHERE state = 'retry'`);

/**
 * The failures every on-call vendor is tested with, against its peer: refusing (401, 403) or
 * failing (503) fails both on-call jobs of a paging incident with a reason that names the vendor,
 * no secret in it, the write standing; no answer too; a 429 defers the job by its Retry-After and
 * the page goes out once afterwards (`paged` counts the vendor's alerts for a record).
 */
export function vendorFailures(opts: {
  w: World;
  vendor: string;
  peer: () => HttpPeer;
  secrets: string[];
  /** The page requests (`METHOD path`), for the 429 and the flaky page. */
  pageRoute: RegExp;
  paged: (incidentId: number) => number;
}) {
  const { w, vendor } = opts;
  const incidents = api(w);
  const clear = async () => {
    opts.peer().clearFailures();
    await w.t.database.query(`DELETE FROM pgboss.job WHERE name LIKE 'oncall-%' AND state = 'failed'`);
  };

  describe(`when ${vendor} fails`, () => {
    beforeAll(() => shortRetries(w));
    afterEach(clear);

    it.each([
      [401, `${vendor} refused`],
      [403, `${vendor} refused the request (403)`],
      [503, `${vendor} is unavailable (503)`],
      [0, `${vendor} did not answer`],
    ])('answering %i (0: not at all), the on-call jobs end failed with a reason an Admin can act on; the write stands', async (status, reason) => {
      opts.peer().fail(/./, status ? { status, body: { detail: 'refused' } } : 'drop', Number.POSITIVE_INFINITY);
      const created = await incidents.create({ title: `Failing ${status}`, incident_priority: { name: 'Paging' } });
      expect(created.status).toBe(200);
      await drain(w);
      const failed = await unfinishedOncallJobs(w);
      expect(failed.map((j) => [j.name, j.state]).sort()).toEqual([
        ['oncall-page', 'failed'],
        ['oncall-resolve', 'failed'],
      ]);
      for (const j of failed) expect(j.output).toContain(reason);
      for (const secret of opts.secrets) expect(JSON.stringify(failed)).not.toContain(secret);
      expect((await incidents.get(created.body.id)).body.commander.individual.email).toBe('member@example.com');
    });

    it('a page that failed once is sent again and makes one alert', async () => {
      opts.peer().fail(opts.pageRoute, { status: 502 });
      const created = await incidents.create({ title: 'Flaky', incident_priority: { name: 'Paging' } });
      await drain(w);
      expect(await unfinishedOncallJobs(w)).toEqual([]);
      expect(opts.paged(created.body.id)).toBe(1);
    });

    it(`rate limited (429), the page waits the Retry-After ${vendor} asked for, then goes out once`, async () => {
      opts.peer().fail(opts.pageRoute, { status: 429, headers: { 'retry-after': '600' } }, Number.POSITIVE_INFINITY);
      const created = await incidents.create({ title: 'Busy', incident_priority: { name: 'Paging' } });
      expect(await deferredSeconds(w, `${vendor} is limiting the rate of requests (429)`)).toBeGreaterThan(500);
      opts.peer().clearFailures();
      await retryNow(w);
      await drain(w);
      expect(await unfinishedOncallJobs(w)).toEqual([]);
      expect(opts.paged(created.body.id)).toBe(1);
    });
  });
}
