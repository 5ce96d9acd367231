// Incident role policies: who takes a role (commander, liaison, scribe) in a project's new
// incidents. A PUT replaces a role's whole set; `resolveRole` picks the policy for an incident.
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import { groupReader, type ReadDef } from '../../crud/reader.ts';
import { resolveRef, resolveRefs, type RefTarget, type RefValue } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { UNRESTRICTED } from '../../server/viewer.ts';
import { invalid } from '../../server/errors.ts';
import { individualGroup, individualTarget } from '../individual/group.ts';
import { individualContact } from '../individual/table.ts';
import { incidentPriorityGroup, incidentPriorityTarget } from '../incident_priority/group.ts';
import { incidentTypeGroup, incidentTypeTarget } from '../incident_type/group.ts';
import type { ParticipantRole } from './roles.ts';
import { project } from '../project/table.ts';
import { serviceGroup, serviceTarget } from '../service/group.ts';
import { service } from '../service/table.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { IncidentRoleRead, type IncidentRoles, type IncidentRolesCreateUpdate } from './schema.ts';
import { incidentRolePolicy, incidentRolePolicyPriority, incidentRolePolicyTag, incidentRolePolicyType } from './table.ts';

const links = {
  tags: { table: incidentRolePolicyTag, ownerColumn: 'policy_id', otherColumn: 'tag_id', target: tagTarget, read: tagReader },
  incident_types: {
    table: incidentRolePolicyType,
    ownerColumn: 'policy_id',
    otherColumn: 'incident_type_id',
    target: incidentTypeTarget,
    read: () => groupReader(incidentTypeGroup),
  },
  incident_priorities: {
    table: incidentRolePolicyPriority,
    ownerColumn: 'policy_id',
    otherColumn: 'incident_priority_id',
    target: incidentPriorityTarget,
    read: () => groupReader(incidentPriorityGroup),
  },
};

const policyDef: ReadDef = {
  table: incidentRolePolicy,
  refs: {
    service: { column: 'service_id', target: serviceTarget, read: () => groupReader(serviceGroup) },
    individual: { column: 'individual_contact_id', target: individualTarget, read: () => groupReader(individualGroup) },
  },
  links,
};

/** The project named by `projectName`, in the caller's organization. */
async function projectNamed(db: Executor, ctx: Ctx, name: string): Promise<number> {
  const [row] = await db
    .select({ id: project.id })
    .from(project)
    .where(and(eq(project.organization_id, ctx.organization.id), eq(project.name, name)));
  if (!row) throw invalid(['name'], 'Project not found.', 'value_error.not_found');
  return row.id;
}

async function policyIds(db: Executor, projectId: number, role: ParticipantRole): Promise<number[]> {
  const rows = await db
    .select({ id: incidentRolePolicy.id })
    .from(incidentRolePolicy)
    .where(and(eq(incidentRolePolicy.project_id, projectId), eq(incidentRolePolicy.role, role)))
    .orderBy(asc(incidentRolePolicy.order), asc(incidentRolePolicy.id));
  return rows.map((r) => r.id);
}

async function readPolicies(db: Executor, projectId: number, role: ParticipantRole) {
  const ids = await policyIds(db, projectId, role);
  const byId = await groupReader(policyDef, IncidentRoleRead)(db, ids, UNRESTRICTED);
  return { policies: ids.map((id) => byId.get(id)!) } as unknown as Static<typeof IncidentRoles>;
}

export async function getRolePolicies(ctx: Ctx, role: ParticipantRole, projectName: string) {
  return readPolicies(ctx.db, await projectNamed(ctx.db, ctx, projectName), role);
}

/** A service is named by id, else by external id, else by name. */
async function resolveService(tx: Executor, value: RefValue, loc: (string | number)[], organizationId: number, projectId: number) {
  if (!value || typeof value.id === 'number') return resolveRef(tx, serviceTarget, value, loc, organizationId, projectId);
  const byExternal: RefTarget = { ...serviceTarget, nameColumn: typeof value.external_id === 'string' ? 'external_id' : 'name' };
  return resolveRef(tx, byExternal, value, loc, organizationId, projectId);
}

type Body = Static<typeof IncidentRolesCreateUpdate>;

/**
 * Replaces the role's policies in the project with the body's: items with `id` are updated, items
 * without are created, and the role's other policies are deleted. Everything is resolved before
 * anything is written.
 */
