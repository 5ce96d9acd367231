// The case lifecycle: create (name, assignee and reporter), update (fields, lists, assessment,
// status), the status transitions, and escalation into an incident. Each runs in one transaction
// that also writes the timeline, so that the response shows every derived field.
import type { Static } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import type { RefValue } from '../../crud/refs.ts';
import { projectOfBody } from '../../crud/service.ts';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { Ctx } from '../../server/context.ts';
import { invalid } from '../../server/errors.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseSeverity } from '../case_severity/table.ts';
import { caseType } from '../case_type/table.ts';
import { insertEvents, logCaseEvent, logIncidentEvent } from '../event/service.ts';
import { createIncident } from '../incident/flows.ts';
import { INCIDENT } from '../incident/kind.ts';
import { readIncidents } from '../incident/reader.ts';
import type { IncidentCreate } from '../incident/schema.ts';
import { visibleIncidentIds } from '../incident/visibility.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { type PersonRef, personEmail } from '../individual/person.ts';
import { Changes, checkText, type LinkSpec, iso, logChanges, replaceLinks, show } from '../lifecycle/changes.ts';
import { addFirstParticipants, addParticipant, currentPeople, participantEmail, renounceRole } from '../lifecycle/participants.ts';
import { caseIncident, caseTable, incident } from '../lifecycle/table.ts';
import { project } from '../project/table.ts';
import { readPluginsOnce } from '../plugin/active.ts';
import { checkExclusiveTags, planTags, writeTagPlan } from '../tag/plan.ts';
import { CASE } from './kind.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import { inlineTickets, recordsCreated, recordUpdated, ticketColumns } from '../effects/record-effects.ts';
import { recordDocumentsCreated, recordDocumentsUpdated } from '../record_document/make.ts';
import type { RecordChange } from '../lifecycle/events.ts';
import { auditVisibility, beginUpdate, lockRecord } from '../lifecycle/records.ts';
import { moveStatus } from '../lifecycle/status.ts';
import { CASE_ASSESSMENT } from './assessment.ts';
import { resolveAssessment } from '../lifecycle/assessment.ts';
import { readVisibleCases } from './reader.ts';
import type { CaseCreate, CaseStatus, CaseUpdate } from './schema.ts';
import { caseDuplicate, caseRelated, caseTag } from './table.ts';
import { assertCanEditCase, type CaseRow, visibleCaseIds } from './visibility.ts';

type CreateBody = Static<typeof CaseCreate>;
type UpdateBody = Static<typeof CaseUpdate>;
type EscalateBody = Static<typeof IncidentCreate>;
type Values = Partial<typeof caseTable.$inferInsert>;

export const DEFAULT_CASE_RESOLUTION = 'Description of the actions taken to resolve the case.';

async function readOne(tx: Executor, ctx: Ctx, id: number) {
  const [item] = await readVisibleCases(ctx, tx, [id], true);
  return item;
}

const named = (value: RefValue) => (value && (typeof value.id === 'number' || typeof value.name === 'string') ? value : undefined);

// ---- transitions -------------------------------------------------------------------------------

/**
 * What moving a case from one status to another sets and does (docs/cases.md has the table). Every
 * status past New stamps `triage_at` when it is empty; Escalated stamps `escalated_at` and escalates
 * the case when no incident is linked; Stable stamps `stable_at`; Closed stamps `closed_at` and
 * removes the participants, whom leaving Closed brings back.
 */
async function transition(tx: Executor, ctx: Ctx, row: CaseRow, to: CaseStatus, now: Date): Promise<Values> {
  const values = await moveStatus<Values>(tx, ctx, CASE, row, to, now, () => {
    const stamps: Values = {};
    if (to !== 'New' && !row.triage_at) stamps.triage_at = now;
    if (to === 'Escalated') stamps.escalated_at = now;
    if (to === 'Stable') stamps.stable_at = now;
    return stamps;
  });
  if (row.status !== to && to === 'Escalated') await autoEscalate(tx, ctx, { ...row, ...values } as CaseRow);
  return values;
}

// ---- create ------------------------------------------------------------------------------------

