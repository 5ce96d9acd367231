// Cases as the lifecycle kit sees them; their list is what saved search filters are matched against.
import type { RecordKind } from '../lifecycle/kind.ts';
import { recordList } from '../lifecycle/list.ts';
import { caseTable } from '../lifecycle/table.ts';
import { CASE_LIST } from './list.ts';

const kind: RecordKind<typeof caseTable> = { name: 'case', ownerColumn: 'case_id', table: caseTable };

/** What `filter` and `sortBy[]` reach from a case. */
export const caseList = recordList(kind, CASE_LIST);

export const CASE: RecordKind<typeof caseTable> = { ...kind, list: caseList };
