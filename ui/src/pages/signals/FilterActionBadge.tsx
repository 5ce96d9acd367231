// What the filters did to an instance, in a word.
import { Badge } from '@mantine/core';

export function FilterActionBadge({ action }: { action: string | null | undefined }) {
  if (!action) return <span>-</span>;
  return (
    <Badge miw="max-content" color={action === 'snooze' ? 'pink.9' : 'violet.9'} variant="filled">
      {action === 'snooze' ? 'snoozed' : 'deduplicated'}
    </Badge>
  );
}
