import { Badge } from '@mantine/core';
import { durationText, parseTime } from '../../components/Time.tsx';
import type { CaseStatus } from './types.ts';

const COLOR: Record<CaseStatus, string> = { New: 'blue', Triage: 'yellow', Escalated: 'red', Stable: 'teal', Closed: 'gray' };

/**
 * A case's status, coloured by stage (text darkened or lightened for contrast by autoContrast); with
 * `since`, also how long it has held ("Triage · 12 min").
 */
export function StatusBadge({ status, since, now }: { status: CaseStatus | null | undefined; since?: string | null; now?: number }) {
  const s = status ?? 'New';
  return (
    <Badge color={COLOR[s]} variant="light" autoContrast tt={since ? 'none' : undefined} style={{ minWidth: 'max-content' }}>
      {s}
      {since && now ? ` · ${durationText(now - parseTime(since))}` : ''}
    </Badge>
  );
}
