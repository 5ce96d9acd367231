// Workflows (BEHAVIOR §11.4): a project's procedures in a workflow system, each run through one of
// the project's workflow plugin instances, and their runs. Reads are for every member; creating,
// changing and deleting a workflow need SensitiveProjectAction (the current rule).
//
// A run is for one incident, case or signal the caller may see, names the participant who runs it
// (by email; the caller's participant by default), and keeps the artifacts sent with it as
// documents. The request records it as `Submitted`, logs it on the timeline and enqueues the job
// that starts it in the workflow system (runs.ts), all in one transaction: the outside system is
// never called while the caller waits.
import { and, eq, isNull, or, type SQL } from 'drizzle-orm';
import { listDefinition } from '../../crud/group.ts';
import { readChecked } from '../../crud/reader.ts';
import { deleteRecord, projectOfBody } from '../../crud/service.ts';
import type { Executor } from '../../db/connection.ts';
import { runList, type Page } from '../../list/engine.ts';
import { requirePermission, type Ctx } from '../../server/context.ts';
import { errors, invalid, validationError } from '../../server/errors.ts';
import { webAddress } from '../document/group.ts';
import type { ListQueryT } from '../../server/shapes.ts';
import { CASE_ROWS, INCIDENT_ROWS, type RecordRows } from '../lifecycle/kind.ts';
import { participantByEmail } from '../lifecycle/participants.ts';
import { recordVisible, visibleRecords } from '../lifecycle/visibility.ts';
import { pluginInstance } from '../plugin/table.ts';
import { signal } from '../signal/table.ts';
import { keepArtifacts } from './artifacts.ts';
import { workflowGroup, workflowInstanceReader, workflowReader } from './reader.ts';
import { enqueueRun, logOnSubject } from './runs.ts';
import type { RunBody, WorkflowBody, WorkflowInstanceReadT, WorkflowReadT } from './schema.ts';
import { workflow, workflowInstance } from './table.ts';

type WorkflowRow = typeof workflow.$inferSelect;

const workflowList = listDefinition(workflowGroup);

export async function listWorkflows(ctx: Ctx, query: ListQueryT): Promise<Page<WorkflowReadT>> {
  const page = await runList<{ id: number }>(ctx.db, ctx, workflowList, query, eq(workflow.organization_id, ctx.organization.id));
  const ids = page.items.map((r) => r.id);
  const byId = await readChecked(workflowReader(), ctx.db, ids, ctx);
  return { ...page, items: ids.map((id) => byId.get(id)!).filter(Boolean) };
}

export async function getWorkflow(ctx: Ctx, id: number): Promise<WorkflowReadT> {
  await findWorkflow(ctx.db, ctx, id);
  return readWorkflow(ctx, id);
}

export const deleteWorkflow = (ctx: Ctx, id: number) => deleteRecord(ctx, workflowGroup, id);

const noInstance = () => validationError([{ loc: ['body', 'plugin_instance'], msg: 'No plugin instance found.', type: 'value_error.not_found' }]);

/** The plugin instance a body names (by id): an instance of a workflow plugin in the project; 422 otherwise. */
async function workflowInstanceOf(tx: Executor, ctx: Ctx, projectId: number, ref: WorkflowBody['plugin_instance']): Promise<number> {
  if (typeof ref?.id !== 'number') throw noInstance();
  const [row] = await tx
    .select({ id: pluginInstance.id })
    .from(pluginInstance)
    .where(
      and(
        eq(pluginInstance.id, ref.id),
        eq(pluginInstance.organization_id, ctx.organization.id),
        eq(pluginInstance.project_id, projectId),
        eq(pluginInstance.plugin_type, 'workflow'),
      ),
    );
  if (!row) throw noInstance();
  return row.id;
}

/** The columns a body sets, besides the plugin instance and the project. */
function fieldsFrom(body: WorkflowBody) {
  return {
    name: body.name,
    resource_id: body.resource_id,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    // A list with a default, as Dispatch assigns it: omitted on update, it is emptied.
    ...(body.parameters !== undefined ? { parameters: body.parameters } : {}),
  };
}

const readWorkflow = async (ctx: Ctx, id: number) => (await readChecked(workflowReader(), ctx.db, [id], ctx)).get(id)!;

export async function createWorkflow(ctx: Ctx, body: WorkflowBody) {
  requirePermission(ctx.role, 'SensitiveProjectAction');
  const id = await ctx.db.transaction(async (tx) => {
    const proj = await projectOfBody(tx, ctx, body.project);
    const instanceId = await workflowInstanceOf(tx, ctx, proj.id, body.plugin_instance);
    const [row] = await tx
      .insert(workflow)
      .values({ ...fieldsFrom(body), organization_id: ctx.organization.id, project_id: proj.id, plugin_instance_id: instanceId })
      .returning({ id: workflow.id });
    return row.id;
  });
  return readWorkflow(ctx, id);
}

async function findWorkflow(tx: Executor, ctx: Ctx, id: number): Promise<WorkflowRow> {
  const [row] = await tx
    .select()
    .from(workflow)
    .where(and(eq(workflow.id, id), eq(workflow.organization_id, ctx.organization.id)));
  if (!row) throw errors.notFound('A workflow');
  return row;
}

