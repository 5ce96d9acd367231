// The incident's status as three buttons (Active, Stable, Closed), the current one pressed; one
// press changes it (the API says who may). `s` on the page focuses the current one (IncidentPage).
import { Button, Group, Text } from '@mantine/core';
import { forwardRef } from 'react';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { useIncidentUpdate } from './mutations.ts';
import { type Incident, STATUSES } from './types.ts';

const COLOR = { Active: 'red', Stable: 'yellow', Closed: 'green' } as const;
// Filled yellow and green need dark text for contrast (WCAG AA); red carries white.
const TEXT = { Active: undefined, Stable: 'black', Closed: 'black' } as const;

export const StatusControl = forwardRef<HTMLButtonElement, { organization: string; incident: Incident }>(function StatusControl(
  { organization, incident },
  currentRef,
) {
  const update = useIncidentUpdate(organization, incident);
  const pending = update.isPending ? (update.variables?.status as string | undefined) : undefined;
  return (
    <div>
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
              loading={pending === status}
              onClick={() => !current && update.mutate({ status })}
            >
              {status}
            </Button>
          );
        })}
      </Group>
      <ErrorAlert error={update.error} title="The status was not changed" />
    </div>
  );
});
