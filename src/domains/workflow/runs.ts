// Workflow runs in the background (BEHAVIOR §11.4): `workflow-run` starts a submitted run in the
// workflow system through its workflow's plugin instance, then `workflow-poll` asks for its status
// every MUSTER_WORKFLOW_POLL_SECONDS until it is Completed or Failed. Every change of status is
// written with its timeline event (on the run's incident or case) in one transaction, with the
// artifacts the run reported as documents and the next check enqueued.
//
// The job's id is the plugin's idempotency key: a retried start sends the same key. Each next check
// is keyed by the run and its number, so a retried check enqueues its successor once. A plugin that
// fails on the job's last attempt, or a workflow whose plugin instance is gone or disabled, fails
// the run.
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { defineJob, type JobEnv } from '../../jobs/definition.ts';
import { enqueue, type JobInfo } from '../../jobs/queue.ts';
import type { WorkflowState, WorkflowStatus } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { logEvent, type EventInput } from '../event/service.ts';
import { CASE_ROWS, INCIDENT_ROWS } from '../lifecycle/kind.ts';
import { subjectOf } from '../lifecycle/subject.ts';
import { organization } from '../organization/table.ts';
import { instanceOfType, pluginEnv } from '../plugin/active.ts';
import { pluginInstance } from '../plugin/table.ts';
import { SYSTEM_USER } from '../project/each.ts';
import { signal } from '../signal/table.ts';
import { keepArtifacts } from './artifacts.ts';
import { workflow, workflowInstance } from './table.ts';

export const WORKFLOW_RUN = 'workflow-run';
export const WORKFLOW_POLL = 'workflow-poll';
/** Further attempts of a start or a check after the first; the last one that fails fails the run. */
export const WORKFLOW_RETRY_LIMIT = 3;

interface RunJob {
  organization_id: number;
  instance_id: number;
  /** Who ran it: the timeline's events of the run are theirs. */
  user: { id: number; email: string };
}

interface PollJob extends RunJob {
  /** The check's number, from 1. */
  check: number;
  /** Which chain of checks it belongs to: the run's own, or one a workflow sync started (its period). */
  chain?: string;
}

type RunRow = typeof workflowInstance.$inferSelect;

const TERMINAL: readonly string[] = ['Completed', 'Failed'] satisfies WorkflowState[];

/** Logs an event on the run's incident or case (a run for a signal has no timeline). */
export async function logOnSubject(tx: Executor, ctx: Ctx, run: Pick<RunRow, 'incident_id' | 'case_id'>, input: EventInput): Promise<void> {
  if (run.incident_id) await logEvent(tx, ctx, { incident_id: run.incident_id }, input);
  else if (run.case_id) await logEvent(tx, ctx, { case_id: run.case_id }, input);
}

/** Enqueues the start of a submitted run, in the caller's transaction. */
export async function enqueueRun(tx: Executor, ctx: Ctx, instanceId: number): Promise<void> {
  const data: RunJob = { organization_id: ctx.organization.id, instance_id: instanceId, user: { id: ctx.user.id, email: ctx.user.email } };
  await enqueue(tx, WORKFLOW_RUN, data, { key: String(instanceId) });
}

async function enqueueCheck(tx: Executor, env: JobEnv, data: RunJob & { chain?: string }, check: number): Promise<void> {
  const next: PollJob = { organization_id: data.organization_id, instance_id: data.instance_id, user: data.user, check, chain: data.chain };
  const key = data.chain ? `${data.instance_id}:${data.chain}:${check}` : `${data.instance_id}:${check}`;
  await enqueue(tx, WORKFLOW_POLL, next, { key, startAfter: env.settings.workflowPollSeconds });
}

interface Loaded {
  run: RunRow;
  workflow: typeof workflow.$inferSelect;
  ctx: Ctx;
}

/** The run, its workflow, and the context its events are written in; undefined once deleted. */
async function load(env: JobEnv, data: RunJob): Promise<Loaded | undefined> {
  const [row] = await env.db
    .select({ run: workflowInstance, workflow, slug: organization.slug })
    .from(workflowInstance)
    .innerJoin(workflow, eq(workflow.id, workflowInstance.workflow_id))
    .innerJoin(organization, eq(organization.id, workflowInstance.organization_id))
    .where(eq(workflowInstance.id, data.instance_id));
  if (!row) return undefined;
  const ctx: Ctx = { db: env.db, settings: env.settings, user: data.user, organization: { id: data.organization_id, slug: row.slug }, role: 'Owner' };
  return { run: row.run, workflow: row.workflow, ctx };
}

