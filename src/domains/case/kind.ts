// Cases as the lifecycle kit sees them; their list is what saved search filters are matched against.
import { CASE_ROWS, type RecordKind } from '../lifecycle/kind.ts';
import { recordList } from '../lifecycle/list.ts';
import type { caseTable } from '../lifecycle/table.ts';
import { CASE_LIST } from './list.ts';

/** What `filter` and `sortBy[]` reach from a case. */
export const caseList = recordList(CASE_ROWS, CASE_LIST);

export const CASE: RecordKind<typeof caseTable> = { ...CASE_ROWS, list: caseList };
