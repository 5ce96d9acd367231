// The incident's fields and their edit form. The form is checked against the API's IncidentUpdate
// shape; while nobody is typing in it, it follows the record as it changes (live).
import { Anchor, Button, Grid, Group, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { IncidentUpdate, VISIBILITIES } from '../../../../src/app/ui-shapes.ts';
import { useAll } from '../../api/list.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { shapeResolver } from '../../lib/form.ts';
import { useIncidentUpdate } from './mutations.ts';
import type { Incident } from './types.ts';

interface Fields {
  title: string;
  description: string;
  resolution: string;
  visibility: string;
  incident_priority: { name: string };
  incident_severity: { name: string };
  incident_type: { name: string };
  commander: { individual: { email: string } } | null;
  reporter: { individual: { email: string } } | null;
}

const person = (email: string | undefined) => ({ individual: { email: email ?? '' } });

export const fieldsOf = (i: Incident): Fields => ({
  title: i.title,
  description: i.description,
  resolution: i.resolution ?? '',
  visibility: i.visibility,
  incident_priority: { name: i.incident_priority.name },
  incident_severity: { name: i.incident_severity.name },
  incident_type: { name: i.incident_type.name },
  commander: person(i.commander?.individual.email),
  reporter: person(i.reporter?.individual.email),
});

/** What is sent: a person left empty is not changed (the API keeps them when omitted). */
const changesOf = (f: Fields) => ({
  ...f,
  resolution: f.resolution || null,
  commander: f.commander?.individual.email ? f.commander : undefined,
  reporter: f.reporter?.individual.email ? f.reporter : undefined,
});

/** Names of a project's records (priorities, severities, types), the current one always among them. */
const checkUpdate = shapeResolver<Fields>(IncidentUpdate);
/** Checked as it will be sent. */
const resolver: Resolver<Fields> = (values, context, options) => checkUpdate(changesOf(values) as Fields, context, options);

function useNames(organization: string, path: string, projectId: number, current: string) {
  const all = useAll<{ name: string; project?: { id: number } | null; enabled?: boolean }>(organization, path);
  const names = (all.data ?? []).filter((r) => (!r.project || r.project.id === projectId) && r.enabled !== false).map((r) => r.name);
  return [...new Set([current, ...names])];
}

function ReadField({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

export function SummarySection({ organization, incident }: { organization: string; incident: Incident }) {
  const update = useIncidentUpdate(organization, incident);
  const form = useForm<Fields>({ resolver, defaultValues: fieldsOf(incident) });
  const { isDirty } = form.formState;
  const { reset } = form;
  // Live: someone else's change shows here unless this person is part-way through an edit.
  useEffect(() => {
    if (!isDirty) reset(fieldsOf(incident));
  }, [incident, isDirty, reset]);

  const projectId = incident.project.id;
  const priorities = useNames(organization, '/incident_priorities', projectId, incident.incident_priority.name);
  const severities = useNames(organization, '/incident_severities', projectId, incident.incident_severity.name);
  const types = useNames(organization, '/incident_types', projectId, incident.incident_type.name);
  const errors = form.formState.errors;

  const submit = form.handleSubmit((fields) => update.mutate(changesOf(fields), { onSuccess: (read) => form.reset(fieldsOf(read)) }));
  const select = (name: 'incident_priority.name' | 'incident_severity.name' | 'incident_type.name' | 'visibility', label: string, data: readonly string[]) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => <Select label={label} data={[...data]} value={field.value} onChange={(v) => v && field.onChange(v)} allowDeselect={false} />}
    />
  );

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <form onSubmit={submit} noValidate aria-label="Edit the incident">
          <Stack>
            <ErrorAlert error={update.error} title="The incident was not saved" />
            <TextInput label="Title" {...form.register('title')} error={errors.title && 'Give the incident a title'} required />
            <Textarea
              label="Description"
              autosize
              minRows={3}
              {...form.register('description')}
              error={errors.description && 'Describe the incident'}
              required
            />
            <Textarea label="Resolution" autosize minRows={2} {...form.register('resolution')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {select('incident_priority.name', 'Priority', priorities)}
              {select('incident_severity.name', 'Severity', severities)}
              {select('incident_type.name', 'Type', types)}
              {select('visibility', 'Visibility', VISIBILITIES)}
              <TextInput
                label="Commander (email)"
                type="email"
                {...form.register('commander.individual.email')}
                error={errors.commander && 'Enter an email address'}
              />
              <TextInput
                label="Reporter (email)"
                type="email"
                {...form.register('reporter.individual.email')}
                error={errors.reporter && 'Enter an email address'}
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={update.isPending} disabled={!isDirty}>
                Save changes
              </Button>
              <Button variant="default" disabled={!isDirty} onClick={() => form.reset(fieldsOf(incident))}>
                Discard
              </Button>
              {isDirty ? <Text size="sm">Unsaved changes: the form no longer follows live updates until saved or discarded.</Text> : null}
            </Group>
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack gap="sm">
          <ReadField label="Project">{incident.project.display_name || incident.project.name}</ReadField>
          <ReadField label="Commander">{incident.commander?.individual.name || incident.commander?.individual.email || 'None'}</ReadField>
          <ReadField label="Reporter">{incident.reporter?.individual.name || incident.reporter?.individual.email || 'None'}</ReadField>
          <ReadField label="Reported">
            <Time value={incident.reported_at} />
          </ReadField>
          <ReadField label="Stable">
            <Time value={incident.stable_at} />
          </ReadField>
          <ReadField label="Closed">
            <Time value={incident.closed_at} />
          </ReadField>
          <ReadField label="Created">
            <Time value={incident.created_at} />
          </ReadField>
          <ReadField label="Total cost">{incident.total_cost.toLocaleString()}</ReadField>
          {incident.conversation?.weblink ? (
            <ReadField label="Conversation">
              <Anchor href={incident.conversation.weblink} target="_blank" rel="noreferrer">
                Open the channel
              </Anchor>
            </ReadField>
          ) : null}
          {incident.ticket?.weblink ? (
            <ReadField label="Ticket">
              <Anchor href={incident.ticket.weblink} target="_blank" rel="noreferrer">
                Open the ticket
              </Anchor>
            </ReadField>
          ) : null}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
