// The incident as a war room: the latest update with its author and age, what happened in the last
// ten minutes with a one-line note box, the roles with "change", the open tasks with a one-line task
// box, and the incident's fields, each edited where it stands and saved on its own.
import { Anchor, Button, Grid, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { VISIBILITIES } from '../../../../src/app/ui-shapes.ts';
import { EmptyState, ErrorAlert } from '../../components/Feedback.tsx';
import { InlinePerson, InlineSelect, InlineText } from '../../components/InlineEdit.tsx';
import { Age, parseTime, Time, useNow } from '../../components/Time.tsx';
import { Field } from '../../components/Field.tsx';
import { shortLabel } from '../../lib/short-label.ts';
import { type IncidentChanges, useIncidentAction, useIncidentUpdate } from './mutations.ts';
import { useProjectNames } from './names.ts';
import { taskBody, useTaskStatus } from './TasksSection.tsx';
import { foldSystem } from './timeline.ts';
import { EntryContent, SystemRun } from './TimelineParts.tsx';
import type { Incident, TimelineEvent } from './types.ts';

const RECENT_MS = 10 * 60_000;

/** Escape leaves a one-line box, so that the page's keys act again. */
const leaveOnEscape = (e: React.KeyboardEvent<HTMLInputElement>) => {
  if (e.key === 'Escape') e.currentTarget.blur();
};
const REPORTED = 'Incident tactical report created';

export function OverviewSection({ organization, incident }: { organization: string; incident: Incident }) {
  const update = useIncidentUpdate(organization, incident);
  /** A save of `changes` based on the version shown when the edit began. */
  const edit = (changes: (value: string) => IncidentChanges) => () => {
    const base = incident;
    return (value: string) => update.mutateAsync({ changes: changes(value), base });
  };
  const projectId = incident.project.id;
  const types = useProjectNames(organization, '/incident_types', projectId, incident.incident_type.name);
  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack>
          <LatestUpdate incident={incident} />
          <Recent organization={organization} incident={incident} />
          <Paper withBorder p="md" component="section" aria-label="Description">
            <Title order={2} size="h4" mb="xs">
              Description
            </Title>
            <InlineText label="Description" value={incident.description} multiline required begin={edit((description) => ({ description }))} />
          </Paper>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack>
          <Roles organization={organization} incident={incident} />
          <OpenTasks organization={organization} incident={incident} />
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="xs">
              Details
            </Title>
            <Stack gap="xs">
              <InlineSelect label="Type" value={incident.incident_type.name} data={types.names} begin={edit((name) => ({ incident_type: { name } }))} />
              <InlineSelect label="Visibility" value={incident.visibility} data={VISIBILITIES} begin={edit((visibility) => ({ visibility }))} />
              <Field label="Resolution">
                <InlineText label="Resolution" value={incident.resolution ?? ''} multiline begin={edit((resolution) => ({ resolution }))} />
              </Field>
              <Field label="Reporter">
                <InlinePerson
                  organization={organization}
                  label="Reporter"
                  value={incident.reporter?.individual.email ?? ''}
                  begin={edit((email) => ({ reporter: { individual: { email } } }))}
                />
              </Field>
              <Field label="Reported">
                <Time value={incident.reported_at} />
              </Field>
              {incident.stable_at ? (
                <Field label="Stable">
                  <Time value={incident.stable_at} />
                </Field>
              ) : null}
              {incident.closed_at ? (
                <Field label="Closed">
                  <Time value={incident.closed_at} />
                </Field>
              ) : null}
              {incident.cases.length ? (
                <Field label="Cases">
                  <Group gap="xs">
                    {incident.cases.map((c) => (
                      <Anchor
                        key={c.id}
                        component={Link}
                        to={`/${organization}/cases/${encodeURIComponent(c.name ?? String(c.id))}`}
                        title={c.name ?? undefined}
                      >
                        {shortLabel('CASE', c)}
                      </Anchor>
                    ))}
                  </Group>
                </Field>
              ) : null}
              <Field label="Project">{incident.project.display_name || incident.project.name}</Field>
              <Field label="Total cost">{incident.total_cost.toLocaleString()}</Field>
              {incident.conversation?.weblink ? (
                <Anchor href={incident.conversation.weblink} target="_blank" rel="noreferrer">
                  Open the channel
                </Anchor>
              ) : null}
              {incident.ticket?.weblink ? (
                <Anchor href={incident.ticket.weblink} target="_blank" rel="noreferrer">
                  Open the ticket
                </Anchor>
              ) : null}
            </Stack>
          </Paper>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

const newestFirst = (events: TimelineEvent[]) => [...events].sort((a, b) => parseTime(b.started_at) - parseTime(a.started_at));

function LatestUpdate({ incident }: { incident: Incident }) {
  const now = useNow();
  const last = incident.last_tactical_report;
  const details = (last?.details ?? {}) as Record<string, unknown>;
  const author = newestFirst(incident.events).find((e) => e.description === REPORTED)?.owner;
  const line = (label: string, key: string) =>
    typeof details[key] === 'string' && details[key] ? (
      <Text size="sm">
        <Text span fw={600} size="sm">
          {label}:{' '}
        </Text>
        {details[key] as string}
      </Text>
    ) : null;
  return (
    <Paper withBorder p="md" component="section" aria-label="Latest update">
      <Title order={2} size="h4" mb="xs">
        Latest update
      </Title>
      {last ? (
        <Stack gap={4}>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{typeof details.conditions === 'string' ? details.conditions : ''}</Text>
          {line('Actions', 'actions')}
          {line('Needs', 'needs')}
          <Text size="sm" c="dimmed">
            {author ? `${author} · ` : ''}
            <Age value={last.created_at} now={now} />
          </Text>
        </Stack>
      ) : (
        <Text size="sm">No update yet: “Post update” (or the key u) tells everyone where things stand.</Text>
      )}
    </Paper>
  );
}

function Recent({ organization, incident }: { organization: string; incident: Incident }) {
  const now = useNow();
  const [note, setNote] = useState('');
  const add = useIncidentAction<string>(organization, (description) => ({ path: `/incidents/${incident.id}/event`, body: { description } }));
  const events = newestFirst(incident.events);
  const recent = events.filter((e) => now - parseTime(e.started_at) <= RECENT_MS);
  const shown = recent.length ? recent : events.slice(0, 5);
  const entry = (e: TimelineEvent) => (
    <li key={e.uuid}>
      <Text size="sm">
        <Text span size="sm" c="dimmed">
          <Age value={e.started_at} now={now} />
          {e.owner ? ` · ${e.owner}` : ''}
        </Text>{' '}
        {e.description}
      </Text>
      <EntryContent event={e} />
    </li>
  );
  return (
    <Paper withBorder p="md" component="section" aria-label="Recent timeline">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {recent.length ? 'Last 10 minutes' : 'Nothing in the last 10 minutes; the newest entries'}
        </Title>
        <Anchor component={Link} to="?tab=timeline" size="sm">
          Whole timeline ({incident.events.length})
        </Anchor>
      </Group>
      <form
        aria-label="Add a note"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          // Cleared at once, so the next note can be typed while this one is saved; back if refused.
          const text = note.trim();
          if (!text) return;
          setNote('');
          add.mutate(text, { onError: () => setNote(text) });
        }}
      >
        <TextInput
          label="Note"
          placeholder="Add a note to the timeline, then Enter"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          onKeyDown={leaveOnEscape}
          mb="sm"
        />
      </form>
      <ErrorAlert error={add.error} title="The note was not added" />
      {shown.length === 0 ? (
        <Text size="sm">Nothing yet.</Text>
      ) : (
        <Stack gap={6} component="ol" aria-label="Newest timeline entries" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {foldSystem(shown).map((row) => ('system' in row ? <SystemRun key={row.system[0].uuid} events={row.system} entry={entry} /> : entry(row.event)))}
        </Stack>
      )}
    </Paper>
  );
}

