// Cases as the lifecycle kit sees them: after any change of their people, their folder and group
// outside Muster let them in; their list is what saved search filters are matched against.
import type { Executor } from '../../db/connection.ts';
import { CASE_ROWS, type RecordKind } from '../lifecycle/kind.ts';
import { recordList } from '../lifecycle/list.ts';
import type { caseTable } from '../lifecycle/table.ts';
import { membershipsChanged } from '../plugin/memberships.ts';
import { CASE_LIST } from './list.ts';

/** What `filter` and `sortBy[]` reach from a case. */
export const caseList = recordList(CASE_ROWS, CASE_LIST);

export const CASE: RecordKind<typeof caseTable> = {
  ...CASE_ROWS,
  peopleChanged: (tx: Executor, caseId: number) => membershipsChanged(tx, 'case', caseId),
  list: caseList,
};