export interface OpenCaseInput {
  projectId?: number;
  title: string;
  description?: string | null;
  typeId?: number | null;
  priorityId?: number | null;
  severityId?: number | null;
  status?: CaseStatus;
  visibility?: 'Open' | 'Restricted' | null;
  resolution?: string | null;
  resolutionReason?: string | null;
  assigneeEmail?: string;
  reporterEmail?: string;
  tagIds?: number[];
}

/**
 * Creates a case inside the caller's transaction and returns its id: defaults of the project for
 * what is not given, its name, "Case created", the assignee and reporter (the caller when not
 * given), then the transitions from New to the requested status.
 */
export async function openCase(tx: Executor, ctx: Ctx, input: OpenCaseInput & { projectId: number }): Promise<number> {
  const [id] = await openCases(tx, ctx, [input]);
  return id;
}

/**
 * openCase for several cases at once (the cases a batch of signal instances opens), in a number of
 * statements that does not grow with the number of cases; returns their ids in order.
 */
export async function openCases(tx: Executor, ctx: Ctx, inputs: (OpenCaseInput & { projectId: number })[]): Promise<number[]> {
  if (inputs.length === 0) return [];
  // Each step (ticket, documents, resolver) asks for its plugin, for every case: one read per project.
  readPluginsOnce(tx);
  const now = new Date();
  const rows = await insertCases(tx, ctx, inputs, now);
  const tags = inputs.flatMap((input, i) => (input.tagIds ?? []).map((tag_id) => ({ case_id: rows[i].id, tag_id })));
  if (tags.length) await tx.insert(caseTag).values(tags);
  const people = inputs.map((input, i) => {
    const assignee = input.assigneeEmail ?? ctx.user.email;
    const reporter = input.reporterEmail ?? ctx.user.email;
    return {
      recordId: rows[i].id,
      projectId: input.projectId,
      people: [
        { email: assignee, roles: ['Assignee' as const] },
        { email: reporter, roles: ['Reporter' as const] },
      ],
    };
  });
  const participants = await addFirstParticipants(tx, ctx, CASE, people, now);
  const tickets = await inlineTickets(tx, ctx, CASE, rows);
  const named = rows.map((row, i) => {
    const ids = participants.ids.get(row.id)!;
    return {
      id: row.id,
      ...ticketColumns(tickets.get(row.id)),
      assignee_id: ids.get(people[i].people[0].email.toLowerCase())!,
      reporter_id: ids.get(people[i].people[1].email.toLowerCase())!,
    };
  });
  // Names, assignees and reporters, and the timeline ("Case created", then who joined), in one statement.
  const events = insertEvents(ctx, [...rows.map((row) => ({ record: { case_id: row.id }, description: 'Case created', at: now })), ...participants.events]);
  await runStatement(
    tx,
    sql`
    WITH named AS (
      UPDATE ${caseTable} SET name = x.name, ticket = x.ticket, assignee_id = x.assignee_id, reporter_id = x.reporter_id
      FROM json_to_recordset(${JSON.stringify(named)}::json) AS x(id int, name text, ticket jsonb, assignee_id int, reporter_id int) WHERE ${caseTable.id} = x.id
    )
    ${events}`,
  );
  for (const [i, input] of inputs.entries()) {
    const status = input.status ?? 'New';
    if (status === 'New') continue;
    // Created past New: every stage up to it is stamped at the time it was reported.
    const { id: _id, ...columns } = named[i];
    const moved = await transition(tx, ctx, { ...rows[i], ...columns } as CaseRow, status, now);
    await tx.update(caseTable).set(moved).where(eq(caseTable.id, rows[i].id));
  }
  const ids = rows.map((r) => r.id);
  await recordsCreated(tx, ctx, CASE, ids);
  await recordDocumentsCreated(tx, ctx, CASE, ids);
  return ids;
}

/**
 * Inserts the cases in one statement, each taking from its project the default type, priority and
 * severity where the input names none (ids it names were checked by its caller) and its visibility
 * from its type unless given. 422 when a project has no default to give (nothing inserted). Returns
 * the rows, in the inputs' order.
 */
