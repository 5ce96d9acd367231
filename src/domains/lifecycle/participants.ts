// The people of an incident or a case: individual contacts of the record's project (found or
// created by email) holding roles from `assumed_at` until `renounced_at`. One set of rules for both
// kinds: every change writes its timeline event in the caller's transaction, and a person who
// comes back (joining again, or the record reopening) gets back the roles they held when they left.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { type EventInput, type EventOwner, logEvent } from '../event/service.ts';
import { individualContact } from '../individual/table.ts';
import type { ParticipantRole } from '../incident_role/roles.ts';
import { ownerOf, type RecordKind, type RecordRows } from './kind.ts';
import { participant, participantRole } from './table.ts';

export type ParticipantRow = typeof participant.$inferSelect;

/** The name a contact created from an email starts with: its local part, capitalised. */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0];
  return local.charAt(0).toUpperCase() + local.slice(1).toLowerCase();
}

/** Where a participant works by default: their email's domain. */
const teamFromEmail = (email: string) => email.split('@')[1] ?? null;

/** How the timeline names a person: their contact's name, else their email. */
const displayName = (contact: { name: string | null; email: string }) => contact.name || contact.email;

/** How the timeline words someone joining, and someone there taking one more role. */
const joined = (kind: RecordKind, name: string, role: string) => `${name} added to ${kind.name} with ${role} role`;
const assumed = (name: string, role: string) => `${name} has assumed the ${role} role`;

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

/** The record's project (404 when the record is not the organization's). */
async function projectOf(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number): Promise<number> {
  const [row] = await tx
    .select({ project_id: kind.table.project_id })
    .from(kind.table)
    .where(and(eq(kind.table.id, recordId), eq(kind.table.organization_id, ctx.organization.id)));
  if (!row) throw errors.notFound(kind.name === 'incident' ? 'An incident' : 'A case');
  return row.project_id;
}

/** The record's participant whose contact has this email, if any. */
export async function participantByEmail(tx: Executor, kind: RecordRows, recordId: number, email: string): Promise<ParticipantRow | undefined> {
  const [row] = await tx
    .select({ p: participant })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(and(eq(participant[kind.ownerColumn], recordId), sql`lower(${individualContact.email}) = lower(${email})`))
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
  return row ? displayName(row) : 'Someone';
}