/** The workflow's plugin instance, when it is there, enabled and of a workflow plugin loaded here. */
async function pluginOf(env: JobEnv, instanceId: number) {
  const [row] = await env.db.select({ enabled: pluginInstance.enabled }).from(pluginInstance).where(eq(pluginInstance.id, instanceId));
  if (!row?.enabled) return undefined;
  return instanceOfType(env.db, env.settings, instanceId, 'workflow');
}

/** The link to the run's subject in the web UI: what the workflow system refers back to. */
async function externalRef(env: JobEnv, loaded: Loaded): Promise<string> {
  const { run, ctx } = loaded;
  if (run.incident_id || run.case_id) {
    const subject = await subjectOf(env.db, env.settings, run.incident_id ? INCIDENT_ROWS : CASE_ROWS, (run.incident_id ?? run.case_id)!);
    if (subject) return subject.weblink;
  }
  const [sig] = run.signal_id ? await env.db.select({ name: signal.name }).from(signal).where(eq(signal.id, run.signal_id)) : [];
  return `${env.settings.uiUrl.replace(/\/+$/, '')}/${ctx.organization.slug}/signals/${encodeURIComponent(sig?.name ?? String(run.signal_id ?? ''))}`;
}

/** The parameters that have a value, as strings, with the subject's link and the run's id. */
async function paramsOf(env: JobEnv, loaded: Loaded): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const p of (loaded.run.parameters ?? []) as { key?: unknown; value?: unknown }[]) {
    if (typeof p?.key === 'string' && p.key && p.value !== undefined && p.value !== null && p.value !== '' && p.value !== false) {
      params[p.key] = typeof p.value === 'string' ? p.value : JSON.stringify(p.value);
    }
  }
  params.externalRef = await externalRef(env, loaded);
  params.workflowInstanceId = String(loaded.run.id);
  return params;
}

/**
 * Records what the workflow system reported: status (unchanged when it named none), its id of the run, link and artifacts, with
 * the event of a change of status; the run's row is locked, so concurrent checks write in turn.
 * Returns the status now recorded.
 */
async function record(tx: Executor, loaded: Loaded, reported: WorkflowStatus, reason?: string): Promise<WorkflowState> {
  const [current] = await tx.select().from(workflowInstance).where(eq(workflowInstance.id, loaded.run.id)).for('update');
  const status = reported.status ?? ((current?.status ?? loaded.run.status) as WorkflowState);
  if (!current) return status;
  await tx
    .update(workflowInstance)
    .set({
      status,
      ...(reported.resource_id ? { resource_id: reported.resource_id } : {}),
      ...(reported.weblink ? { weblink: reported.weblink } : {}),
      updated_at: new Date(),
    })
    .where(eq(workflowInstance.id, current.id));
  await keepArtifacts(tx, current, reported.artifacts ?? []);
  if (current.status !== status) {
    await logOnSubject(tx, loaded.ctx, current, {
      description: `Workflow ${loaded.workflow.name} status changed from ${current.status} to ${status}`,
      owner: null,
      details: reason ? { reason } : null,
    });
  }
  return status;
}

const fail = (env: JobEnv, loaded: Loaded, reason: string) => env.db.transaction((tx) => record(tx, loaded, { status: 'Failed' }, reason));

/**
 * Calls the plugin through `call`; on failure throws (the job retries) unless this is the job's
 * last attempt: then the run fails. Undefined when the run failed.
 */
async function callPlugin(
  env: JobEnv,
  job: JobInfo<RunJob>,
  loaded: Loaded,
  call: (plugin: NonNullable<Awaited<ReturnType<typeof pluginOf>>>) => Promise<WorkflowStatus>,
): Promise<WorkflowStatus | undefined> {
  const active = await pluginOf(env, loaded.workflow.plugin_instance_id);
  if (!active) {
    await fail(env, loaded, 'The workflow plugin instance is missing or disabled.');
    return undefined;
  }
  try {
    return await call(active);
  } catch (err) {
    if (job.retryCount < WORKFLOW_RETRY_LIMIT) throw err;
    // What the workflow system answered (or which address was refused) is the operator's to read, not every participant's.
    env.log.warn({ job: job.id, run: job.data.instance_id, err: (err as Error).message }, 'workflow run failed');
    await fail(env, loaded, `The workflow system failed; the server's log has the reason (job ${job.id}).`);
    return undefined;
  }
}

