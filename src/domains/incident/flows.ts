// The incident lifecycle: create (with its name, participants and roles), update (fields, lists,
// people, status) and the status transitions, each in one transaction that also writes the timeline
// and recomputes the response cost, so that the response shows every derived field.
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { RefValue } from '../../crud/refs.ts';
import { defaultRecord, projectOfBody } from '../../crud/service.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { validationError } from '../../server/errors.ts';
import { caseIncident, caseTable } from '../case/table.ts';
import { visibleCaseIds, visibleCases } from '../case/visibility.ts';
import { logIncidentEvent } from '../event/service.ts';
import { recomputeResponseCost } from '../incident_cost/response-cost.ts';
import { incidentCost } from '../incident_cost/table.ts';
import { incidentPriorityGroup } from '../incident_priority/group.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { participant } from '../participant/table.ts';
import { addParticipant, inactivateParticipants, participantEmail, reactivateParticipants, renounceRole } from '../participant/service.ts';
import type { ParticipantRole } from '../participant/schema.ts';
import { resolveRole } from '../incident_role/service.ts';
import { tag } from '../tag/table.ts';
import { term } from '../term/table.ts';
import { readIncidents } from './reader.ts';
import {
  checkExclusiveTags,
  personEmail,
  planCosts,
  planTags,
  resolveAssessment,
  resolveDuplicates,
  resolveTerms,
  writeTagPlan,
  type PersonRef,
} from './refs.ts';
import type { IncidentCreate, IncidentStatus, IncidentUpdate } from './schema.ts';
import { incident, incidentDuplicate, incidentTag, incidentTerm } from './table.ts';
import { assertCanEdit, type IncidentRow } from './visibility.ts';

type CreateBody = Static<typeof IncidentCreate>;
type UpdateBody = Static<typeof IncidentUpdate>;
type Values = Partial<typeof incident.$inferInsert>;

export const DEFAULT_RESOLUTION = 'Description of the actions taken to resolve the incident.';

/** Title and description must say something (Dispatch's validators). */
function checkText(body: { title: string; description: string }) {
  const items = (['title', 'description'] as const)
    .filter((f) => body[f].trim() === '')
    .map((f) => ({ loc: ['body', f], msg: 'must not be empty string', type: 'value_error', ctx: { msg: 'must not be empty string' } }));
  if (items.length) throw validationError(items);
}