async function insertCases(tx: Executor, ctx: Ctx, inputs: (OpenCaseInput & { projectId: number })[], at: Date): Promise<CaseRow[]> {
  const asked = JSON.stringify(
    inputs.map((i, n) => ({
      n,
      project_id: i.projectId,
      title: i.title,
      description: i.description ?? '',
      resolution: i.resolution ?? DEFAULT_CASE_RESOLUTION,
      resolution_reason: i.resolutionReason ?? null,
      visibility: i.visibility ?? null,
      type_id: i.typeId ?? null,
      priority_id: i.priorityId ?? null,
      severity_id: i.severityId ?? null,
    })),
  );
  const [result] = await runStatement<{ rows: CaseRow[] | null; missing: string | null }>(
    tx,
    sql`
    WITH x AS (
      SELECT * FROM json_to_recordset(${asked}::json) AS x(n int, project_id int, title text, description text, resolution text,
        resolution_reason text, visibility text, type_id int, priority_id int, severity_id int)
    ),
    d AS (
      SELECT x.*,
        COALESCE(x.type_id, (SELECT id FROM ${caseType} WHERE project_id = x.project_id AND "default" ORDER BY id LIMIT 1)) AS t,
        COALESCE(x.priority_id, (SELECT id FROM ${casePriority} WHERE project_id = x.project_id AND "default" ORDER BY id LIMIT 1)) AS pr,
        COALESCE(x.severity_id, (SELECT id FROM ${caseSeverity} WHERE project_id = x.project_id AND "default" ORDER BY id LIMIT 1)) AS sv
      FROM x JOIN ${project} p ON p.id = x.project_id
    ),
    made AS (
      INSERT INTO ${caseTable} (organization_id, project_id, title, description, resolution, resolution_reason, status, visibility,
        case_type_id, case_priority_id, case_severity_id, reported_at, created_at, updated_at)
      SELECT ${ctx.organization.id}, d.project_id, d.title, d.description, d.resolution, d.resolution_reason, 'New',
        COALESCE(d.visibility, CASE WHEN t.visibility = 'Restricted' THEN 'Restricted' ELSE 'Open' END), d.t, d.pr, d.sv, ${at}, ${at}, ${at}
      FROM d LEFT JOIN ${caseType} t ON t.id = d.t
      WHERE NOT EXISTS (SELECT 1 FROM d WHERE t IS NULL OR pr IS NULL OR sv IS NULL)
      ORDER BY d.n
      RETURNING *
    )
    SELECT
      (SELECT json_agg(made ORDER BY made.id) FROM made) AS rows,
      (SELECT CASE WHEN bool_or(t IS NULL) THEN 'type' WHEN bool_or(pr IS NULL) THEN 'priority' WHEN bool_or(sv IS NULL) THEN 'severity' END FROM d) AS missing`,
  );
  if (result.missing) throw invalid([`case_${result.missing}`], `No default case ${result.missing} defined.`, 'value_error.not_found');
  // Ids are drawn in insertion order, which is the inputs' order.
  return result.rows ?? [];
}

export async function createCase(ctx: Ctx, body: CreateBody) {
  checkText(body);
  return ctx.db.transaction(async (tx) => {
    // Everything the body names, resolved before the first write.
    const proj = await projectOfBody(tx, ctx, body.project as RefValue);
    const assessment = await resolveAssessment(tx, ctx, CASE, CASE_ASSESSMENT, proj.id, {
      type: body.case_type,
      priority: body.case_priority,
      severity: body.case_severity,
    });
    const assigneeEmail = await personEmail(tx, ctx, body.assignee as PersonRef, 'assignee', proj.id);
    const reporterEmail = await personEmail(tx, ctx, body.reporter as PersonRef, 'reporter', proj.id);
    const tagPlan = await planTags(tx, ctx, body.tags, proj.id);
    const tagIds = await writeTagPlan(tx, ctx, tagPlan, proj.id);
    await checkExclusiveTags(tx, tagIds);
    const id = await openCase(tx, ctx, {
      projectId: proj.id,
      title: body.title,
      description: body.description,
      typeId: assessment.typeId,
      priorityId: assessment.priorityId,
      severityId: assessment.severityId,
      status: body.status ?? 'New',
      visibility: body.visibility,
      resolution: body.resolution,
      resolutionReason: body.resolution_reason,
      assigneeEmail,
      reporterEmail,
      tagIds,
    });
    return readOne(tx, ctx, id);
  });
}

