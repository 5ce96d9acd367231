import { Badge } from '@mantine/core';
import type { CaseStatus } from './types.ts';

const COLOR: Record<CaseStatus, string> = { New: 'blue', Triage: 'yellow', Escalated: 'red', Stable: 'teal', Closed: 'gray' };

/** A case's status, coloured by stage (text darkened or lightened for contrast by autoContrast). */
export function StatusBadge({ status }: { status: CaseStatus | null | undefined }) {
  const s = status ?? 'New';
  return (
    <Badge color={COLOR[s]} variant="light" autoContrast>
      {s}
    </Badge>
  );
}
