// Beyond 0.1.0, for triage: a case a signal opened marked a false positive in one request, with the
// reason required, and optionally the other open cases the same signal opened closed with it (an
// alert that fires again and again opens one case each time). Each case is closed as a PUT of the
// case would close it (its timeline, its effects), all in one transaction; the similar cases the
// caller may not edit are left as they are.
import { type Static, Type } from '@sinclair/typebox';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { ApiError } from '../../server/errors.ts';
import { Defaulted, Id, Nullable } from '../../server/shapes.ts';
import { caseTable } from '../lifecycle/table.ts';
import { signalInstance } from '../signal/table.ts';
import { updateCase } from './flows.ts';
import { getCaseResponse } from './service.ts';
import { assertCanEditCase } from './visibility.ts';

export const CaseFalsePositive = Type.Object(
  {
    /** Why it is a false positive: kept as the case's resolution. */
    reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }),
    /** Also close the other open cases opened by the same signal. */
    similar: Defaulted(Type.Boolean({ default: false })),
  },
  { title: 'CaseFalsePositive', additionalProperties: false },
);

export const CaseFalsePositiveResult = Type.Object(
  { closed: Type.Array(Type.Object({ id: Id(), name: Nullable(Type.String()) })) },
  { title: 'CaseFalsePositiveResult' },
);

/** Open cases (New, Triage, Stable) of the project that an instance of one of the case's signals opened, oldest first. */
async function similarOpenCases(tx: Executor, caseId: number): Promise<number[]> {
  const signals = tx.selectDistinct({ id: signalInstance.signal_id }).from(signalInstance).where(eq(signalInstance.case_id, caseId));
  const [own] = await tx.select({ project: caseTable.project_id }).from(caseTable).where(eq(caseTable.id, caseId));
  const rows = await tx
    .selectDistinct({ id: caseTable.id })
    .from(caseTable)
    .innerJoin(signalInstance, eq(signalInstance.case_id, caseTable.id))
    .where(
      and(
        inArray(signalInstance.signal_id, signals),
        eq(caseTable.project_id, own.project),
        ne(caseTable.id, caseId),
        inArray(caseTable.status, ['New', 'Triage', 'Stable']),
      ),
    )
    .orderBy(caseTable.id);
  return rows.map((r) => r.id);
}

export async function markFalsePositive(ctx: Ctx, caseId: number, body: Static<typeof CaseFalsePositive>): Promise<Static<typeof CaseFalsePositiveResult>> {
  return ctx.db.transaction(async (tx) => {
    const scoped = { ...ctx, db: tx };
    const others = body.similar ? await similarOpenCases(tx, caseId) : [];
    const closed: Static<typeof CaseFalsePositiveResult>['closed'] = [];
    for (const id of [caseId, ...others]) {
      if (id !== caseId) {
        const editable = await assertCanEditCase(scoped, id, tx).then(
          () => true,
          (err) => (err instanceof ApiError ? false : Promise.reject(err)),
        );
        if (!editable) continue;
      }
      // The case as it is, closed: a PUT of the whole record keeps its links and people.
      const current = await getCaseResponse(scoped, id);
      const read = await updateCase(scoped, id, { ...current, status: 'Closed', resolution_reason: 'False Positive', resolution: body.reason.trim() } as never);
      closed.push({ id: read.id, name: read.name ?? null });
    }
    return { closed };
  });
}
