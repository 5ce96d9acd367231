// One incident, at /{org}/incidents/{name} (the link Muster writes into chat and mail; an id works
// too). Its sections are tabs kept in the URL (`?tab=timeline`), so every view is a link. The record
// is read again every 5 s (answered 304 while unchanged), so others' changes show without a reload.
// Keys: `s` focuses the status, `t` opens the timeline.
import { INCIDENT, useRecordId } from '../../api/by-name.ts';
import { Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useRef } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useRecord } from '../../api/list.ts';
import { useOrganization } from '../../api/session.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { useShortcuts } from '../../lib/shortcuts.ts';
import { CostsSection, TagsSection } from './CostsTagsSection.tsx';
import { PeopleSection } from './PeopleSection.tsx';
import { RelatedSection } from './RelatedSection.tsx';
import { ReportsSection } from './ReportsSection.tsx';
import { StatusControl } from './StatusControl.tsx';
import { SummarySection } from './SummarySection.tsx';
import { TasksSection } from './TasksSection.tsx';
import { TimelineSection } from './TimelineSection.tsx';
import type { Incident } from './types.ts';

type Section = (props: { organization: string; incident: Incident }) => React.ReactNode;

const TABS: [string, string, Section][] = [
  ['summary', 'Summary', SummarySection],
  ['people', 'People', PeopleSection],
  ['timeline', 'Timeline', TimelineSection],
  ['tasks', 'Tasks', TasksSection],
  ['reports', 'Reports', ReportsSection],
  ['costs', 'Costs', CostsSection],
  ['tags', 'Tags', TagsSection],
  ['related', 'Documents, cases, workflows', RelatedSection],
];

export default function IncidentPage() {
  const organization = useOrganization();
  const name = useParams().name ?? '';
  const id = useRecordId(organization, INCIDENT, name);
  const record = useRecord<Incident>(organization, id.data === undefined ? null : `/incidents/${id.data}`);

  if (id.error || (record.error && !record.data)) {
    return (
      <Stack>
        <Title order={1}>Incident {name}</Title>
        <ErrorAlert error={id.error ?? record.error} title="This incident could not be shown" />
      </Stack>
    );
  }
  if (!record.data) return <Loading label="Loading the incident" />;
  return <IncidentView organization={organization} incident={record.data} refreshError={record.error} />;
}

function IncidentView({ organization, incident, refreshError }: { organization: string; incident: Incident; refreshError: unknown }) {
  const [params, setParams] = useSearchParams();
  const tab = TABS.some(([key]) => key === params.get('tab')) ? params.get('tab')! : 'summary';
  const status = useRef<HTMLButtonElement>(null);
  const openTab = (key: string | null) => {
    if (!key) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (key === 'summary') next.delete('tab');
        else next.set('tab', key);
        return next;
      },
      { replace: true },
    );
  };
  useShortcuts({
    s: () => status.current?.focus(),
    t: () => openTab('timeline'),
  });

  return (
    <Stack>
      <Stack gap={4}>
        <Text size="sm" ff="monospace">
          {incident.name}
        </Text>
        <Title order={1}>{incident.title}</Title>
        <Group gap="xs">
          <Badge variant="light" color="gray" c="var(--mantine-color-text)">
            Priority: {incident.incident_priority.name}
          </Badge>
          <Badge variant="light" color="gray" c="var(--mantine-color-text)">
            Severity: {incident.incident_severity.name}
          </Badge>
          <Badge variant="light" color="gray" c="var(--mantine-color-text)">
            {incident.incident_type.name}
          </Badge>
          <Badge variant="light" color="gray" c="var(--mantine-color-text)">
            {incident.visibility}
          </Badge>
        </Group>
      </Stack>
      <StatusControl ref={status} organization={organization} incident={incident} />
      {refreshError ? <ErrorAlert error={refreshError} title="Live updates paused: the incident could not be read again" /> : null}
      <Tabs value={tab} onChange={openTab} keepMounted={false}>
        <Tabs.List aria-label="Sections of the incident">
          {TABS.map(([key, label]) => (
            <Tabs.Tab key={key} value={key}>
              {label}
              {key === 'timeline' ? ` (${incident.events.length})` : ''}
              {key === 'tasks' ? ` (${incident.tasks.filter((t) => t.status === 'Open').length} open)` : ''}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map(([key, , Section]) => (
          <Tabs.Panel key={key} value={key} pt="md">
            <Section organization={organization} incident={incident} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