// ---- update ------------------------------------------------------------------------------------

async function nameOf(tx: Executor, table: typeof caseType | typeof casePriority | typeof caseSeverity, id: number): Promise<string> {
  const [row] = await tx.select({ name: table.name }).from(table).where(eq(table.id, id));
  return row?.name ?? 'none';
}

const LINKS = {
  tags: { table: caseTag, owner: caseTag.case_id, other: caseTag.tag_id },
  related: { table: caseRelated, owner: caseRelated.case_id, other: caseRelated.related_id, hidden: CASE },
  duplicates: { table: caseDuplicate, owner: caseDuplicate.case_id, other: caseDuplicate.duplicate_id, hidden: CASE },
  incidents: { table: caseIncident, owner: caseIncident.case_id, other: caseIncident.incident_id, hidden: INCIDENT },
} satisfies Record<string, LinkSpec>;

export async function updateCase(ctx: Ctx, id: number, body: UpdateBody) {
  return ctx.db.transaction(async (tx) => {
    const row = await beginUpdate(tx, ctx, CASE, id, body, () => assertCanEditCase(ctx, id, tx));
    const projectId = row.project_id;

    // Resolve and check everything before writing. Assessment fields omitted keep their values.
    const assessment = await resolveAssessment(tx, ctx, CASE, CASE_ASSESSMENT, projectId, {
      type: named(body.case_type) ?? { id: row.case_type_id },
      priority: named(body.case_priority) ?? { id: row.case_priority_id },
      severity: named(body.case_severity) ?? { id: row.case_severity_id },
    });
    const assigneeEmail = await personEmail(tx, ctx, body.assignee as PersonRef, 'assignee', projectId);
    const reporterEmail = await personEmail(tx, ctx, body.reporter as PersonRef, 'reporter', projectId);
    const tagPlan = await planTags(tx, ctx, body.tags, projectId);
    const related = await visibleCaseIds(tx, ctx, body.related, 'related', id);
    const duplicates = await visibleCaseIds(tx, ctx, body.duplicates, 'duplicates', id);
    const incidents = await visibleIncidentIds(tx, ctx, body.incidents, 'incidents');
    const now = new Date();
    const who = ctx.user.email;

    const changes = new Changes<CaseRow, Values>(row);
    changes.field('title', body.title);
    changes.field('description', body.description ?? undefined);
    changes.field('resolution', body.resolution ?? undefined);
    changes.field('resolution_reason', body.resolution_reason ?? undefined);
    changes.field('visibility', body.visibility ?? undefined);
    changes.field('reported_at', iso(body.reported_at ?? undefined) as Date | undefined);
    changes.field('triage_at', iso(body.triage_at));
    changes.field('escalated_at', iso(body.escalated_at));

    for (const [field, table, value, label] of [
      ['case_type_id', caseType, assessment.typeId, 'type'],
      ['case_severity_id', caseSeverity, assessment.severityId, 'severity'],
      ['case_priority_id', casePriority, assessment.priorityId, 'priority'],
    ] as const) {
      if (row[field] === value) continue;
      changes.set(field, value);
      const current = await nameOf(tx, table, value);
      changes.note({
        description: `Case ${label} changed to ${current} by ${who}`,
        label,
        field: field.replace(/_id$/, ''),
        type: label === 'type' ? 'Field updated' : 'Assessment updated',
        previous: await nameOf(tx, table, row[field]),
        current,
      });
    }

    // Lists: replaced by the body's (links the caller may not see stay).
    const tagIds = await writeTagPlan(tx, ctx, tagPlan, projectId);
    await checkExclusiveTags(tx, tagIds);
    for (const [field, ids] of [
      ['tags', tagIds],
      ['related', related],
      ['duplicates', duplicates],
      ['incidents', incidents],
    ] as const) {
      const replaced = await replaceLinks(tx, ctx, LINKS[field], id, ids);
      if (replaced) changes.note({ description: `Case ${field} changed by ${who}`, label: field, field, type: 'Field updated', ...replaced });
    }

    // The assignee and the reporter, then the status (which may remove or bring back everyone, or escalate).
    const change: RecordChange = {};
    for (const [column, role, email] of [
      ['assignee_id', 'Assignee', assigneeEmail],
      ['reporter_id', 'Reporter', reporterEmail],
    ] as const) {
      if (!email) continue;
      const currentEmail = await participantEmail(tx, row[column]);
      if (currentEmail && currentEmail.toLowerCase() === email.toLowerCase()) continue;
      if (row[column] !== null) await renounceRole(tx, ctx, CASE, id, row[column], role, now);
      changes.set(column, await addParticipant(tx, ctx, CASE, id, email, role, { at: now }));
      change.roles = [...(change.roles ?? []), { role, from: currentEmail ?? null, to: email }];
    }
    await logChanges(
      tx,
      ctx,
      CASE,
      id,
      changes.log,
      (e) => e.description ?? `Case ${e.label} changed from ${show(e.previous)} to ${show(e.current)} by ${who}`,
    );
    await tx
      .update(caseTable)
      .set({ ...changes.values, updated_at: now })
      .where(eq(caseTable.id, id));
    if (body.status && body.status !== row.status) {
      // A stamp sent with the transition gives way to the transition's own.
      const moved = await transition(tx, ctx, changes.current, body.status, now);
      await tx.update(caseTable).set(moved).where(eq(caseTable.id, id));
      change.status = { from: row.status, to: body.status };
    }
    const reassessed = (['type', 'severity', 'priority'] as const).filter((a) => changes.values[`case_${a}_id`] !== undefined);
    if (reassessed.length) change.assessment = reassessed;
    if (changes.values.title !== undefined && changes.values.title !== row.title) change.title = true;
    await auditVisibility(tx, ctx, CASE, row, changes.values.visibility);
    await recordUpdated(tx, ctx, CASE, id, change);
    await recordDocumentsUpdated(tx, ctx, CASE, id, change);
    return readOne(tx, ctx, id);
  });
}

