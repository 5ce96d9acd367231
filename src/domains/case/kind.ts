// Cases as the lifecycle kit sees them.
import type { RecordKind } from '../lifecycle/kind.ts';
import { caseTable } from '../lifecycle/table.ts';

export const CASE: RecordKind<typeof caseTable> = { name: 'case', ownerColumn: 'case_id', table: caseTable };