export async function updateWorkflow(ctx: Ctx, id: number, body: WorkflowBody) {
  requirePermission(ctx.role, 'SensitiveProjectAction');
  await ctx.db.transaction(async (tx) => {
    const existing = await findWorkflow(tx, ctx, id);
    // A workflow stays in its project; its instance must be one of that project's.
    const instanceId = await workflowInstanceOf(tx, ctx, existing.project_id, body.plugin_instance);
    await tx
      .update(workflow)
      .set({ ...fieldsFrom(body), plugin_instance_id: instanceId, updated_at: new Date() })
      .where(eq(workflow.id, id));
  });
  return readWorkflow(ctx, id);
}

// ---- runs -------------------------------------------------------------------------------------

/** What a run is for, once found and checked. */
interface RunSubject {
  kind?: RecordRows;
  column: 'incident_id' | 'case_id' | 'signal_id';
  id: number;
}

/** The one record the run names, which the caller may see; 422 on its field otherwise. */
async function subjectOf(tx: Executor, ctx: Ctx, body: RunBody): Promise<RunSubject> {
  const named = (['incident', 'case', 'signal'] as const).filter((f) => body[f] != null);
  if (named.length !== 1) {
    throw invalid(['body'], 'A workflow runs for one incident, case or signal: name exactly one of them by id.', 'value_error.missing');
  }
  const field = named[0];
  const id = body[field]?.id;
  if (field === 'signal') {
    const [row] =
      typeof id === 'number'
        ? await tx
            .select({ id: signal.id })
            .from(signal)
            .where(and(eq(signal.id, id), eq(signal.organization_id, ctx.organization.id)))
        : [];
    if (!row) throw invalid(['signal'], 'Signal not found.', 'value_error.not_found');
    return { column: 'signal_id', id: row.id };
  }
  const kind = field === 'incident' ? INCIDENT_ROWS : CASE_ROWS;
  const table = kind.table as typeof INCIDENT_ROWS.table;
  const [row] =
    typeof id === 'number'
      ? await tx
          .select({ id: table.id })
          .from(table)
          .where(and(eq(table.id, id), eq(table.organization_id, ctx.organization.id), visibleRecords(ctx, kind)))
      : [];
  // A Restricted record the caller may not see is not found, as everywhere.
  if (!row) throw invalid([field], `${field === 'incident' ? 'Incident' : 'Case'} not found.`, 'value_error.not_found');
  return { kind, column: kind.ownerColumn, id: row.id };
}

/**
 * The participant who runs it: always the caller (their participant in the record, if any). A
 * `creator` in the body is not trusted: authorship is who calls, never who the body names.
 */
async function creatorOf(tx: Executor, ctx: Ctx, subject: RunSubject): Promise<{ id: number | null; email: string }> {
  if (!subject.kind) return { id: null, email: ctx.user.email }; // signals have no participants
  const caller = await participantByEmail(tx, subject.kind, subject.id, ctx.user.email);
  return { id: caller?.id ?? null, email: ctx.user.email };
}

/**
 * The parameters of the run: the body's, else the workflow's own (the defaults it was declared
 * with), each `{key, value}` as sent.
 */
const parametersOf = (body: RunBody, wf: WorkflowRow) => (body.parameters?.length ? body.parameters : (wf.parameters as Record<string, unknown>[]));

export async function runWorkflow(ctx: Ctx, workflowId: number, body: RunBody): Promise<WorkflowInstanceReadT> {
  const unsafe = (body.artifacts ?? []).findIndex((a) => !webAddress(a.weblink));
  if (unsafe >= 0) throw invalid(['artifacts', unsafe, 'weblink'], 'The weblink must be an http or https address.', 'value_error.url.scheme');
  const id = await ctx.db.transaction(async (tx) => {
    const wf = await findWorkflow(tx, ctx, workflowId);
    if (!wf.enabled) throw invalid(['workflow'], `Workflow ${wf.name} is disabled.`, 'value_error');
    const subject = await subjectOf(tx, ctx, body);
    const creator = await creatorOf(tx, ctx, subject);
    const [run] = await tx
      .insert(workflowInstance)
      .values({
        organization_id: ctx.organization.id,
        project_id: wf.project_id,
        workflow_id: wf.id,
        status: 'Submitted',
        parameters: parametersOf(body, wf),
        run_reason: body.run_reason ?? null,
        creator_id: creator.id,
        [subject.column]: subject.id,
      })
      .returning();
    await keepArtifacts(
      tx,
      run,
      (body.artifacts ?? []).filter((a): a is typeof a & { name: string } => typeof a.name === 'string'),
    );
    await logOnSubject(tx, ctx, run, { description: `Workflow ${wf.name} submitted by ${creator.email}`, owner: creator.email });
    await enqueueRun(tx, ctx, run.id);
    return run.id;
  });
  return (await readChecked(workflowInstanceReader(), ctx.db, [id], ctx)).get(id)!;
}

/** A run whose incident or case (if any) the caller may see. */
function visibleRun(ctx: Ctx): SQL {
  return and(
    eq(workflowInstance.organization_id, ctx.organization.id),
    or(isNull(workflowInstance.incident_id), recordVisible(ctx, INCIDENT_ROWS, workflowInstance.incident_id)),
    or(isNull(workflowInstance.case_id), recordVisible(ctx, CASE_ROWS, workflowInstance.case_id)),
  )!;
}

export async function getWorkflowInstance(ctx: Ctx, id: number): Promise<WorkflowInstanceReadT> {
  const [row] = await ctx.db
    .select({ id: workflowInstance.id })
    .from(workflowInstance)
    .where(and(eq(workflowInstance.id, id), visibleRun(ctx)));
  const read = row && (await readChecked(workflowInstanceReader(), ctx.db, [row.id], ctx)).get(row.id);
  if (!read) throw errors.notFound('A workflow instance');
  return read;
}
