// Joining and leaving an organization: a membership with its role and project memberships (the
// organization's default project when none are named), and its removal, which ends the person's
// access there at once (the caller query finds no role; their API tokens there stop working).
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Role } from '../../server/context.ts';
import { defaultProject } from '../project/service.ts';
import type { ProjectRow } from '../project/table.ts';
import { apiToken, userOrganization, userProject } from './table.ts';

export interface NewMembership {
  userId: number;
  organizationId: number;
  role: Role;
  /** The projects to join (default: the organization's default project). */
  projects?: { project: ProjectRow; default: boolean; role: string | null }[];
}

/** Adds the user to the organization; an account's first organization becomes its default one. */
export async function addMembership(tx: Executor, m: NewMembership) {
  const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(userOrganization).where(eq(userOrganization.user_id, m.userId));
  await tx.insert(userOrganization).values({ user_id: m.userId, organization_id: m.organizationId, role: m.role, default: n === 0 });
  const projects = m.projects?.length ? [...m.projects] : [];
  if (projects.length === 0) {
    const fallback = await defaultProject(tx, m.organizationId);
    if (fallback) projects.push({ project: fallback, default: true, role: 'Member' });
  }
  for (const p of projects) {
    await tx
      .insert(userProject)
      .values({ user_id: m.userId, project_id: p.project.id, organization_id: m.organizationId, default: p.default, role: p.role ?? 'Member' });
  }
}

/** Ends the user's membership of the organization: its role, its project memberships, its API tokens there. */
export async function removeMembership(tx: Executor, userId: number, organizationId: number) {
  await tx.delete(userProject).where(and(eq(userProject.user_id, userId), eq(userProject.organization_id, organizationId)));
  await tx.delete(userOrganization).where(and(eq(userOrganization.user_id, userId), eq(userOrganization.organization_id, organizationId)));
  await tx
    .update(apiToken)
    .set({ revoked_at: new Date() })
    .where(and(eq(apiToken.user_id, userId), eq(apiToken.organization_id, organizationId), sql`${apiToken.revoked_at} IS NULL`));
}