const ROLES = ['Commander', 'Scribe', 'Liaison'] as const;

function Roles({ organization, incident }: { organization: string; incident: Incident }) {
  const update = useIncidentUpdate(organization, incident);
  const add = useIncidentAction<{ email: string; role: string }>(organization, (body) => ({ path: `/incidents/${incident.id}/participants`, body }));
  const holder = (role: (typeof ROLES)[number]) => {
    if (role === 'Commander') return incident.commander?.individual;
    return incident.participants.find((p) => p.participant_roles.some((r) => r.role === role && !r.renounced_at))?.individual;
  };
  return (
    <Paper withBorder p="md" component="section" aria-label="Roles">
      <Title order={2} size="h4" mb="xs">
        Roles
      </Title>
      <Stack gap="xs">
        {ROLES.map((role) => {
          const person = holder(role);
          return (
            <Field key={role} label={role}>
              <InlinePerson
                organization={organization}
                label={role}
                value={person?.email ?? ''}
                begin={() => {
                  const base = incident;
                  return (email) =>
                    role === 'Commander' ? update.mutateAsync({ changes: { commander: { individual: { email } } }, base }) : add.mutateAsync({ email, role });
                }}
              >
                <Text size="sm">{person ? person.name || person.email : 'Nobody'}</Text>
              </InlinePerson>
            </Field>
          );
        })}
      </Stack>
    </Paper>
  );
}

function OpenTasks({ organization, incident }: { organization: string; incident: Incident }) {
  const [task, setTask] = useState('');
  const add = useIncidentAction<string>(organization, (description) => ({ path: '/tasks', body: taskBody(incident, { description, assignee: '' }) }));
  const setStatus = useTaskStatus(organization, incident);
  const open = incident.tasks.filter((t) => t.status === 'Open');
  return (
    <Paper withBorder p="md" component="section" aria-label="Open tasks">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          Open tasks ({open.length})
        </Title>
        <Anchor component={Link} to="?tab=tasks" size="sm">
          All tasks
        </Anchor>
      </Group>
      <form
        aria-label="Add a task"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const text = task.trim();
          if (!text) return;
          setTask('');
          add.mutate(text, { onError: () => setTask(text) });
        }}
      >
        <TextInput
          label="New task"
          placeholder="What needs doing, then Enter"
          value={task}
          onChange={(e) => setTask(e.currentTarget.value)}
          onKeyDown={leaveOnEscape}
          mb="sm"
        />
      </form>
      <ErrorAlert error={add.error ?? setStatus.error} title="The task was not saved" />
      {open.length === 0 ? (
        <EmptyState title="No open task" />
      ) : (
        <Stack gap={4} component="ul" aria-label="Open task list" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {open.map((t) => (
            <Group key={t.id} component="li" justify="space-between" wrap="nowrap">
              <Text size="sm">{t.description}</Text>
              <Button
                size="compact-xs"
                variant="default"
                loading={setStatus.isPending && setStatus.variables?.task.id === t.id}
                onClick={() => setStatus.mutate({ task: t, status: 'Resolved' })}
                aria-label={`Resolve task: ${t.description}`}
              >
                Resolve
              </Button>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
