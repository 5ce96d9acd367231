// Routing (BEHAVIOR §6.1, §6.2, §7.1, §16.3): the project's active individuals, teams and services
// whose search filters match an Open record that is not Closed, as the project's participant
// plugin resolves them. Individuals join in the write's transaction as Observers; teams are only
// named (Muster keeps no mail groups); a service's on-call person is asked for in a job
// (oncall.ts), as are the on-call people of role policies and case types, and pages.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { Routed, RoutingDirectory, Subject } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseType } from '../case_type/table.ts';
import { incidentTag } from '../incident/table.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import type { ParticipantRole } from '../incident_role/roles.ts';
import { resolveRolePolicy } from '../incident_role/service.ts';
import { individualContact, individualContactFilter } from '../individual/table.ts';
import { type ActiveInstance, activeInstance } from '../plugin/active.ts';
import { searchFilter } from '../search_filter/table.ts';
import { service, serviceFilter } from '../service/table.ts';
import { teamContact, teamContactFilter } from '../team/table.ts';
import type { RecordEvent } from '../lifecycle/events.ts';
import { matchFilters } from './filter-match.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { enqueueOncallPage, enqueueOncallResolve } from './oncall.ts';
import { addParticipant } from '../lifecycle/participants.ts';
import { subjectsOf } from '../lifecycle/subject.ts';
import { caseTable, incident, participant } from '../lifecycle/table.ts';

/** A contact, team or service of a project, with one of its filters. */
interface Candidate {
  source: 'individual' | 'team' | 'service';
  id: number;
  project_id: number;
  /** The email of a contact or team, the external id of a service. */
  address: string;
  name: string | null;
  type: string | null;
  filter_id: number;
  expression: unknown;
}

/** Routing applies to Open records that are not Closed. */
const routable = (r: { visibility: string; status: string }) => r.visibility === 'Open' && r.status !== 'Closed';

/**
 * The active contacts, teams and services with filters of `kind`'s subject, in the projects of the
 * routable records among `ids`, each with each of its filters: one statement, whatever the number
 * of records (and for most projects, which route nobody, the only one).
 */
async function candidatesOf(tx: Executor, kind: RecordKind, ids: number[]): Promise<Candidate[]> {
  const t = kind.table;
  const projects = sql`SELECT DISTINCT ${t.project_id} FROM ${t} WHERE ${t.id} = ANY(${sql.param(ids)}::int[]) AND ${t.visibility} = 'Open' AND ${t.status} <> 'Closed'`;
  return runStatement<Candidate>(
    tx,
    sql`WITH c AS (
      SELECT 'individual' AS source, ${individualContact.id} AS id, ${individualContact.project_id} AS project_id, ${individualContact.email} AS address,
        ${individualContact.name} AS name, NULL::text AS type, ${individualContactFilter.search_filter_id} AS filter_id
      FROM ${individualContact} JOIN ${individualContactFilter} ON ${individualContactFilter.individual_contact_id} = ${individualContact.id}
      WHERE ${individualContact.is_active} AND ${individualContact.project_id} IN (${projects})
      UNION ALL
      SELECT 'team', ${teamContact.id}, ${teamContact.project_id}, ${teamContact.email}, ${teamContact.name}, NULL::text, ${teamContactFilter.search_filter_id}
      FROM ${teamContact} JOIN ${teamContactFilter} ON ${teamContactFilter.team_contact_id} = ${teamContact.id}
      WHERE ${teamContact.is_active} AND ${teamContact.project_id} IN (${projects})
      UNION ALL
      SELECT 'service', ${service.id}, ${service.project_id}, ${service.external_id}, ${service.name}, ${service.type}, ${serviceFilter.search_filter_id}
      FROM ${service} JOIN ${serviceFilter} ON ${serviceFilter.service_id} = ${service.id}
      WHERE ${service.is_active} AND ${service.external_id} IS NOT NULL AND ${service.project_id} IN (${projects})
    )
    SELECT c.*, ${searchFilter.expression} AS expression FROM c JOIN ${searchFilter} ON ${searchFilter.id} = c.filter_id AND ${searchFilter.subject} = ${kind.name}
    ORDER BY c.source, c.id, c.filter_id`,
  );
}