/** The e-mails of the record's active participants, in the order they joined. */
export async function activeParticipantEmails(db: Executor, kind: RecordRows, id: number): Promise<string[]> {
  const rows = await db
    .select({ email: individualContact.email })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(and(eq(participant[kind.ownerColumn], id), eq(participant.active, true)))
    .orderBy(participant.id);
  return rows.map((r) => r.email);
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

async function assumeRole(tx: Executor, participantId: number, role: string, at: Date) {
  await tx.insert(participantRole).values({ participant_id: participantId, role, assumed_at: at });
}

const log = (tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number, description: string, at: Date) =>
  logEvent(tx, ctx, ownerOf(kind, recordId), { description, type: 'Participant updated', at });

export interface JoinOptions {
  /** Why they were added (`added_reason`). */
  reason?: string | null;
  at?: Date;
}

/**
 * Adds the person with this email to the record with `role`, and returns the participant's id.
 * Someone already there keeps their record: an inactive one comes back with the roles they held
 * when they left, and the role is added unless they hold it (an Observer role is not added to
 * someone holding any role).
 */
export async function addParticipant(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  recordId: number,
  email: string,
  role: ParticipantRole,
  { reason = null, at = new Date() }: JoinOptions = {},
): Promise<number> {
  const individual = await findOrCreateIndividual(tx, ctx, await projectOf(tx, ctx, kind, recordId), email);
  const name = displayName(individual);
  const existing = await participantByEmail(tx, kind, recordId, individual.email);
  if (existing) {
    if (!existing.active) await reactivateParticipant(tx, ctx, kind, recordId, existing.id, at);
    const held = await activeRoles(tx, existing.id);
    if (!held.includes(role) && !(role === 'Observer' && held.length > 0)) {
      await assumeRole(tx, existing.id, role, at);
      await log(tx, ctx, kind, recordId, assumed(name, role), at);
    }
    await kind.peopleChanged?.(tx, recordId);
    return existing.id;
  }
  const [created] = await tx
    .insert(participant)
    .values({
      organization_id: ctx.organization.id,
      [kind.ownerColumn]: recordId,
      individual_contact_id: individual.id,
      team: teamFromEmail(individual.email),
      location: 'Unknown',
      added_reason: reason,
    })
    .onConflictDoNothing()
    .returning({ id: participant.id });
  // Added by another request meanwhile: theirs is the participant, and the role goes to it.
  if (!created) return addParticipant(tx, ctx, kind, recordId, email, role, { reason, at });
  await assumeRole(tx, created.id, role, at);
  await log(tx, ctx, kind, recordId, joined(kind, name, role), at);
  await kind.peopleChanged?.(tx, recordId);
  return created.id;
}

/** A person joining a new record, and the roles they take, in order. */
export interface Newcomer {
  email: string;
  roles: ParticipantRole[];
}

/**
 * The first participants of records just created (so none has any yet), several records at once:
 * each person's contact found or created (by email, any case, in the record's project) with every
 * participant and role, in one statement. Returns, per record, the participant id of each email
 * given (lower case), and the timeline events to write, worded as addParticipant words them (the
 * caller writes them with its own, in one statement).
 */
export async function addFirstParticipants(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  records: { recordId: number; projectId: number; people: Newcomer[] }[],
  at: Date,
): Promise<{ ids: Map<number, Map<string, number>>; events: (EventInput & { record: EventOwner })[] }> {
  // One participant per person and record (their email in any case), holding every role given to them.
  const joining = records.flatMap((r) => {
    const byEmail = new Map<string, { recordId: number; projectId: number; email: string; emails: string[]; roles: ParticipantRole[] }>();
    for (const person of r.people) {
      const key = person.email.toLowerCase();
      let entry = byEmail.get(key);
      if (!entry) byEmail.set(key, (entry = { recordId: r.recordId, projectId: r.projectId, email: person.email, emails: [], roles: [] }));
      entry.emails.push(key);
      for (const role of person.roles) if (!entry.roles.includes(role)) entry.roles.push(role);
    }
    return [...byEmail.values()];
  });
  const ids = new Map<number, Map<string, number>>(records.map((r) => [r.recordId, new Map()]));
  const events: (EventInput & { record: EventOwner })[] = [];
  const made = new Map<string, Joined>();
  const keyOf = (recordId: number, email: string) => `${recordId}\u0000${email.toLowerCase()}`;
  for (let pending = joining; pending.length > 0; ) {
    const rows = await insertFirstParticipants(tx, ctx, kind, pending, at);
    for (const row of rows) made.set(keyOf(row.record_id, row.key), row);
    const left = pending.filter((j) => !made.has(keyOf(j.recordId, j.email)));
    // A contact another transaction created while the statement ran (it waited for that one to
    // commit, and its snapshot cannot see it): the next statement's can. Twice would be a fault.
    if (left.length === pending.length) throw new Error('participants could not be added: their contacts are neither found nor created');
    pending = left;
  }
  for (const j of joining) {
    const row = made.get(keyOf(j.recordId, j.email))!;
    for (const email of j.emails) ids.get(j.recordId)!.set(email, row.id);
    const name = displayName(row);
    for (const [i, role] of j.roles.entries()) {
      const description = i === 0 ? joined(kind, name, role) : assumed(name, role);
      events.push({ record: ownerOf(kind, j.recordId), description, type: 'Participant updated', at });
    }
  }
  return { ids, events };
}

/** A participant added by insertFirstParticipants, with its contact's name and email (lower case: `key`). */
interface Joined {
  id: number;
  record_id: number;
  key: string;
  name: string | null;
  email: string;
}

/**
 * The statement of addFirstParticipants: the contacts found as findOrCreateIndividual finds them
 * (the first by id whose email matches in any case) or created as it creates them, then the
 * participants and their roles. Those whose contact a concurrent transaction created meanwhile are
 * left out (ON CONFLICT skips the row it waited for).
 */
async function insertFirstParticipants(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  joining: { recordId: number; projectId: number; email: string; roles: ParticipantRole[] }[],
  at: Date,
): Promise<Joined[]> {
  const rows = JSON.stringify(
    joining.map((j, n) => ({ n, record_id: j.recordId, project_id: j.projectId, email: j.email, name: nameFromEmail(j.email), roles: j.roles })),
  );
  const owner = participant[kind.ownerColumn];
  const c = individualContact;
  return runStatement<Joined>(
    tx,
    sql`
    WITH x AS (
      SELECT x.*, lower(x.email) AS key FROM json_to_recordset(${rows}::json) AS x(n int, record_id int, project_id int, email text, name text, roles json)
    ),
    found AS (
      SELECT DISTINCT ON (x.project_id, x.key) x.project_id, x.key, ${c.id} AS id, ${c.email} AS email, ${c.name} AS name
      FROM x JOIN ${c} ON ${c.project_id} = x.project_id AND lower(${c.email}) = x.key
      ORDER BY x.project_id, x.key, ${c.id}
    ),
    made AS (
      INSERT INTO ${c} (organization_id, project_id, email, name)
      SELECT ${ctx.organization.id}::int, project_id, email, name FROM (
        SELECT DISTINCT ON (x.project_id, x.key) x.* FROM x
        WHERE NOT EXISTS (SELECT 1 FROM found f WHERE f.project_id = x.project_id AND f.key = x.key)
        ORDER BY x.project_id, x.key, x.n
      ) first ORDER BY n
      ON CONFLICT DO NOTHING
      RETURNING project_id, lower(email) AS key, id, email, name
    ),
    contact AS (SELECT * FROM found UNION ALL SELECT * FROM made),
    j AS (
      SELECT x.n, x.record_id, x.roles, k.id AS contact_id, k.key, k.email, k.name FROM x JOIN contact k ON k.project_id = x.project_id AND k.key = x.key
    ),
    p AS (
      INSERT INTO ${participant} (organization_id, ${sql.identifier(kind.ownerColumn)}, individual_contact_id, team, location)
      SELECT ${ctx.organization.id}, record_id, contact_id, CASE WHEN strpos(email, '@') > 0 THEN split_part(email, '@', 2) END, 'Unknown' FROM j ORDER BY n
      RETURNING id, ${owner} AS record_id, individual_contact_id
    ),
    r AS (
      INSERT INTO ${participantRole} (participant_id, role, assumed_at)
      SELECT p.id, role.value, ${at} FROM p JOIN j ON j.record_id = p.record_id AND j.contact_id = p.individual_contact_id
      CROSS JOIN LATERAL json_array_elements_text(j.roles) WITH ORDINALITY AS role(value, n) ORDER BY p.id, role.n
    )
    SELECT p.id, p.record_id, j.key, j.name, j.email FROM p JOIN j ON j.record_id = p.record_id AND j.contact_id = p.individual_contact_id`,
  );
}

/** Ends the participant's tenure of `role`, if they hold it. */
export async function renounceRole(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  recordId: number,
  participantId: number,
  role: ParticipantRole,
  at = new Date(),
): Promise<void> {
  const ended = await tx
    .update(participantRole)
    .set({ renounced_at: at })
    .where(and(eq(participantRole.participant_id, participantId), eq(participantRole.role, role), isNull(participantRole.renounced_at)))
    .returning({ id: participantRole.id });
  if (ended.length === 0) return;
  await log(tx, ctx, kind, recordId, `${await contactName(tx, participantId)} has renounced the ${role} role`, at);
  await kind.peopleChanged?.(tx, recordId);
}

/** Removes a participant: their roles end at `at` and the record stays, inactive. */
async function removeOne(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number, participantId: number, at: Date): Promise<void> {
  await tx
    .update(participantRole)
    .set({ renounced_at: at })
    .where(and(eq(participantRole.participant_id, participantId), isNull(participantRole.renounced_at)));
  await tx.update(participant).set({ active: false }).where(eq(participant.id, participantId));
  await log(tx, ctx, kind, recordId, `${await contactName(tx, participantId)} removed from ${kind.name}`, at);
}

/** Brings an inactive participant back with the roles they held when they were removed. */
async function returnOne(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number, participantId: number, at: Date): Promise<void> {
  // The roles renounced last: removal ends them all at one instant.
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
  await log(tx, ctx, kind, recordId, `${await contactName(tx, participantId)} has been reactivated`, at);
}

/** Removes one participant from the record. */
export async function inactivateParticipant(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number, participantId: number, at = new Date()): Promise<void> {
  await removeOne(tx, ctx, kind, recordId, participantId, at);
  await kind.peopleChanged?.(tx, recordId);
}

/** Brings one participant back. */
export async function reactivateParticipant(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number, participantId: number, at = new Date()): Promise<void> {
  await returnOne(tx, ctx, kind, recordId, participantId, at);
  await kind.peopleChanged?.(tx, recordId);
}

async function participantIds(tx: Executor, kind: RecordKind, recordId: number, active: boolean): Promise<number[]> {
  const rows = await tx
    .select({ id: participant.id })
    .from(participant)
    .where(and(eq(participant[kind.ownerColumn], recordId), eq(participant.active, active)))
    .orderBy(participant.id);
  return rows.map((r) => r.id);
}

/** Every active participant removed (the record closes). */
export async function inactivateParticipants(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number, at = new Date()): Promise<void> {
  const ids = await participantIds(tx, kind, recordId, true);
  for (const id of ids) await removeOne(tx, ctx, kind, recordId, id, at);
  if (ids.length) await kind.peopleChanged?.(tx, recordId);
}

/** Every inactive participant brought back (the record reopens). */
export async function reactivateParticipants(tx: Executor, ctx: Ctx, kind: RecordKind, recordId: number, at = new Date()): Promise<void> {
  const ids = await participantIds(tx, kind, recordId, false);
  for (const id of ids) await returnOne(tx, ctx, kind, recordId, id, at);
  if (ids.length) await kind.peopleChanged?.(tx, recordId);
}

/** The record's active people and the roles they hold now (what escalation copies into the incident). */
export async function currentPeople(tx: Executor, kind: RecordKind, recordId: number): Promise<{ email: string; roles: string[] }[]> {
  const rows = await tx
    .select({ id: participant.id, email: individualContact.email })
    .from(participant)
    .innerJoin(individualContact, eq(individualContact.id, participant.individual_contact_id))
    .where(and(eq(participant[kind.ownerColumn], recordId), eq(participant.active, true)))
    .orderBy(participant.id);
  const out = [];
  for (const r of rows) out.push({ email: r.email, roles: await activeRoles(tx, r.id) });
  return out;
}
