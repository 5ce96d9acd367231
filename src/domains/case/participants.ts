// Participants of a case: people (individual contacts of the case's project, found or created by
// email) holding the Assignee, Reporter or Participant role. Every change writes its timeline event
// in the caller's transaction.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { runStatement } from '../../db/statements.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { logCaseEvent, type EventInput } from '../event/service.ts';
import { individualContact } from '../individual/table.ts';
import type { ParticipantRole } from '../participant/schema.ts';
import { activeRoles, contactName, findOrCreateIndividual, nameFromEmail } from '../participant/service.ts';
import { participant, participantRole } from '../participant/table.ts';

export type CaseRole = Extract<ParticipantRole, 'Assignee' | 'Reporter' | 'Participant' | 'Observer'>;

/** How the timeline words someone joining a case, and someone there taking one more role. */
const joinedWith = (name: string, role: CaseRole) => `${name} added to case with ${role} role`;
const assumed = (name: string, role: CaseRole) => `${name} has assumed the ${role} role`;

/** The case's participant whose contact has this email, if any. */
async function caseParticipantByEmail(tx: Executor, caseId: number, email: string) {
  const [row] = await tx
    .select({ id: participant.id, active: participant.active })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(and(eq(participant.case_id, caseId), sql`lower(${individualContact.email}) = lower(${email})`))
    .orderBy(participant.id)
    .limit(1);
  return row;
}

/**
 * Adds the person with this email to the case with `role` and returns the participant's id. Someone
 * already there keeps their record (reactivated if needed) and gains the role unless they hold it.
 */
export async function addCaseParticipant(
  tx: Executor,
  ctx: Ctx,
  caseId: number,
  projectId: number,
  email: string,
  role: CaseRole,
  at = new Date(),
): Promise<number> {
  const individual = await findOrCreateIndividual(tx, ctx, projectId, email);
  const name = individual.name || nameFromEmail(individual.email);
  const existing = await caseParticipantByEmail(tx, caseId, individual.email);
  if (existing) {
    if (!existing.active) await tx.update(participant).set({ active: true }).where(eq(participant.id, existing.id));
    if (!(await activeRoles(tx, existing.id)).includes(role)) {
      await tx.insert(participantRole).values({ participant_id: existing.id, role, assumed_at: at });
      await logCaseEvent(tx, ctx, caseId, { description: assumed(name, role), type: 'Participant updated', at });
    }
    return existing.id;
  }
  const [created] = await tx
    .insert(participant)
    .values({
      organization_id: ctx.organization.id,
      case_id: caseId,
      individual_contact_id: individual.id,
      team: individual.email.split('@')[1] ?? null,
      location: 'Unknown',
    })
    .onConflictDoNothing()
    .returning({ id: participant.id });
  // Added by another request meanwhile: the role goes to theirs.
  if (!created) return addCaseParticipant(tx, ctx, caseId, projectId, email, role, at);
  await tx.insert(participantRole).values({ participant_id: created.id, role, assumed_at: at });
  await logCaseEvent(tx, ctx, caseId, { description: joinedWith(name, role), type: 'Participant updated', at });
  return created.id;
}

/** A person joining a new case, and the roles they take, in order. */
export interface Newcomer {
  email: string;
  roles: CaseRole[];
}

/**
 * The first participants of cases just created (so none has any yet), several cases at once: each
 * person's contact found or created once per project, then every participant and role in one
 * statement. Returns, per case, the participant id of each email given (lower case), and the
 * timeline events to write, worded as addCaseParticipant words them (the caller writes them with
 * its own, in one statement).
 */