/** The contacts among `candidates` of the subject's project that some matching filter names, once each. */
function matchingOf(candidates: Candidate[], matched: Map<number, Set<number>>, subject: Subject): Routed {
  const out: Routed = { individuals: [], teams: [], services: [] };
  const seen = new Set<string>();
  for (const c of candidates) {
    if (c.project_id !== subject.project.id || !matched.get(c.filter_id)?.has(subject.id)) continue;
    if (seen.has(`${c.source}:${c.id}`)) continue;
    seen.add(`${c.source}:${c.id}`);
    if (c.source === 'individual') out.individuals.push({ id: c.id, email: c.address });
    else if (c.source === 'team') out.teams.push({ id: c.id, email: c.address });
    else out.services.push({ id: c.id, external_id: c.address, type: c.type ?? '' });
  }
  return out;
}

/**
 * Who the participant plugin of each routable record's project routes into it, by record id.
 * Records of projects without an enabled participant plugin, or without contacts that have
 * filters, route nobody (and are absent).
 */
export async function routedFor(tx: Executor, ctx: Ctx, kind: RecordKind, ids: number[]): Promise<Map<number, Routed>> {
  const out = new Map<number, Routed>();
  if (ids.length === 0) return out;
  const candidates = await candidatesOf(tx, kind, ids);
  if (candidates.length === 0) return out;
  const resolvers = new Map<number, ActiveInstance<'participant'>>();
  for (const projectId of new Set(candidates.map((c) => c.project_id))) {
    const resolver = await activeInstance(tx, ctx.settings, projectId, 'participant');
    if (resolver) resolvers.set(projectId, resolver);
  }
  if (resolvers.size === 0) return out;
  const subjects = (await subjectsOf(tx, ctx.settings, kind, ids)).filter(
    (s) => routable(s) && resolvers.has(s.project.id) && s.organization.id === ctx.organization.id,
  );
  if (subjects.length === 0) return out;
  const matched = await matchFilters(
    tx,
    kind,
    subjects.map((s) => s.id),
    candidates.map((c) => ({ id: c.filter_id, expression: c.expression })),
  );
  const directory: RoutingDirectory = { matching: async (subject) => matchingOf(candidates, matched, subject) };
  for (const subject of subjects) {
    const resolver = resolvers.get(subject.project.id)!;
    out.set(subject.id, await resolver.plugin.resolve(subject, directory, resolver.config));
  }
  return out;
}

/**
 * Adds the individuals routed into the records (created or updated in the caller's transaction) as
 * Observers. Someone already a participant (or who was and left) is left as they are.
 */
export async function routeRecords(tx: Executor, ctx: Ctx, kind: RecordKind, ids: number[]): Promise<void> {
  const routed = await routedFor(tx, ctx, kind, ids);
  const joining = [...routed].filter(([, r]) => r.individuals.length > 0);
  if (joining.length === 0) return;
  const owner = participant[kind.ownerColumn];
  const present = await runStatement<{ record_id: number; email: string }>(
    tx,
    sql`SELECT ${owner} AS record_id, lower(${individualContact.email}) AS email FROM ${participant}
      JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id}
      WHERE ${owner} = ANY(${sql.param(joining.map(([id]) => id))}::int[])`,
  );
  const there = new Set(present.map((p) => `${p.record_id}:${p.email}`));
  for (const [recordId, r] of joining) {
    for (const person of r.individuals) {
      if (there.has(`${recordId}:${person.email.toLowerCase()}`)) continue;
      await addParticipant(tx, ctx, kind, recordId, person.email, 'Observer');
    }
  }
}

const sameEmail = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

const POLICY_ROLES: ParticipantRole[] = ['Incident Commander', 'Liaison', 'Scribe'];

/**
 * A new incident's role policies that name a service: its on-call person takes the role (the
 * commander only while the provisional one the create gave still holds it: the policy's
 * individual, else the reporter; someone named in the body stays), and the service is paged when
 * the commander came from it and the priority pages commanders.
 */
