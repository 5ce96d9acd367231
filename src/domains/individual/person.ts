// A person named in a body (a commander, a reporter, an assignee): by email, or by the id of one of
// the project's contacts.
import { eq } from 'drizzle-orm';
import { resolveRef } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { individualTarget } from './group.ts';
import { individualContact } from './table.ts';

export interface PersonRef {
  individual?: { id?: number | null; email?: string | null; [k: string]: unknown } | null;
  [k: string]: unknown;
}

/** The email of a person named in a body (commander, reporter): their contact's email, or the contact named by id. */
export async function personEmail(tx: Executor, ctx: Ctx, value: PersonRef | null | undefined, field: string, projectId: number): Promise<string | undefined> {
  const individual = value?.individual;
  if (!individual) return undefined;
  if (typeof individual.email === 'string' && individual.email) return individual.email;
  if (typeof individual.id !== 'number') return undefined;
  const id = await resolveRef(tx, individualTarget, { id: individual.id }, [field, 'individual'], ctx.organization.id, projectId);
  const [row] = await tx.select({ email: individualContact.email }).from(individualContact).where(eq(individualContact.id, id!));
  return row.email;
}