// ---- escalation --------------------------------------------------------------------------------

/**
 * Links the case and the incident, moves the case to Escalated (unless it is already), copies the
 * case's people into the incident, and writes events on both.
 */
async function linkEscalation(tx: Executor, ctx: Ctx, row: CaseRow, incidentId: number, now: Date) {
  await tx.insert(caseIncident).values({ case_id: row.id, incident_id: incidentId }).onConflictDoNothing();
  const [inc] = await tx
    .select({ name: incident.name, project: project.name, visibility: incident.visibility })
    .from(incident)
    .innerJoin(project, eq(project.id, incident.project_id))
    .where(eq(incident.id, incidentId));
  await logCaseEvent(tx, ctx, row.id, { description: `The case has been linked to incident ${inc.name} in the ${inc.project} project`, at: now });
  // An Open incident's timeline is read by every member: a Restricted case is not named there.
  const source = row.visibility === 'Restricted' && inc.visibility !== 'Restricted' ? 'a restricted case' : `case ${row.name ?? row.id}`;
  await logIncidentEvent(tx, ctx, incidentId, { description: `Incident created from ${source}`, details: { case_id: row.id }, at: now });
  // The case's people take part in the incident; its assignee commands it when nobody else was named.
  for (const person of await currentPeople(tx, CASE, row.id)) {
    await addParticipant(tx, ctx, INCIDENT, incidentId, person.email, 'Participant', { reason: `Participant of ${source}` });
  }
}

/** The incident type a case type maps to, with that type's project. */
async function mappedIncidentType(tx: Executor, caseTypeId: number): Promise<{ id: number; name: string; project_id: number } | undefined> {
  const [mapped] = await tx
    .select({ id: incidentType.id, name: incidentType.name, project_id: incidentType.project_id })
    .from(caseType)
    .innerJoin(incidentType, eq(incidentType.id, caseType.incident_type_id))
    .where(eq(caseType.id, caseTypeId));
  return mapped;
}

