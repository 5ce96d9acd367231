// The incident lifecycle: create (with its name, participants and roles), update (fields, lists,
// people, status) and the status transitions, each in one transaction that also writes the timeline
// and recomputes the response cost, so that the response shows every derived field.
import type { Static } from '@sinclair/typebox';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { RefValue } from '../../crud/refs.ts';
import { defaultRecord, projectOfBody } from '../../crud/service.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { logIncidentEvent } from '../event/service.ts';
import { recomputeResponseCost } from './response-cost.ts';
import { incidentCost } from '../incident_cost/table.ts';
import { incidentPriorityGroup } from '../incident_priority/group.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import type { ParticipantRole } from '../incident_role/roles.ts';
import { resolveRole } from '../incident_role/service.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { type PersonRef, personEmail } from '../individual/person.ts';
import { Changes, checkText, type LinkSpec, iso, logChanges, replaceLinks, sameSet, show } from '../lifecycle/changes.ts';
import { CASE_ROWS } from '../lifecycle/kind.ts';
import { addParticipant, participantEmail, renounceRole } from '../lifecycle/participants.ts';
import { caseIncident, incident, participant } from '../lifecycle/table.ts';
import { resolveVisible } from '../lifecycle/visibility.ts';
import { checkExclusiveTags, planTags, writeTagPlan } from '../tag/plan.ts';
import { tag } from '../tag/table.ts';
import { term } from '../term/table.ts';
import { INCIDENT } from './kind.ts';
import { auditVisibility, beginUpdate } from '../lifecycle/records.ts';
import { inlineTickets, recordsCreated, recordUpdated, ticketColumns } from '../effects/record-effects.ts';
import { recordDocumentsCreated, recordDocumentsUpdated } from '../record_document/make.ts';
import type { RecordChange, RoleChange } from '../lifecycle/events.ts';
import { moveStatus } from '../lifecycle/status.ts';
import { readIncidents } from './reader.ts';
import { planCosts, resolveDuplicates, resolveTerms } from './refs.ts';
import { INCIDENT_ASSESSMENT } from './assessment.ts';
import { resolveAssessment } from '../lifecycle/assessment.ts';
import type { IncidentCreate, IncidentStatus, IncidentUpdate } from './schema.ts';
import { incidentDuplicate, incidentTag, incidentTerm } from './table.ts';
import { assertCanEdit, type IncidentRow } from './visibility.ts';

type CreateBody = Static<typeof IncidentCreate>;

/** The type, priority and severity a body names. */
const assessmentOf = (body: CreateBody | UpdateBody) => ({ type: body.incident_type, priority: body.incident_priority, severity: body.incident_severity });
type UpdateBody = Static<typeof IncidentUpdate>;
type Values = Partial<typeof incident.$inferInsert>;

export const DEFAULT_RESOLUTION = 'Description of the actions taken to resolve the incident.';

/** The incident as the caller's answer shows it: what it nests narrowed to what they may see. */
async function readOne(tx: Executor, ctx: Ctx, id: number) {
  const [item] = await readIncidents(tx, [id], true, ctx);
  return item;
}

// ---- participants ------------------------------------------------------------------------------

async function participantLocation(tx: Executor, participantId: number): Promise<string | null> {
  const [row] = await tx.select({ location: participant.location }).from(participant).where(eq(participant.id, participantId));
  return row?.location ?? null;
}

const COLUMN_OF = { 'Incident Commander': ['commander_id', 'commanders_location'], Reporter: ['reporter_id', 'reporters_location'] } as const;

/**
 * Makes `email` the incident's commander or reporter: the previous holder renounces the role, the
 * new one takes it (joining if needed). Returns the columns to write and who held it; nothing
 * when it is the same person.
 */
async function assignRole(
  tx: Executor,
  ctx: Ctx,
  row: IncidentRow,
  role: 'Incident Commander' | 'Reporter',
  email: string,
): Promise<{ values: Values; change: RoleChange } | undefined> {
  const [idColumn, locationColumn] = COLUMN_OF[role];
  const current = row[idColumn];
  const currentEmail = await participantEmail(tx, current);
  if (currentEmail && currentEmail.toLowerCase() === email.toLowerCase()) return undefined;
  if (current !== null) await renounceRole(tx, ctx, INCIDENT, row.id, current, role);
  const id = await addParticipant(tx, ctx, INCIDENT, row.id, email, role);
  return { values: { [idColumn]: id, [locationColumn]: await participantLocation(tx, id) }, change: { role, from: currentEmail ?? null, to: email } };
}

