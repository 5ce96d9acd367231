// Periodic tasks run once per project of every organization (BEHAVIOR §13): this walks them, in a
// stable order, stopping between projects when the scheduler stops, and logging a failure per
// project without giving up on the others.
import { asc, eq } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { organization } from '../organization/table.ts';
import { project } from './table.ts';

export interface ProjectScope {
  /** The organization's context, acting as Muster itself. */
  ctx: Ctx;
  project: { id: number; name: string; slug: string };
}

export interface EachProjectOptions {
  db: Executor;
  settings: Settings;
  signal?: AbortSignal;
  log: { error(obj: object, msg?: string): void };
  /** The task, for the log. */
  task: string;
}

/** The identity periodic tasks act as: timeline events name Muster, not a user. */
export const SYSTEM_USER = { id: 0, email: 'muster@localhost' };

/**
 * Runs `fn` for every project of every organization. A project that fails is logged and the
 * others still run; then it throws, naming how many failed, so the run is recorded as failed.
 */
export async function eachProject(opts: EachProjectOptions, fn: (scope: ProjectScope) => Promise<void>): Promise<number> {
  const rows = await opts.db
    .select({ orgId: organization.id, orgSlug: organization.slug, id: project.id, name: project.name, slug: project.slug })
    .from(project)
    .innerJoin(organization, eq(organization.id, project.organization_id))
    .orderBy(asc(organization.id), asc(project.id));
  let done = 0;
  let failed = 0;
  for (const r of rows) {
    if (opts.signal?.aborted) break;
    const ctx: Ctx = { db: opts.db, settings: opts.settings, user: SYSTEM_USER, organization: { id: r.orgId, slug: r.orgSlug }, role: 'Owner' };
    try {
      await fn({ ctx, project: { id: r.id, name: r.name, slug: r.slug } });
      done++;
    } catch (err) {
      failed++;
      opts.log.error({ task: opts.task, organization: r.orgSlug, project: r.name, err: (err as Error).message }, 'scheduled task failed for a project');
    }
  }
  if (failed) throw new Error(`${opts.task} failed for ${failed} of ${rows.length} project(s); the log names them`);
  return done;
}
