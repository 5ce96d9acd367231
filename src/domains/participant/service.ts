// Participants of an incident: people (individual contacts of the incident's project, found or
// created by email) holding roles from `assumed_at` until `renounced_at`. Every change writes its
// timeline event and refreshes the incident's participant summary, in the caller's transaction.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { logIncidentEvent } from '../event/service.ts';
import { recomputeResponseCost } from '../incident_cost/response-cost.ts';
import { incident } from '../incident/table.ts';
import { individualContact } from '../individual/table.ts';
import type { ParticipantRole } from './schema.ts';
import { participant, participantRole } from './table.ts';

export type ParticipantRow = typeof participant.$inferSelect;

/** The name a contact created from an email starts with: its local part, capitalised. */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0];
  return local.charAt(0).toUpperCase() + local.slice(1).toLowerCase();
}

/** Where a participant works by default: their email's domain. */
const teamFromEmail = (email: string) => email.split('@')[1] ?? null;

export interface Individual {
  id: number;
  email: string;
  name: string | null;
}

/** The project's contact with this email (any case), created if there is none. */
export async function findOrCreateIndividual(tx: Executor, ctx: Ctx, projectId: number, email: string): Promise<Individual> {
  const find = async () => {
    const [row] = await tx
      .select({ id: individualContact.id, email: individualContact.email, name: individualContact.name })
      .from(individualContact)
      .where(and(eq(individualContact.project_id, projectId), sql`lower(${individualContact.email}) = lower(${email})`))
      .orderBy(individualContact.id)
      .limit(1);
    return row;
  };
  const known = await find();
  if (known) return known;
  // Another request may create it meanwhile: then the unique index keeps one and we read that one.
  await tx
    .insert(individualContact)
    .values({ organization_id: ctx.organization.id, project_id: projectId, email, name: nameFromEmail(email) })
    .onConflictDoNothing();
  return (await find())!;
}

async function incidentProject(tx: Executor, ctx: Ctx, incidentId: number): Promise<number> {
  const [row] = await tx
    .select({ project_id: incident.project_id })
    .from(incident)
    .where(and(eq(incident.id, incidentId), eq(incident.organization_id, ctx.organization.id)));
  if (!row) throw errors.notFound('An incident');
  return row.project_id;
}

/** The incident's participant whose contact has this email, if any. */
export async function participantByEmail(tx: Executor, incidentId: number, email: string): Promise<ParticipantRow | undefined> {
  const [row] = await tx
    .select({ p: participant })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(and(eq(participant.incident_id, incidentId), sql`lower(${individualContact.email}) = lower(${email})`))
    .orderBy(participant.id)
    .limit(1);
  return row?.p;
}

/** The roles a participant holds now (not renounced). */
export async function activeRoles(tx: Executor, participantId: number): Promise<string[]> {
  const rows = await tx
    .select({ role: participantRole.role })
    .from(participantRole)
    .where(and(eq(participantRole.participant_id, participantId), isNull(participantRole.renounced_at)));
  return rows.map((r) => r.role);
}

/** The participant's contact's name, else email: how the timeline names them. */
export async function contactName(tx: Executor, participantId: number): Promise<string> {
  const [row] = await tx
    .select({ name: individualContact.name, email: individualContact.email })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(eq(participant.id, participantId));
  return row?.name || row?.email || 'Someone';
}

/** The email of a participant's contact. */
export async function participantEmail(tx: Executor, participantId: number | null): Promise<string | undefined> {
  if (participantId === null) return undefined;
  const [row] = await tx
    .select({ email: individualContact.email })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(eq(participant.id, participantId));
  return row?.email;
}

async function assumeRole(tx: Executor, participantId: number, role: string, at = new Date()) {
  await tx.insert(participantRole).values({ participant_id: participantId, role, assumed_at: at });
}

/**
 * Adds the person with this email to the incident with `role`, and returns the participant's id.
 * A participant already there keeps their record: an inactive one is reactivated, and the role is
 * added unless they hold it (an Observer role is not added to someone holding any role).
 */
export async function addParticipant(
  tx: Executor,
  ctx: Ctx,
  incidentId: number,
  email: string,
  role: ParticipantRole,
  reason?: string | null,
): Promise<number> {
  const projectId = await incidentProject(tx, ctx, incidentId);
  const individual = await findOrCreateIndividual(tx, ctx, projectId, email);
  const name = individual.name || individual.email;
  let existing = await participantByEmail(tx, incidentId, individual.email);
  if (existing && !existing.active) {
    await reactivateParticipant(tx, ctx, incidentId, existing.id);
    existing = { ...existing, active: true };
  }
  if (existing) {
    const held = await activeRoles(tx, existing.id);
    if (!held.includes(role) && !(role === 'Observer' && held.length > 0)) {
      await assumeRole(tx, existing.id, role);
      await logIncidentEvent(tx, ctx, incidentId, { description: `${name} has assumed the ${role} role`, type: 'Participant updated' });
    }
    await participantsChanged(tx, incidentId);
    return existing.id;
  }
  const [created] = await tx
    .insert(participant)
    .values({
      organization_id: ctx.organization.id,
      incident_id: incidentId,
      individual_contact_id: individual.id,
      team: teamFromEmail(individual.email),
      location: 'Unknown',
      added_reason: reason ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: participant.id });
  // Added by another request meanwhile: theirs is the participant, and the role goes to it.
  if (!created) return addParticipant(tx, ctx, incidentId, email, role, reason);
  await assumeRole(tx, created.id, role);
  await logIncidentEvent(tx, ctx, incidentId, { description: `${name} added to incident with ${role} role`, type: 'Participant updated' });
  await participantsChanged(tx, incidentId);
  return created.id;
}