/**
 * Status set to Escalated with no incident linked: an incident made from the case (its title, its
 * description with a note naming it, the mapped incident type and its project, a priority named like
 * the case's, the assignee reporting and commanding). It carries the case's text, so a Restricted
 * case makes a Restricted incident.
 */
async function autoEscalate(tx: Executor, ctx: Ctx, row: CaseRow) {
  const [linked] = await tx.select({ id: caseIncident.incident_id }).from(caseIncident).where(eq(caseIncident.case_id, row.id)).limit(1);
  if (linked) return;
  const type = await mappedIncidentType(tx, row.case_type_id);
  const projectId = type?.project_id ?? row.project_id;
  const priorityName = await nameOf(tx, casePriority, row.case_priority_id);
  const [priority] = await tx
    .select({ id: incidentPriority.id })
    .from(incidentPriority)
    .where(and(eq(incidentPriority.project_id, projectId), eq(incidentPriority.name, priorityName)))
    .limit(1);
  const assignee = (await participantEmail(tx, row.assignee_id)) ?? ctx.user.email;
  // The body's type says what a client sends (whole read objects); references by id alone are what
  // createIncident reads of them.
  const created = await createIncident({ ...ctx, db: tx }, {
    title: row.title,
    description: `${row.description}\n\nThis incident was created from case ${row.name ?? row.id}.`,
    status: 'Active',
    visibility: row.visibility === 'Restricted' ? 'Restricted' : undefined,
    project: { id: projectId },
    incident_type: type ? { id: type.id } : undefined,
    incident_priority: priority ? { id: priority.id } : undefined,
    reporter: { individual: { email: assignee } },
    commander: { individual: { email: assignee } },
    tags: [],
  } as never);
  await linkEscalation(tx, ctx, row, (created as { id: number }).id, new Date());
}

/**
 * `PUT /cases/{id}/escalate`: an incident from the body (type: the case type's mapping, reporter:
 * the case's, commander: the assignee, unless the body names them), linked with the case, which
 * becomes Escalated. Returns the incident. A Restricted case makes a Restricted incident unless the
 * body asks for another visibility.
 */
export async function escalateCase(ctx: Ctx, id: number, body: EscalateBody) {
  return ctx.db.transaction(async (tx) => {
    await assertCanEditCase(ctx, id, tx);
    const row = await lockRecord(tx, CASE, id);
    const type = await mappedIncidentType(tx, row.case_type_id);
    const incidentBody = { ...body } as Record<string, unknown>;
    if (!named(body.incident_type as RefValue) && type) incidentBody.incident_type = { id: type.id };
    if (!named(body.project as RefValue)) incidentBody.project = { id: type?.project_id ?? row.project_id };
    if (!body.visibility && row.visibility === 'Restricted') incidentBody.visibility = 'Restricted';
    if (!(body.reporter as PersonRef)?.individual)
      incidentBody.reporter = { individual: { email: (await participantEmail(tx, row.reporter_id)) ?? ctx.user.email } };
    const assignee = await participantEmail(tx, row.assignee_id);
    if (!(body.commander as PersonRef)?.individual && assignee) incidentBody.commander = { individual: { email: assignee } };
    const created = (await createIncident({ ...ctx, db: tx }, incidentBody as EscalateBody)) as { id: number };
    const now = new Date();
    if (row.status !== 'Escalated') {
      // The incident is linked first, so that the transition does not make another.
      await tx.insert(caseIncident).values({ case_id: row.id, incident_id: created.id }).onConflictDoNothing();
      const moved = await transition(tx, ctx, row, 'Escalated', now);
      await tx
        .update(caseTable)
        .set({ ...moved, updated_at: now })
        .where(eq(caseTable.id, id));
      await tellConversation(tx, CASE, [id], { event: 'updated', change: { status: { from: row.status, to: 'Escalated' } } });
    }
    await linkEscalation(tx, ctx, row, created.id, now);
    const [item] = await readIncidents(tx, [created.id], true, ctx);
    return item;
  });
}
