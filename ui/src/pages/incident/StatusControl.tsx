// The incident's status as three buttons (Active, Stable, Closed), the current one pressed. Pressing
// another opens "post update" on it, which says what the change does (Stable's priority, Closed's
// resolution and open tasks) before it is made. `s` on the page focuses the current one.
import { Button, Group, Text } from '@mantine/core';
import { forwardRef } from 'react';
import { type Incident, STATUSES, type Status } from './types.ts';

const COLOR = { Active: 'red', Stable: 'yellow', Closed: 'green' } as const;
// Filled yellow and green need dark text for contrast (WCAG AA); red carries white.
const TEXT = { Active: undefined, Stable: 'black', Closed: 'black' } as const;

export const StatusControl = forwardRef<HTMLButtonElement, { incident: Incident; choose: (status: Status) => void }>(function StatusControl(
  { incident, choose },
  currentRef,
) {
  return (
    <Group gap="xs" role="group" aria-labelledby="incident-status-label">
      <Text id="incident-status-label" fw={600} size="sm">
        Status
      </Text>
      {STATUSES.map((status) => {
        const current = incident.status === status;
        return (
          <Button
            key={status}
            ref={current ? currentRef : undefined}
            size="xs"
            color={COLOR[status]}
            c={current ? TEXT[status] : undefined}
            variant={current ? 'filled' : 'default'}
            aria-pressed={current}
            onClick={() => !current && choose(status)}
          >
            {status}
          </Button>
        );
      })}
    </Group>
  );
});