/** Ends the participant's tenure of `role` (if they hold it). */
export async function renounceRole(tx: Executor, ctx: Ctx, incidentId: number, participantId: number, role: ParticipantRole): Promise<void> {
  const ended = await tx
    .update(participantRole)
    .set({ renounced_at: new Date() })
    .where(and(eq(participantRole.participant_id, participantId), eq(participantRole.role, role), isNull(participantRole.renounced_at)))
    .returning({ id: participantRole.id });
  if (ended.length === 0) return;
  await logIncidentEvent(tx, ctx, incidentId, {
    description: `${await contactName(tx, participantId)} has renounced the ${role} role`,
    type: 'Participant updated',
  });
  await participantsChanged(tx, incidentId);
}

/** Removes a participant from the incident: their roles end and the record stays, inactive. */
export async function inactivateParticipant(tx: Executor, ctx: Ctx, incidentId: number, participantId: number, at = new Date()): Promise<void> {
  await tx
    .update(participantRole)
    .set({ renounced_at: at })
    .where(and(eq(participantRole.participant_id, participantId), isNull(participantRole.renounced_at)));
  await tx.update(participant).set({ active: false }).where(eq(participant.id, participantId));
  await logIncidentEvent(tx, ctx, incidentId, { description: `${await contactName(tx, participantId)} removed from incident`, type: 'Participant updated' });
  await participantsChanged(tx, incidentId);
}

/** Brings an inactive participant back with the roles they held when they were removed. */
export async function reactivateParticipant(tx: Executor, ctx: Ctx, incidentId: number, participantId: number, at = new Date()): Promise<void> {
  // The roles renounced last: inactivation ends them all at one instant.
  const [last] = await tx
    .select({ at: participantRole.renounced_at })
    .from(participantRole)
    .where(eq(participantRole.participant_id, participantId))
    .orderBy(desc(participantRole.renounced_at))
    .limit(1);
  const roles = last?.at
    ? await tx
        .select({ role: participantRole.role })
        .from(participantRole)
        .where(and(eq(participantRole.participant_id, participantId), eq(participantRole.renounced_at, last.at)))
    : [];
  const held = new Set(await activeRoles(tx, participantId));
  for (const role of new Set(roles.map((r) => r.role))) if (!held.has(role)) await assumeRole(tx, participantId, role, at);
  await tx.update(participant).set({ active: true }).where(eq(participant.id, participantId));
  await logIncidentEvent(tx, ctx, incidentId, { description: `${await contactName(tx, participantId)} has been reactivated`, type: 'Participant updated' });
  await participantsChanged(tx, incidentId);
}

async function participantIds(tx: Executor, incidentId: number, active: boolean): Promise<number[]> {
  const rows = await tx
    .select({ id: participant.id })
    .from(participant)
    .where(and(eq(participant.incident_id, incidentId), eq(participant.active, active)))
    .orderBy(participant.id);
  return rows.map((r) => r.id);
}

/** Every active participant removed (the incident closes). */
export async function inactivateParticipants(tx: Executor, ctx: Ctx, incidentId: number, at = new Date()): Promise<void> {
  for (const id of await participantIds(tx, incidentId, true)) await inactivateParticipant(tx, ctx, incidentId, id, at);
}

/** Every inactive participant brought back (the incident reopens). */
export async function reactivateParticipants(tx: Executor, ctx: Ctx, incidentId: number, at = new Date()): Promise<void> {
  for (const id of await participantIds(tx, incidentId, false)) await reactivateParticipant(tx, ctx, incidentId, id, at);
}

/**
 * What follows any change of the participants: the incident's participants_team and
 * participants_location become the most common team and location among its participants, and its
 * response cost is recomputed.
 */
export async function participantsChanged(tx: Executor, incidentId: number): Promise<void> {
  const mostCommon = (col: PgColumn) =>
    sql<
      string | null
    >`(SELECT ${col} FROM ${participant} WHERE ${participant.incident_id} = ${incidentId} AND ${col} IS NOT NULL GROUP BY ${col} ORDER BY count(*) DESC, ${col} LIMIT 1)`;
  await tx
    .update(incident)
    .set({ participants_team: mostCommon(participant.team), participants_location: mostCommon(participant.location) })
    .where(eq(incident.id, incidentId));
  await recomputeResponseCost(tx, incidentId);
}