async function readOne(tx: Executor, id: number) {
  const [item] = await readIncidents(tx, [id], true);
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
 * new one takes it (joining if needed). Nothing happens when it is the same person.
 */
async function assignRole(tx: Executor, ctx: Ctx, row: IncidentRow, role: 'Incident Commander' | 'Reporter', email: string): Promise<Values> {
  const [idColumn, locationColumn] = COLUMN_OF[role];
  const current = row[idColumn];
  const currentEmail = await participantEmail(tx, current);
  if (currentEmail && currentEmail.toLowerCase() === email.toLowerCase()) return {};
  if (current !== null) await renounceRole(tx, ctx, row.id, current, role);
  const id = await addParticipant(tx, ctx, row.id, email, role);
  return { [idColumn]: id, [locationColumn]: await participantLocation(tx, id) };
}

// ---- status ------------------------------------------------------------------------------------

/**
 * What a status change sets and does (§6.4): entering Stable stamps `stable_at` (and lowers the
 * priority to the project's default unless `keepPriority`); Closed stamps `closed_at` (passing through
 * Stable first when coming from Active) and removes the participants; leaving Closed brings them back.
 * Closed -> Active keeps both stamps.
 */
async function transition(tx: Executor, ctx: Ctx, row: IncidentRow, to: IncidentStatus, now: Date, keepPriority: boolean): Promise<Values> {
  const from = row.status as IncidentStatus;
  const values: Values = { status: to };
  if (from === to) return {};
  if (from === 'Closed') await reactivateParticipants(tx, ctx, row.id, now);
  if (to === 'Stable' || (to === 'Closed' && from === 'Active')) {
    values.stable_at = now;
    if (to === 'Stable' && !keepPriority) {
      const fallback = await defaultRecord(tx, incidentPriorityGroup, row.project_id);
      if (fallback && fallback.id !== row.incident_priority_id) values.incident_priority_id = fallback.id;
    }
  }
  if (to === 'Closed') {
    values.closed_at = now;
    await inactivateParticipants(tx, ctx, row.id, now);
  }
  await logIncidentEvent(tx, ctx, row.id, {
    description: `Incident status changed from ${from} to ${to}`,
    type: 'Assessment updated',
    details: { field: 'status', previous: from, current: to },
    at: now,
  });
  return values;
}

// ---- create ------------------------------------------------------------------------------------

export async function createIncident(ctx: Ctx, body: CreateBody) {
  checkText(body);
  return ctx.db.transaction(async (tx) => {
    // Everything the body names, resolved before the first write.
    const proj = await projectOfBody(tx, ctx, body.project as RefValue);
    const assessment = await resolveAssessment(tx, ctx, proj.id, body as never);
    const [type] = await tx.select({ visibility: incidentType.visibility }).from(incidentType).where(eq(incidentType.id, assessment.typeId));
    const reporterEmail = (await personEmail(tx, ctx, body.reporter as PersonRef, 'reporter', proj.id)) ?? ctx.user.email;
    const commanderEmail = await personEmail(tx, ctx, body.commander as PersonRef, 'commander', proj.id);
    const tagPlan = await planTags(tx, ctx, body.tags as never, proj.id);

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
    const values: Values = { name: `${ctx.settings.namePrefix}-${ctx.organization.slug}-${proj.slug}-${row.id}` };
    const reporterId = await addParticipant(tx, ctx, row.id, reporterEmail, 'Reporter');
    const commanderId = await addParticipant(
      tx,
      ctx,
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
      if (email) await addParticipant(tx, ctx, row.id, email, role);
    }
    // Created Stable or Closed: stamped at the time it was reported.
    if (status !== 'Active') Object.assign(values, await transition(tx, ctx, { ...row, ...values } as IncidentRow, status, now, true));
    await tx.update(incident).set(values).where(eq(incident.id, row.id));
    await recomputeResponseCost(tx, row.id, now);
    return readOne(tx, row.id);
  });
}

// ---- update ------------------------------------------------------------------------------------

async function namesOf(tx: Executor, table: typeof incidentType | typeof incidentPriority | typeof incidentSeverity, ids: number[]) {
  const rows = await tx.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function linkedIds(
  tx: Executor,
  table: typeof incidentTag | typeof incidentTerm | typeof incidentDuplicate,
  other: string,
  incidentId: number,
): Promise<number[]> {
  const t = table as unknown as Record<string, never>;
  const rows = await tx.select({ id: t[other] }).from(table).where(eq(t.incident_id, incidentId));
  return (rows.map((r) => r.id) as number[]).sort((a, b) => a - b);
}

async function replaceLinks(
  tx: Executor,
  table: typeof incidentTag | typeof incidentTerm | typeof incidentDuplicate,
  other: string,
  incidentId: number,
  ids: number[],
) {
  const t = table as unknown as Record<string, never>;
  await tx.delete(table).where(eq(t.incident_id, incidentId));
  if (ids.length) await tx.insert(table).values(ids.map((id) => ({ incident_id: incidentId, [other]: id })) as never);
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);
const show = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? 'none' : String(v));
const iso = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

export async function updateIncident(ctx: Ctx, id: number, body: UpdateBody) {
  return ctx.db.transaction(async (tx) => {
    await assertCanEdit(ctx, id, tx);
    checkText(body);
    const [row] = await tx.select().from(incident).where(eq(incident.id, id)).for('update');
    const projectId = row.project_id;

    // Resolve and check everything before writing.
    const assessment = await resolveAssessment(tx, ctx, projectId, body as never);
    const commanderEmail = await personEmail(tx, ctx, body.commander as PersonRef, 'commander', projectId);
    const reporterEmail = await personEmail(tx, ctx, body.reporter as PersonRef, 'reporter', projectId);
    const tagPlan = await planTags(tx, ctx, body.tags as never, projectId);
    const duplicates = await resolveDuplicates(tx, ctx, body.duplicates as never, id);
    const cases = await visibleCaseIds(tx, ctx, body.cases as never, 'cases');
    const costPlan = await planCosts(tx, ctx, body.incident_costs as never, id, projectId);
    const now = new Date();

    // Plain fields: copied when present; status and visibility kept when omitted.
    const changes: Values = {};
    const events: { label: string; field: string; type: 'Field updated' | 'Assessment updated'; previous: unknown; current: unknown }[] = [];
    const scalar = <K extends 'title' | 'description' | 'resolution' | 'visibility' | 'reported_at' | 'stable_at'>(
      field: K,
      value: Values[K] | undefined,
      label = field.replace('_', ' '),
    ) => {
      if (value === undefined) return;
      const previous = row[field];
      const same = previous instanceof Date && value instanceof Date ? previous.getTime() === value.getTime() : previous === value;
      if (same) return;
      (changes as Record<string, unknown>)[field] = value;
      events.push({ label, field, type: 'Field updated', previous, current: value });
    };
    scalar('title', body.title);
    scalar('description', body.description);
    scalar('resolution', body.resolution ?? undefined);
    scalar('visibility', body.visibility ?? undefined);
    scalar('reported_at', iso(body.reported_at ?? undefined) as Date | undefined);
    scalar('stable_at', iso(body.stable_at));

    const typeNames = await namesOf(tx, incidentType, [row.incident_type_id, assessment.typeId]);
    const priorityNames = await namesOf(tx, incidentPriority, [row.incident_priority_id, assessment.priorityId]);
    const severityNames = await namesOf(tx, incidentSeverity, [row.incident_severity_id, assessment.severityId]);
    const assess = (
      field: 'incident_type_id' | 'incident_priority_id' | 'incident_severity_id',
      value: number,
      names: Map<number, string>,
      label: string,
      type: 'Field updated' | 'Assessment updated',
    ) => {
      if (row[field] === value) return;
      changes[field] = value;
      events.push({ label, field: field.replace(/_id$/, ''), type, previous: names.get(row[field]), current: names.get(value) });
    };
    assess('incident_type_id', assessment.typeId, typeNames, 'type', 'Field updated');
    assess('incident_severity_id', assessment.severityId, severityNames, 'severity', 'Assessment updated');
    assess('incident_priority_id', assessment.priorityId, priorityNames, 'priority', 'Assessment updated');

    // Lists: replaced by the body's.
    const tagIds = await writeTagPlan(tx, ctx, tagPlan, projectId);
    await checkExclusiveTags(tx, tagIds);
    const termIds = await resolveTerms(tx, ctx, body.terms as never, projectId);
    for (const [field, table, other, ids, nameTable] of [
      ['tags', incidentTag, 'tag_id', tagIds, tag],
      ['terms', incidentTerm, 'term_id', termIds, term],
      ['duplicates', incidentDuplicate, 'duplicate_id', duplicates, incident],
    ] as const) {
      const before = await linkedIds(tx, table, other, id);
      if (sameSet(before, ids)) continue;
      await replaceLinks(tx, table, other, id, ids);
      const label = async (list: number[]) => {
        if (list.length === 0) return 'none';
        const n = nameTable as unknown as Record<string, never>;
        const rows = await tx
          .select({ name: field === 'terms' ? n.text : n.name })
          .from(nameTable)
          .where(inArray(n.id, list));
        return rows.map((r) => r.name).join(', ');
      };
      events.push({ label: field, field, type: 'Field updated', previous: await label(before), current: await label(ids) });
    }
    // Cases: those the caller may see are replaced; links to cases hidden from them stay.
    const linkedCases = (await tx.select({ id: caseIncident.case_id }).from(caseIncident).where(eq(caseIncident.incident_id, id))).map((r) => r.id);
    const seenCases = linkedCases.length
      ? (
          await tx
            .select({ id: caseTable.id })
            .from(caseTable)
            .where(and(inArray(caseTable.id, linkedCases), visibleCases(ctx)))
        ).map((r) => r.id)
      : [];
    if (!sameSet(seenCases, cases)) {
      await tx.delete(caseIncident).where(and(eq(caseIncident.incident_id, id), seenCases.length ? inArray(caseIncident.case_id, seenCases) : undefined));
      if (cases.length)
        await tx
          .insert(caseIncident)
          .values(cases.map((case_id) => ({ case_id, incident_id: id })))
          .onConflictDoNothing();
      events.push({ label: 'cases', field: 'cases', type: 'Field updated', previous: seenCases.length, current: cases.length });
    }
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
      events.push({
        label: 'costs',
        field: 'incident_costs',
        type: 'Field updated',
        previous: costsBefore.length,
        current: costPlan.keep.length + costPlan.create.length,
      });

    // People, then the status (which may remove or bring back everyone).
    const current = { ...row, ...changes } as IncidentRow;
    if (commanderEmail) Object.assign(changes, await assignRole(tx, ctx, current, 'Incident Commander', commanderEmail));
    if (reporterEmail) Object.assign(changes, await assignRole(tx, ctx, { ...current, ...changes } as IncidentRow, 'Reporter', reporterEmail));
    if (body.status && body.status !== row.status) {
      const keepPriority = assessment.priorityId !== row.incident_priority_id;
      const moved = await transition(tx, ctx, { ...row, ...changes } as IncidentRow, body.status, now, keepPriority);
      // A stamp sent with the transition gives way to the transition's own.
      Object.assign(changes, moved);
      if (moved.stable_at) events.splice(0, events.length, ...events.filter((e) => e.field !== 'stable_at'));
      if (moved.incident_priority_id !== undefined) {
        const names = await namesOf(tx, incidentPriority, [row.incident_priority_id, moved.incident_priority_id]);
        events.push({
          label: 'priority',
          field: 'incident_priority',
          type: 'Assessment updated',
          previous: names.get(row.incident_priority_id),
          current: names.get(moved.incident_priority_id),
        });
      }
    }

    for (const e of events) {
      await logIncidentEvent(tx, ctx, id, {
        description: `Incident ${e.label} changed from ${show(e.previous)} to ${show(e.current)}`,
        type: e.type,
        details: { field: e.field, previous: show(e.previous), current: show(e.current) },
      });
    }
    await tx
      .update(incident)
      .set({ ...changes, updated_at: now })
      .where(eq(incident.id, id));
    await recomputeResponseCost(tx, id, now);
    return readOne(tx, id);
  });
}
