// One incident, at /{org}/incidents/{name} (the link Muster writes into chat and mail; an id works
// too). It opens on the overview (the war room); the other sections are tabs kept in the URL
// (`?tab=timeline`), so every view is a link. The record is read again every 5 s (answered 304 while
// unchanged), so others' changes show without a reload; a save that meets someone else's keeps both
// (SaveNotices). Keys: `u` posts an update, `s` focuses the status, `t` a new task, `a` a note,
// `p` adds a person, `l` opens the timeline (listed under `?`).
import { INCIDENT, useRecordId } from '../../api/by-name.ts';
import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useRecord } from '../../api/list.ts';
import { useOrganization } from '../../api/session.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { InlineText } from '../../components/InlineEdit.tsx';
import { SaveNotices } from '../../components/SaveNotice.tsx';
import { useNow } from '../../components/Time.tsx';
import { usePageCommands } from '../../lib/commands.ts';
import { useShortcuts } from '../../lib/shortcuts.ts';
import { Assessment } from './Assessment.tsx';
import { CostsSection, TagsSection } from './CostsTagsSection.tsx';
import { PeopleSection } from './PeopleSection.tsx';
import { RelatedSection } from './RelatedSection.tsx';
import { ReportsSection } from './ReportsSection.tsx';
import { useIncidentUpdate } from './mutations.ts';
import { OverviewSection } from './OverviewSection.tsx';
import { PostUpdate } from './PostUpdate.tsx';
import { StatusControl } from './StatusControl.tsx';
import { TasksSection } from './TasksSection.tsx';
import { TimelineSection } from './TimelineSection.tsx';
import { type Incident, STATUSES, type Status } from './types.ts';
import { IncidentFilesSection } from '../files/FilesSection.tsx';
import { shortLabel } from '../../lib/short-label.ts';

type Section = (props: { organization: string; incident: Incident }) => React.ReactNode;

const TABS: [string, string, Section][] = [
  ['overview', 'Overview', OverviewSection],
  ['people', 'People', PeopleSection],
  ['timeline', 'Timeline', TimelineSection],
  ['tasks', 'Tasks', TasksSection],
  ['reports', 'Reports', ReportsSection],
  ['costs', 'Costs', CostsSection],
  ['tags', 'Tags', TagsSection],
  ['related', 'Documents, cases, workflows', RelatedSection],
  ['files', 'Files and meeting', IncidentFilesSection],
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
  return (
    <SaveNotices thing="incident">
      <IncidentView organization={organization} incident={record.data} refreshError={record.error} />
    </SaveNotices>
  );
}

function IncidentView({ organization, incident, refreshError }: { organization: string; incident: Incident; refreshError: unknown }) {
  const [params, setParams] = useSearchParams();
  const tab = TABS.some(([key]) => key === params.get('tab')) ? params.get('tab')! : 'overview';
  const status = useRef<HTMLButtonElement>(null);
  const now = useNow();
  const update = useIncidentUpdate(organization, incident);
  // The "post update" dialog, open on the status it starts from.
  const [posting, setPosting] = useState<Status | null>(null);
  const postUpdate = (to: Status = incident.status as Status) => setPosting(to);
  const openTab = (key: string | null) => {
    if (!key) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (key === 'overview') next.delete('tab');
        else next.set('tab', key);
        return next;
      },
      { replace: true },
    );
  };
  // The form whose first field takes the focus once its tab has rendered.
  const [focusForm, setFocusForm] = useState<string | null>(null);
  useEffect(() => {
    if (!focusForm) return;
    const field = document.querySelector<HTMLInputElement>(`form[aria-label="${focusForm}"] input`);
    if (!field) return;
    field.focus();
    setFocusForm(null);
  });
  /** Opens `tab` and puts the focus in the first field of its form named `form`. */
  const focusIn = (tab: string, form: string) => () => {
    openTab(tab);
    setFocusForm(form);
  };
  const addNote = focusIn('overview', 'Add a note');
  const addTask = focusIn('overview', 'Add a task');
  const addPerson = focusIn('people', 'Add a participant');
  useShortcuts({
    s: () => status.current?.focus(),
    u: () => postUpdate(),
    t: addTask,
    a: addNote,
    p: addPerson,
    l: () => openTab('timeline'),
  });
  usePageCommands([
    { label: 'Post update', run: () => postUpdate() },
    ...STATUSES.filter((s) => s !== incident.status).map((s) => ({ label: `Set status: ${s}`, run: () => postUpdate(s) })),
    { label: 'Add note', run: addNote },
    { label: 'New task', run: addTask },
    { label: 'Add person', run: addPerson },
    { label: 'Open the timeline', run: () => openTab('timeline') },
  ]);

  return (
    <Stack>
      <Stack gap={6}>
        {/* The short label people say on a call, beside the name the API and links use. */}
        <Text size="sm" ff="monospace">
          {shortLabel('INC', incident)} · {incident.name}
        </Text>
        <InlineText
          label="Title"
          value={incident.title}
          required
          begin={() => {
            const base = incident;
            return (title) => update.mutateAsync({ changes: { title }, base });
          }}
        >
          <Title order={1}>{incident.title}</Title>
        </InlineText>
        <Assessment incident={incident} now={now} />
      </Stack>
      <Group gap="md">
        <StatusControl ref={status} incident={incident} choose={postUpdate} />
        <Button size="xs" variant="light" onClick={() => postUpdate()}>
          Post update
        </Button>
      </Group>
      {posting ? <PostUpdate organization={organization} incident={incident} status={posting} onClose={() => setPosting(null)} /> : null}
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