const log = (env: JobEnv, job: JobInfo<RunJob>) => ({
  info: (msg: string) => env.log.info({ job: job.id, run: job.data.instance_id }, msg),
  warn: (msg: string) => env.log.warn({ job: job.id, run: job.data.instance_id }, msg),
});

export const workflowRunJob = defineJob<RunJob>({
  name: WORKFLOW_RUN,
  retryLimit: WORKFLOW_RETRY_LIMIT,
  retryDelay: 10,
  async run(job, env) {
    const loaded = await load(env, job.data);
    if (!loaded) return { skipped: 'run deleted' };
    if (loaded.run.status !== 'Submitted') return { skipped: `already ${loaded.run.status}` };
    const params = await paramsOf(env, loaded);
    const reported = await callPlugin(env, job, loaded, (active) =>
      active.plugin.run({ resource_id: loaded.workflow.resource_id, params }, active.config, pluginEnv(env.settings, job.id, log(env, job))),
    );
    if (!reported) return { status: 'Failed' };
    const status = await env.db.transaction(async (tx) => {
      const now = await record(tx, loaded, reported);
      if (!TERMINAL.includes(now)) await enqueueCheck(tx, env, job.data, 1);
      return now;
    });
    return { status };
  },
});

export const workflowPollJob = defineJob<PollJob>({
  name: WORKFLOW_POLL,
  retryLimit: WORKFLOW_RETRY_LIMIT,
  retryDelay: 10,
  async run(job, env) {
    const loaded = await load(env, job.data);
    if (!loaded) return { skipped: 'run deleted' };
    if (TERMINAL.includes(loaded.run.status)) return { skipped: `already ${loaded.run.status}` };
    // A run its system never finishes would be checked for ever: past the timeout it has failed.
    const timeout = env.settings.workflowTimeoutSeconds;
    if (Date.now() - new Date(loaded.run.created_at).getTime() > timeout * 1000) {
      await fail(env, loaded, `not finished after ${timeout} seconds (MUSTER_WORKFLOW_TIMEOUT)`);
      return { status: 'Failed' };
    }
    const ref = { resource_id: loaded.run.resource_id ?? String(loaded.run.id), instance_id: loaded.run.id, workflow_id: loaded.workflow.resource_id };
    const reported = await callPlugin(env, job, loaded, (active) => active.plugin.status(ref, active.config, pluginEnv(env.settings, job.id, log(env, job))));
    if (!reported) return { status: 'Failed' };
    const status = await env.db.transaction(async (tx) => {
      const now = await record(tx, loaded, reported);
      if (!TERMINAL.includes(now)) await enqueueCheck(tx, env, job.data, job.data.check + 1);
      return now;
    });
    return { status };
  },
});

/**
 * The workflow sync (a periodic task): a run of the project still Created or Running that has not
 * changed for three check intervals gets a chain of checks of its own (a chain of checks that
 * ended without a final status, a job removed by hand). Keyed by the period: once per run per period.
 */
export async function resyncRuns(env: JobEnv, projectId: number, slot: Date): Promise<number> {
  const stalled = await env.db
    .select({ id: workflowInstance.id, organization_id: workflowInstance.organization_id })
    .from(workflowInstance)
    .where(
      and(
        eq(workflowInstance.project_id, projectId),
        // A Submitted run is still the start job's (which fails it after its last attempt).
        inArray(workflowInstance.status, ['Created', 'Running']),
        lt(workflowInstance.updated_at, new Date(slot.getTime() - 3 * env.settings.workflowPollSeconds * 1000)),
      ),
    );
  await env.db.transaction(async (tx) => {
    for (const r of stalled) {
      const chain = `sync-${slot.toISOString()}`;
      const data: PollJob = { organization_id: r.organization_id, instance_id: r.id, user: SYSTEM_USER, check: 1, chain };
      await enqueue(tx, WORKFLOW_POLL, data, { key: `${r.id}:${chain}:1` });
    }
  });
  return stalled.length;
}
