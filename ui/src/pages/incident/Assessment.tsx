// The incident at a glance, beside its title: the status with how long it has held ("Active · 47 min")
// and the priority and severity in their configured colours.
import { Badge, Group } from '@mantine/core';
import { durationText, parseTime } from '../../components/Time.tsx';
import type { Incident } from './types.ts';

const STATUS_COLOR = { Active: 'red', Stable: 'yellow', Closed: 'green' } as const;

/** Since when the incident holds its status: reported, stable, closed. */
const since = (i: Incident) => (i.status === 'Closed' ? i.closed_at : i.status === 'Stable' ? i.stable_at : i.reported_at) ?? i.reported_at;

export const statusText = (i: Incident, now: number) => `${i.status} · ${durationText(now - parseTime(since(i)))}`;

/** A neutral badge with a dot of the configured colour: the text keeps its contrast whatever the colour. */
function Swatch({ colour, label, children }: { colour: string | null | undefined; label: string; children: React.ReactNode }) {
  return (
    <Badge
      size="lg"
      variant="light"
      color="gray"
      c="var(--mantine-color-text)"
      tt="none"
      title={label}
      leftSection={
        colour ? (
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              width: 10,
              height: 10,
              borderRadius: '50%',
              background: colour,
              border: '1px solid var(--mantine-color-default-border)',
            }}
          />
        ) : null
      }
    >
      {children}
    </Badge>
  );
}

export function Assessment({ incident, now }: { incident: Incident; now: number }) {
  return (
    <Group gap="xs">
      <Swatch colour={`var(--mantine-color-${STATUS_COLOR[incident.status as keyof typeof STATUS_COLOR] ?? 'gray'}-6)`} label="Status, and for how long">
        {statusText(incident, now)}
      </Swatch>
      <Swatch colour={incident.incident_priority.color} label="Priority">
        Priority {incident.incident_priority.name}
      </Swatch>
      <Swatch colour={incident.incident_severity.color} label="Severity">
        Severity {incident.incident_severity.name}
      </Swatch>
      <Swatch colour={null} label="Type">
        {incident.incident_type.name}
      </Swatch>
      <Swatch colour={null} label="Visibility">
        {incident.visibility}
      </Swatch>
    </Group>
  );
}