async function policyServices(tx: Executor, ctx: Ctx, kind: RecordKind, subject: Subject, key: string) {
  const [row] = await tx
    .select({
      projectId: incident.project_id,
      typeId: incident.incident_type_id,
      priorityId: incident.incident_priority_id,
      page: incidentPriority.page_commander,
    })
    .from(incident)
    .innerJoin(incidentPriority, eq(incidentPriority.id, incident.incident_priority_id))
    .where(eq(incident.id, subject.id));
  if (!row) return;
  const tags = await tx.select({ id: incidentTag.tag_id }).from(incidentTag).where(eq(incidentTag.incident_id, subject.id));
  const facts = { projectId: row.projectId, typeId: row.typeId, priorityId: row.priorityId, tagIds: tags.flatMap((t) => (t.id === null ? [] : [t.id])) };
  for (const role of POLICY_ROLES) {
    const policy = await resolveRolePolicy(tx, role, facts);
    if (!policy?.service) continue;
    const provisional = policy.email ?? (role === 'Incident Commander' ? subject.reporter : null);
    if (role === 'Incident Commander' && !sameEmail(subject.owner, provisional)) continue;
    await enqueueOncallResolve(tx, ctx, kind, subject.id, { service: policy.service, role, provisional }, `${key}:policy:${role}:${policy.service.id}`);
    if (role === 'Incident Commander' && row.page) await enqueueOncallPage(tx, ctx, kind, subject.id, policy.service, `${key}:page:${policy.service.id}`);
  }
}

/**
 * New cases whose type names an on-call service: its on-call person becomes the assignee when the
 * create named none (the caller holds it until then), and the service is paged when the priority
 * pages assignees. The services of all the cases are read in one statement.
 */
async function caseTypeServices(tx: Executor, ctx: Ctx, kind: RecordKind, subjects: Subject[], keyOf: (subject: Subject) => string) {
  if (subjects.length === 0) return;
  const rows = await tx
    .select({
      caseId: caseTable.id,
      id: service.id,
      externalId: service.external_id,
      name: service.name,
      active: service.is_active,
      page: casePriority.page_assignee,
    })
    .from(caseTable)
    .innerJoin(caseType, eq(caseType.id, caseTable.case_type_id))
    .innerJoin(service, eq(service.id, caseType.oncall_service_id))
    .innerJoin(casePriority, eq(casePriority.id, caseTable.case_priority_id))
    .where(
      inArray(
        caseTable.id,
        subjects.map((s) => s.id),
      ),
    );
  const byCase = new Map(rows.map((r) => [r.caseId, r]));
  for (const subject of subjects) {
    const row = byCase.get(subject.id);
    if (!row?.active || !row.externalId) continue;
    const key = keyOf(subject);
    const oncall = { id: row.id, external_id: row.externalId, name: row.name ?? row.externalId };
    if (sameEmail(subject.owner, ctx.user.email))
      await enqueueOncallResolve(tx, ctx, kind, subject.id, { service: oncall, role: 'Assignee', provisional: ctx.user.email }, `${key}:assignee:${row.id}`);
    if (row.page) await enqueueOncallPage(tx, ctx, kind, subject.id, oncall, `${key}:page:${row.id}`);
  }
}

/**
 * In a records' effects job: the on-call look-ups of the services routed into each (created, or
 * updated while open), and on create those of its role policies or case type, and their pages.
 * Each job is keyed by the effects job, the record and what it is for, so a retry enqueues none
 * twice. Who is routed is found for all the records at once.
 */
export async function routeServices(tx: Executor, ctx: Ctx, kind: RecordKind, subjects: Subject[], event: RecordEvent, jobId: string): Promise<void> {
  const open = subjects.filter((s) => s.status !== 'Closed');
  if (open.length === 0) return;
  const routed = await routedFor(
    tx,
    ctx,
    kind,
    open.map((s) => s.id),
  );
  const keyOf = (subject: Subject) => `${jobId}:${kind.name}:${subject.id}`;
  for (const subject of open) {
    for (const s of routed.get(subject.id)?.services ?? []) {
      const [row] = await tx.select({ name: service.name }).from(service).where(eq(service.id, s.id));
      const oncall = { id: s.id, external_id: s.external_id, name: row?.name ?? s.external_id };
      await enqueueOncallResolve(tx, ctx, kind, subject.id, { service: oncall, role: 'Observer', provisional: null }, `${keyOf(subject)}:routed:${s.id}`);
    }
    if (event.event === 'created' && kind.name === 'incident') await policyServices(tx, ctx, kind, subject, keyOf(subject));
  }
  if (event.event === 'created' && kind.name === 'case') await caseTypeServices(tx, ctx, kind, open, keyOf);
}
