import { eq } from 'drizzle-orm';
import type { JobEnv } from '../../jobs/definition.ts';
import type { Ctx } from '../../server/context.ts';
import { organization } from '../organization/table.ts';

/** Who a write's background job acts for: its organization and the user who made the write. */
export interface EffectsContext {
  organization_id: number;
  user: { id: number; email: string };
}

/** The context a job acts in: the organization of the write, on behalf of the user who made it. */
export async function jobContext(env: JobEnv, data: EffectsContext): Promise<Ctx | undefined> {
  const [org] = await env.db.select({ id: organization.id, slug: organization.slug }).from(organization).where(eq(organization.id, data.organization_id));
  if (!org) return undefined;
  return { db: env.db, settings: env.settings, user: data.user, organization: org, role: 'Owner' };
}