// ---- status ------------------------------------------------------------------------------------

/**
 * What a status change sets and does (§6.4): entering Stable stamps `stable_at` (and lowers the
 * priority to the project's default unless `keepPriority`); Closed stamps `closed_at` (passing through
 * Stable first when coming from Active) and removes the participants; leaving Closed brings them back.
 * Closed -> Active keeps both stamps.
 */
async function transition(tx: Executor, ctx: Ctx, row: IncidentRow, to: IncidentStatus, now: Date, keepPriority: boolean): Promise<Values> {
  return moveStatus<Values>(tx, ctx, INCIDENT, row, to, now, async (from) => {
    const stamps: Values = {};
    if (to === 'Stable' || (to === 'Closed' && from === 'Active')) {
      stamps.stable_at = now;
      if (to === 'Stable' && !keepPriority) {
        const fallback = await defaultRecord(tx, incidentPriorityGroup, row.project_id);
        if (fallback && fallback.id !== row.incident_priority_id) stamps.incident_priority_id = fallback.id;
      }
    }
    return stamps;
  });
}

// ---- create ------------------------------------------------------------------------------------

export async function createIncident(ctx: Ctx, body: CreateBody) {
  checkText(body);
  return ctx.db.transaction(async (tx) => {
    // Everything the body names, resolved before the first write.
    const proj = await projectOfBody(tx, ctx, body.project as RefValue);
    const assessment = await resolveAssessment(tx, ctx, INCIDENT, INCIDENT_ASSESSMENT, proj.id, assessmentOf(body));
    const [type] = await tx.select({ visibility: incidentType.visibility }).from(incidentType).where(eq(incidentType.id, assessment.typeId));
    const reporterEmail = (await personEmail(tx, ctx, body.reporter as PersonRef, 'reporter', proj.id)) ?? ctx.user.email;
    const commanderEmail = await personEmail(tx, ctx, body.commander as PersonRef, 'commander', proj.id);
    const tagPlan = await planTags(tx, ctx, body.tags, proj.id);

    const now = new Date();
    const status = body.status ?? 'Active';
    const [row] = await tx
      .insert(incident)
      .values({
        organization_id: ctx.organization.id,
        project_id: proj.id,
        title: body.title,
        description: body.description,
        resolution: body.resolution ?? DEFAULT_RESOLUTION,
        status: 'Active',
        visibility: body.visibility ?? (type.visibility === 'Restricted' ? 'Restricted' : 'Open'),
        incident_type_id: assessment.typeId,
        incident_priority_id: assessment.priorityId,
        incident_severity_id: assessment.severityId,
        reported_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning();
    const tagIds = await writeTagPlan(tx, ctx, tagPlan, proj.id);
    await checkExclusiveTags(tx, tagIds);
    if (tagIds.length) await tx.insert(incidentTag).values(tagIds.map((tag_id) => ({ incident_id: row.id, tag_id })));
    await logIncidentEvent(tx, ctx, row.id, { description: 'Incident created', at: now });

    // People: the reporter, the commander (body, else policies, else the reporter), liaison and scribe from policies.
    const facts = { projectId: proj.id, priorityId: assessment.priorityId, typeId: assessment.typeId, tagIds };
    const values: Values = ticketColumns((await inlineTickets(tx, ctx, INCIDENT, [row])).get(row.id));
    const reporterId = await addParticipant(tx, ctx, INCIDENT, row.id, reporterEmail, 'Reporter');
    const commanderId = await addParticipant(
      tx,
      ctx,
      INCIDENT,
      row.id,
      commanderEmail ?? (await resolveRole(tx, 'Incident Commander', facts)) ?? reporterEmail,
      'Incident Commander',
    );
    Object.assign(values, {
      reporter_id: reporterId,
      commander_id: commanderId,
      reporters_location: await participantLocation(tx, reporterId),
      commanders_location: await participantLocation(tx, commanderId),
    });
    for (const role of ['Liaison', 'Scribe'] as ParticipantRole[]) {
      const email = await resolveRole(tx, role, facts);
      if (email) await addParticipant(tx, ctx, INCIDENT, row.id, email, role);
    }
    // Created Stable or Closed: stamped at the time it was reported.
    if (status !== 'Active') Object.assign(values, await transition(tx, ctx, { ...row, ...values } as IncidentRow, status, now, true));
    await tx.update(incident).set(values).where(eq(incident.id, row.id));
    await recomputeResponseCost(tx, row.id, now);
    await recordsCreated(tx, ctx, INCIDENT, [row.id]);
    await recordDocumentsCreated(tx, ctx, INCIDENT, [row.id]);
    return readOne(tx, ctx, row.id);
  });
}

// ---- update ------------------------------------------------------------------------------------

async function namesOf(tx: Executor, table: typeof incidentType | typeof incidentPriority | typeof incidentSeverity, ids: number[]) {
  const rows = await tx.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

const LINKS = {
  tags: { table: incidentTag, owner: incidentTag.incident_id, other: incidentTag.tag_id },
  terms: { table: incidentTerm, owner: incidentTerm.incident_id, other: incidentTerm.term_id },
  duplicates: { table: incidentDuplicate, owner: incidentDuplicate.incident_id, other: incidentDuplicate.duplicate_id, hidden: INCIDENT },
  cases: { table: caseIncident, owner: caseIncident.incident_id, other: caseIncident.case_id, hidden: CASE_ROWS },
} satisfies Record<string, LinkSpec>;

/**
 * How the timeline names linked records. A Restricted incident is never named, only counted: the
 * event is read by everyone who sees this incident.
 */
async function linkLabel(tx: Executor, field: 'tags' | 'terms' | 'duplicates', ids: number[]): Promise<string> {
  if (ids.length === 0) return 'none';
  if (field === 'tags') return (await tx.select({ name: tag.name }).from(tag).where(inArray(tag.id, ids))).map((r) => r.name).join(', ');
  if (field === 'terms') return (await tx.select({ name: term.text }).from(term).where(inArray(term.id, ids))).map((r) => r.name).join(', ');
  const rows = await tx.select({ name: incident.name, visibility: incident.visibility }).from(incident).where(inArray(incident.id, ids));
  const restricted = rows.filter((r) => r.visibility === 'Restricted').length;
  const names = rows.filter((r) => r.visibility !== 'Restricted').map((r) => r.name);
  if (restricted) names.push(`${restricted} restricted incident${restricted > 1 ? 's' : ''}`);
  return names.join(', ');
}

export async function updateIncident(ctx: Ctx, id: number, body: UpdateBody) {
  return ctx.db.transaction(async (tx) => {
    const row = await beginUpdate(tx, ctx, INCIDENT, id, body, () => assertCanEdit(ctx, id, tx));
    const projectId = row.project_id;

    // Resolve and check everything before writing.
    const assessment = await resolveAssessment(tx, ctx, INCIDENT, INCIDENT_ASSESSMENT, projectId, assessmentOf(body));
    const commanderEmail = await personEmail(tx, ctx, body.commander as PersonRef, 'commander', projectId);
    const reporterEmail = await personEmail(tx, ctx, body.reporter as PersonRef, 'reporter', projectId);
    const tagPlan = await planTags(tx, ctx, body.tags, projectId);
    const duplicates = await resolveDuplicates(tx, ctx, body.duplicates, id);
    const cases = await resolveVisible(tx, ctx, CASE_ROWS, body.cases, 'cases');
    const costPlan = await planCosts(tx, ctx, body.incident_costs, id, projectId);
    const now = new Date();

    // Plain fields: copied when present; status and visibility kept when omitted.
    const changes = new Changes<IncidentRow, Values>(row);
    changes.field('title', body.title);
    changes.field('description', body.description);
    changes.field('resolution', body.resolution ?? undefined);
    changes.field('visibility', body.visibility ?? undefined);
    changes.field('reported_at', iso(body.reported_at ?? undefined) as Date | undefined);
    changes.field('stable_at', iso(body.stable_at));

    const typeNames = await namesOf(tx, incidentType, [row.incident_type_id, assessment.typeId]);
    const priorityNames = await namesOf(tx, incidentPriority, [row.incident_priority_id, assessment.priorityId]);
    const severityNames = await namesOf(tx, incidentSeverity, [row.incident_severity_id, assessment.severityId]);
    for (const [field, value, names, label, type] of [
      ['incident_type_id', assessment.typeId, typeNames, 'type', 'Field updated'],
      ['incident_severity_id', assessment.severityId, severityNames, 'severity', 'Assessment updated'],
      ['incident_priority_id', assessment.priorityId, priorityNames, 'priority', 'Assessment updated'],
    ] as const) {
      if (row[field] === value) continue;
      changes.set(field, value);
      changes.note({ label, field: field.replace(/_id$/, ''), type, previous: names.get(row[field]), current: names.get(value) });
    }

    // Lists: replaced by the body's (links the caller may not see stay).
    const tagIds = await writeTagPlan(tx, ctx, tagPlan, projectId);
    await checkExclusiveTags(tx, tagIds);
    const termIds = await resolveTerms(tx, ctx, body.terms, projectId);
    for (const [field, ids] of [
      ['tags', tagIds],
      ['terms', termIds],
      ['duplicates', duplicates],
    ] as const) {
      const replaced = await replaceLinks(tx, ctx, LINKS[field], id, ids);
      if (replaced)
        changes.note({
          label: field,
          field,
          type: 'Field updated',
          previous: await linkLabel(tx, field, replaced.previous),
          current: await linkLabel(tx, field, replaced.current),
        });
    }
    const replacedCases = await replaceLinks(tx, ctx, LINKS.cases, id, cases);
    if (replacedCases) changes.note({ label: 'cases', field: 'cases', type: 'Field updated', previous: replacedCases.previous.length, current: cases.length });

    const costsBefore = (await tx.select({ id: incidentCost.id }).from(incidentCost).where(eq(incidentCost.incident_id, id))).map((r) => r.id);
    await tx.delete(incidentCost).where(and(eq(incidentCost.incident_id, id), costPlan.keep.length ? notInArray(incidentCost.id, costPlan.keep) : undefined));
    if (costPlan.create.length) {
      await tx.insert(incidentCost).values(
        costPlan.create.map((c) => ({
          organization_id: ctx.organization.id,
          project_id: projectId,
          incident_id: id,
          incident_cost_type_id: c.typeId,
          amount: c.amount,
        })),
      );
    }
    if (costPlan.create.length || !sameSet(costsBefore, costPlan.keep))
      changes.note({
        label: 'costs',
        field: 'incident_costs',
        type: 'Field updated',
        previous: costsBefore.length,
        current: costPlan.keep.length + costPlan.create.length,
      });

    // People, then the status (which may remove or bring back everyone).
    const roles: RoleChange[] = [];
    for (const [role, email] of [
      ['Incident Commander', commanderEmail],
      ['Reporter', reporterEmail],
    ] as const) {
      const assigned = email ? await assignRole(tx, ctx, changes.current, role, email) : undefined;
      if (!assigned) continue;
      Object.assign(changes.values, assigned.values);
      roles.push(assigned.change);
    }
    if (body.status && body.status !== row.status) {
      const keepPriority = assessment.priorityId !== row.incident_priority_id;
      const moved = await transition(tx, ctx, changes.current, body.status, now, keepPriority);
      // A stamp sent with the transition gives way to the transition's own.
      Object.assign(changes.values, moved);
      if (moved.stable_at) changes.forget('stable_at');
      if (moved.incident_priority_id !== undefined) {
        const names = await namesOf(tx, incidentPriority, [row.incident_priority_id, moved.incident_priority_id]);
        changes.note({
          label: 'priority',
          field: 'incident_priority',
          type: 'Assessment updated',
          previous: names.get(row.incident_priority_id),
          current: names.get(moved.incident_priority_id),
        });
      }
    }

    await logChanges(tx, ctx, INCIDENT, id, changes.log, (e) => `Incident ${e.label} changed from ${show(e.previous)} to ${show(e.current)}`);
    await tx
      .update(incident)
      .set({ ...changes.values, updated_at: now })
      .where(eq(incident.id, id));
    await recomputeResponseCost(tx, id, now);
    await auditVisibility(tx, ctx, INCIDENT, row, changes.values.visibility);
    const change = { ...changeOf(row, changes.values), ...(roles.length ? { roles } : {}) };
    await recordUpdated(tx, ctx, INCIDENT, id, change);
    await recordDocumentsUpdated(tx, ctx, INCIDENT, id, change);
    return readOne(tx, ctx, id);
  });
}

/** What an update changed that notifications follow: the status, the type, severity or priority (roles aside). */
function changeOf(row: IncidentRow, values: Values): RecordChange {
  const change: RecordChange = {};
  if (values.status !== undefined && values.status !== row.status) change.status = { from: row.status, to: values.status };
  const assessment = (
    [
      ['type', 'incident_type_id'],
      ['severity', 'incident_severity_id'],
      ['priority', 'incident_priority_id'],
    ] as const
  )
    .filter(([, col]) => values[col] !== undefined && values[col] !== row[col])
    .map(([name]) => name);
  if (assessment.length) change.assessment = assessment;
  if (values.title !== undefined && values.title !== row.title) change.title = true;
  return change;
}
