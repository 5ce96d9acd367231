// The case's timeline, oldest first; each entry has its own URL (#event-<uuid>).
import { Anchor, Badge, Group, Text, Timeline } from '@mantine/core';
import { Time } from '../../components/Time.tsx';
import type { CaseEvent } from './types.ts';

export function CaseTimeline({ events }: { events: CaseEvent[] }) {
  if (!events.length) return <Text c="dimmed">Nothing has happened yet.</Text>;
  const sorted = [...events].sort((a, b) => a.started_at.localeCompare(b.started_at));
  return (
    <Timeline bulletSize={12} lineWidth={2}>
      {sorted.map((e) => (
        <Timeline.Item key={e.uuid} id={`event-${e.uuid}`}>
          <Text size="sm">{e.description}</Text>
          <Group gap="xs" mt={2}>
            <Anchor href={`#event-${e.uuid}`} size="xs" aria-label={`Link to this entry: ${e.description}`}>
              <Time value={e.started_at} />
            </Anchor>
            {e.type ? (
              <Badge size="xs" variant="outline" color="gray" autoContrast>
                {e.type}
              </Badge>
            ) : null}
            {e.owner ? <Text size="xs">{e.owner}</Text> : null}
          </Group>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
