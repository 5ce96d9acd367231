// What the timeline's lists share: an entry's contents (a report's fields, a task's words) beneath
// its line, and a run of the system's own entries folded into "N system events", opened on demand.
import { Button, Group, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { contentOf } from './timeline.ts';
import type { TimelineEvent } from './types.ts';

export function EntryContent({ event }: { event: Pick<TimelineEvent, 'description' | 'details'> }) {
  const lines = contentOf(event);
  if (!lines.length) return null;
  return (
    <Stack gap={0} mt={2} pl="sm" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
      {lines.map(([label, text]) => (
        <Text key={label} size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          <Text span fw={600} size="sm">
            {label}:
          </Text>{' '}
          {text}
        </Text>
      ))}
    </Stack>
  );
}

/** `events` folded into one line; "Show" lists each as `entry` draws it. */
export function SystemRun<E extends { uuid: string }>({ events, entry }: { events: E[]; entry: (e: E) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <Group gap="xs">
        <Text size="sm">{events.length} system events</Text>
        <Button size="compact-xs" variant="default" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'}
        </Button>
      </Group>
      {open ? (
        <Stack component="ol" gap={6} mt={4} p={0} aria-label={`${events.length} system events`} style={{ listStyle: 'none' }}>
          {events.map(entry)}
        </Stack>
      ) : null}
    </li>
  );
}