export async function addFirstCaseParticipants(
  tx: Executor,
  ctx: Ctx,
  cases: { caseId: number; projectId: number; people: Newcomer[] }[],
  at: Date,
): Promise<{ ids: Map<number, Map<string, number>>; events: (EventInput & { record: { case_id: number } })[] }> {
  type Contact = Awaited<ReturnType<typeof findOrCreateIndividual>>;
  const contacts = new Map<string, Contact>();
  for (const c of cases) {
    for (const person of c.people) {
      const key = `${c.projectId}\u0000${person.email.toLowerCase()}`;
      if (!contacts.has(key)) contacts.set(key, await findOrCreateIndividual(tx, ctx, c.projectId, person.email));
    }
  }
  // One participant per person and case, holding every role given to them.
  const joining = cases.flatMap((c) => {
    const byContact = new Map<number, { caseId: number; contact: Contact; emails: string[]; roles: CaseRole[] }>();
    for (const person of c.people) {
      const contact = contacts.get(`${c.projectId}\u0000${person.email.toLowerCase()}`)!;
      let entry = byContact.get(contact.id);
      if (!entry) byContact.set(contact.id, (entry = { caseId: c.caseId, contact, emails: [], roles: [] }));
      entry.emails.push(person.email.toLowerCase());
      for (const role of person.roles) if (!entry.roles.includes(role)) entry.roles.push(role);
    }
    return [...byContact.values()];
  });
  const ids = new Map<number, Map<string, number>>(cases.map((c) => [c.caseId, new Map()]));
  const events: (EventInput & { record: { case_id: number } })[] = [];
  if (joining.length === 0) return { ids, events };
  const rows = JSON.stringify(
    joining.map((j) => ({ case_id: j.caseId, individual_contact_id: j.contact.id, team: j.contact.email.split('@')[1] ?? null, roles: j.roles })),
  );
  const list = await runStatement<{ id: number; case_id: number; individual_contact_id: number }>(
    tx,
    sql`
    WITH x AS (
      SELECT * FROM json_to_recordset(${rows}::json) AS x(case_id int, individual_contact_id int, team text, roles json)
    ),
    p AS (
      INSERT INTO ${participant} (organization_id, case_id, individual_contact_id, team, location)
      SELECT ${ctx.organization.id}, case_id, individual_contact_id, team, 'Unknown' FROM x
      RETURNING id, case_id, individual_contact_id
    ),
    r AS (
      INSERT INTO ${participantRole} (participant_id, role, assumed_at)
      SELECT p.id, role.value, ${at} FROM p JOIN x ON x.case_id = p.case_id AND x.individual_contact_id = p.individual_contact_id
      CROSS JOIN LATERAL json_array_elements_text(x.roles) WITH ORDINALITY AS role(value, n) ORDER BY p.id, role.n
    )
    SELECT id, case_id, individual_contact_id FROM p`,
  );
  const idOf = new Map(list.map((r) => [`${r.case_id}:${r.individual_contact_id}`, r.id]));
  for (const j of joining) {
    const id = idOf.get(`${j.caseId}:${j.contact.id}`)!;
    for (const email of j.emails) ids.get(j.caseId)!.set(email, id);
    const name = j.contact.name || nameFromEmail(j.contact.email);
    for (const [i, role] of j.roles.entries()) {
      const description = i === 0 ? joinedWith(name, role) : assumed(name, role);
      events.push({ record: { case_id: j.caseId }, description, type: 'Participant updated', at });
    }
  }
  return { ids, events };
}

/** Ends the participant's tenure of `role`, if they hold it. */
export async function renounceCaseRole(tx: Executor, ctx: Ctx, caseId: number, participantId: number, role: CaseRole, at = new Date()): Promise<void> {
  const ended = await tx
    .update(participantRole)
    .set({ renounced_at: at })
    .where(and(eq(participantRole.participant_id, participantId), eq(participantRole.role, role), isNull(participantRole.renounced_at)))
    .returning({ id: participantRole.id });
  if (ended.length)
    await logCaseEvent(tx, ctx, caseId, {
      description: `${await contactName(tx, participantId)} has renounced the ${role} role`,
      type: 'Participant updated',
      at,
    });
}

/** The case's people and the roles they hold now: what escalation copies into the incident. */
export async function caseParticipants(tx: Executor, caseId: number): Promise<{ email: string; roles: string[] }[]> {
  const rows = await tx
    .select({ id: participant.id, email: individualContact.email })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(and(eq(participant.case_id, caseId), eq(participant.active, true)))
    .orderBy(participant.id);
  const out = [];
  for (const r of rows) out.push({ email: r.email, roles: await activeRoles(tx, r.id) });
  return out;
}

/** Every active participant removed (the case closes): their roles end at `at`, the records stay. */
export async function inactivateCaseParticipants(tx: Executor, ctx: Ctx, caseId: number, at: Date): Promise<void> {
  const rows = await tx
    .update(participant)
    .set({ active: false })
    .where(and(eq(participant.case_id, caseId), eq(participant.active, true)))
    .returning({ id: participant.id });
  for (const { id } of rows) {
    await tx
      .update(participantRole)
      .set({ renounced_at: at })
      .where(and(eq(participantRole.participant_id, id), isNull(participantRole.renounced_at)));
    await logCaseEvent(tx, ctx, caseId, { description: `${await contactName(tx, id)} removed from case`, type: 'Participant updated', at });
  }
}

/** Every inactive participant brought back (the case reopens), with the roles they held when it closed. */
export async function reactivateCaseParticipants(tx: Executor, ctx: Ctx, caseId: number, at: Date): Promise<void> {
  const rows = await tx
    .update(participant)
    .set({ active: true })
    .where(and(eq(participant.case_id, caseId), eq(participant.active, false)))
    .returning({ id: participant.id });
  for (const { id } of rows) {
    // The roles renounced last: closing ends them all at one instant.
    const roles = await tx
      .select({ role: participantRole.role })
      .from(participantRole)
      .where(
        and(
          eq(participantRole.participant_id, id),
          sql`${participantRole.renounced_at} = (SELECT max(renounced_at) FROM ${participantRole} WHERE participant_id = ${id})`,
        ),
      );
    for (const role of new Set(roles.map((r) => r.role))) await tx.insert(participantRole).values({ participant_id: id, role, assumed_at: at });
    await logCaseEvent(tx, ctx, caseId, { description: `${await contactName(tx, id)} has been reactivated`, type: 'Participant updated', at });
  }
}