export async function replaceRolePolicies(ctx: Ctx, role: ParticipantRole, projectName: string, body: Body) {
  return ctx.db.transaction(async (tx) => {
    const projectId = await projectNamed(tx, ctx, projectName);
    const org = ctx.organization.id;
    const existing = new Set(await policyIds(tx, projectId, role));
    const resolved = [];
    for (const [i, item] of body.policies.entries()) {
      const loc = ['policies', i];
      if (item.id !== undefined && !existing.has(item.id)) throw invalid([...loc, 'id'], 'Role policy not found.', 'value_error.not_found');
      resolved.push({
        id: item.id,
        values: {
          ...(item.enabled !== undefined ? { enabled: item.enabled } : {}),
          ...(item.order !== undefined ? { order: item.order } : {}),
          ...(item.service !== undefined ? { service_id: await resolveService(tx, item.service, [...loc, 'service'], org, projectId) } : {}),
          ...(item.individual !== undefined
            ? { individual_contact_id: await resolveRef(tx, individualTarget, item.individual, [...loc, 'individual'], org, projectId) }
            : {}),
        },
        links: {
          tags: item.tags && (await resolveRefs(tx, tagTarget, item.tags, [...loc, 'tags'], org, projectId)),
          incident_types: item.incident_types && (await resolveRefs(tx, incidentTypeTarget, item.incident_types, [...loc, 'incident_types'], org, projectId)),
          incident_priorities:
            item.incident_priorities &&
            (await resolveRefs(tx, incidentPriorityTarget, item.incident_priorities, [...loc, 'incident_priorities'], org, projectId)),
        },
      });
    }
    const kept = resolved.map((r) => r.id).filter((id): id is number => id !== undefined);
    await tx
      .delete(incidentRolePolicy)
      .where(
        and(eq(incidentRolePolicy.project_id, projectId), eq(incidentRolePolicy.role, role), kept.length ? notInArray(incidentRolePolicy.id, kept) : undefined),
      );
    for (const item of resolved) {
      let id = item.id;
      if (id === undefined) {
        [{ id }] = await tx
          .insert(incidentRolePolicy)
          .values({ organization_id: org, project_id: projectId, role, ...item.values })
          .returning({ id: incidentRolePolicy.id });
      } else {
        await tx
          .update(incidentRolePolicy)
          .set({ ...item.values, updated_at: new Date() })
          .where(eq(incidentRolePolicy.id, id));
      }
      for (const [field, ids] of Object.entries(item.links)) {
        if (!ids) continue;
        const link = links[field as keyof typeof links];
        const table = link.table as unknown as Record<string, never>;
        await tx.delete(link.table).where(eq(table[link.ownerColumn], id));
        const unique = [...new Set(ids)];
        if (unique.length) await tx.insert(link.table).values(unique.map((other) => ({ [link.ownerColumn]: id, [link.otherColumn]: other })));
      }
    }
    return readPolicies(tx, projectId, role);
  });
}

export interface IncidentFacts {
  projectId: number;
  priorityId: number;
  typeId: number;
  tagIds: number[];
}

/** The on-call service a policy names, as the on-call plugin is asked about it. */
export interface PolicyService {
  id: number;
  external_id: string;
  name: string;
}

/** What the policy chosen for a role gives: its individual's email, and its on-call service. */
export interface RoleResolution {
  email?: string;
  /** Present when the policy names an active service with an external id. */
  service?: PolicyService;
}

/**
 * The policy the project gives `role` in an incident, if any (§6.2): the enabled policies whose
 * priorities include the incident's priority and whose types include its type (an empty list
 * matches nothing), plus every enabled policy sharing a tag with the incident; of several, the
 * lowest `order`. Its service's on-call person, when an on-call plugin answers, takes the role
 * (in a job: effects/routing.ts); until then, and without one, its individual does.
 */
export async function resolveRolePolicy(tx: Executor, role: ParticipantRole, facts: IncidentFacts): Promise<RoleResolution | undefined> {
  const policies = await tx
    .select({
      id: incidentRolePolicy.id,
      order: incidentRolePolicy.order,
      email: individualContact.email,
      serviceId: service.id,
      externalId: service.external_id,
      serviceName: service.name,
      serviceActive: service.is_active,
    })
    .from(incidentRolePolicy)
    .leftJoin(individualContact, eq(individualContact.id, incidentRolePolicy.individual_contact_id))
    .leftJoin(service, eq(service.id, incidentRolePolicy.service_id))
    .where(and(eq(incidentRolePolicy.project_id, facts.projectId), eq(incidentRolePolicy.role, role), eq(incidentRolePolicy.enabled, true)));
  if (policies.length === 0) return undefined;
  const ids = policies.map((p) => p.id);
  const has = async (table: typeof incidentRolePolicyTag, column: string, values: number[]) => {
    if (values.length === 0) return new Set<number>();
    const t = table as unknown as Record<string, never>;
    const rows = await tx
      .selectDistinct({ id: t.policy_id })
      .from(table)
      .where(and(inArray(t.policy_id, ids), inArray(t[column], values)));
    return new Set(rows.map((r) => r.id as number));
  };
  const byPriority = await has(incidentRolePolicyPriority, 'incident_priority_id', [facts.priorityId]);
  const byType = await has(incidentRolePolicyType, 'incident_type_id', [facts.typeId]);
  const byTag = await has(incidentRolePolicyTag, 'tag_id', facts.tagIds);
  const [chosen] = policies.filter((p) => (byPriority.has(p.id) && byType.has(p.id)) || byTag.has(p.id)).sort((a, b) => a.order - b.order || a.id - b.id);
  if (!chosen) return undefined;
  const usable = chosen.serviceId !== null && chosen.serviceActive && chosen.externalId;
  return {
    ...(chosen.email ? { email: chosen.email } : {}),
    ...(usable ? { service: { id: chosen.serviceId!, external_id: chosen.externalId!, name: chosen.serviceName ?? chosen.externalId! } } : {}),
  };
}

/** The email of whoever the chosen policy names for `role` now (its individual), if anyone. */
export async function resolveRole(tx: Executor, role: ParticipantRole, facts: IncidentFacts): Promise<string | undefined> {
  return (await resolveRolePolicy(tx, role, facts))?.email;
}
