// Report an incident: the fields of the API's IncidentCreate, checked against that very shape before
// sending; project, type, priority and severity offered from what the API holds (left empty, the
// project's defaults apply). On success the new incident's page opens.
import { Button, Group, MultiSelect, Paper, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { IncidentCreate } from '../../../../src/app/ui-shapes.ts';
import { api, orgPath } from '../../api/client.ts';
import { useAll } from '../../api/list.ts';
import { useOrganization } from '../../api/session.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { PeoplePicker } from '../../components/PeoplePicker.tsx';
import { shapeResolver, withoutEmpty } from '../../lib/form.ts';
import { VISIBILITIES } from './incident-filters.ts';
import type { Assessment, Incident, ProjectRef, Tag } from './types.ts';

/** The form's values are the body itself: what is validated is what is sent. */
interface Fields {
  title: string;
  description: string;
  project?: { id: number };
  incident_type?: { name: string };
  incident_priority?: { name: string };
  incident_severity?: { name: string };
  visibility?: string;
  tags: { id: number }[];
  commander?: { individual: { email: string } };
}

const inProject = <T extends { project?: { id: number }; enabled?: boolean }>(items: T[] | undefined, projectId: number | undefined) =>
  (items ?? []).filter((i) => i.enabled !== false && (projectId === undefined || i.project?.id === projectId));

export default function ReportIncidentPage() {
  const organization = useOrganization();
  const navigate = useNavigate();
  const projects = useAll<ProjectRef & { default?: boolean; enabled?: boolean }>(organization, '/projects');
  const types = useAll<Assessment>(organization, '/incident_types');
  const priorities = useAll<Assessment>(organization, '/incident_priorities');
  const severities = useAll<Assessment>(organization, '/incident_severities');
  const tags = useAll<Tag>(organization, '/tags');

  const form = useForm<Fields>({
    resolver: shapeResolver<Fields>(IncidentCreate),
    defaultValues: { title: '', description: '', tags: [] },
  });
  const errors = form.formState.errors;
  const projectId = form.watch('project')?.id;

  // The default project (or the only one) is chosen to start with.
  useEffect(() => {
    if (form.getValues('project') || !projects.data?.length) return;
    const first = projects.data.find((p) => p.default) ?? projects.data[0];
    form.setValue('project', { id: first.id });
  }, [projects.data, form]);

  // The first person picked commands the incident; the others take part in it.
  const [people, setPeople] = useState<string[]>([]);
  const report = useMutation({
    mutationFn: async (fields: Fields) => {
      const [commander, ...others] = people;
      const body = withoutEmpty({ ...fields, ...(commander ? { commander: { individual: { email: commander } } } : {}) });
      const incident = await api<Incident>(orgPath(organization, '/incidents'), { method: 'POST', body });
      for (const email of others) {
        await api(orgPath(organization, `/incidents/${incident.id}/participants`), { method: 'POST', body: { email, role: 'Participant' } });
      }
      return incident;
    },
    onSuccess: (incident) => navigate(`/${organization}/incidents/${incident.name ?? incident.id}`),
  });

  const projectOptions = useMemo(
    () => (projects.data ?? []).filter((p) => p.enabled !== false).map((p) => ({ value: String(p.id), label: p.display_name || p.name })),
    [projects.data],
  );
  const names = (items: Assessment[] | undefined) => [...new Set(inProject(items, projectId).map((i) => i.name))];
  const defaultOf = (items: Assessment[] | undefined) => inProject(items, projectId).find((i) => i.default)?.name;
  const tagOptions = inProject(tags.data, projectId).map((t) => ({ value: String(t.id), label: t.tag_type ? `${t.tag_type.name}: ${t.name}` : t.name }));

  /** A Select of names whose value is sent as `{name}`; empty means the project's default. */
  const byName = (field: 'incident_type' | 'incident_priority' | 'incident_severity', label: string, items: Assessment[] | undefined) => (
    <Controller
      control={form.control}
      name={field}
      render={({ field: f }) => (
        <Select
          label={label}
          data={names(items)}
          value={f.value?.name ?? null}
          onChange={(v) => f.onChange(v ? { name: v } : undefined)}
          onBlur={f.onBlur}
          placeholder={defaultOf(items) ? `Project default: ${defaultOf(items)}` : 'Project default'}
          clearable
          searchable
        />
      )}
    />
  );

  return (
    <Stack maw={720}>
      <Title order={1}>Report an incident</Title>
      <Text c="dimmed" size="sm">
        Say what is happening; fields left empty take the project's defaults. The incident's page opens once it is reported.
      </Text>
      <Paper withBorder p="lg">
        <form onSubmit={form.handleSubmit((fields) => report.mutate(fields))} noValidate>
          <Stack>
            <ErrorAlert error={report.error} title="Could not report the incident" />
            <TextInput label="Title" required {...form.register('title')} error={errors.title && 'Give the incident a title'} autoFocus />
            <Textarea
              label="Description"
              required
              autosize
              minRows={4}
              {...form.register('description')}
              error={errors.description && 'Describe what is happening'}
            />
            <Controller
              control={form.control}
              name="project"
              render={({ field }) => (
                <Select
                  label="Project"
                  data={projectOptions}
                  value={field.value ? String(field.value.id) : null}
                  onChange={(v) => {
                    field.onChange(v ? { id: Number(v) } : undefined);
                    // Types, priorities, severities and tags belong to a project: another project's do not apply.
                    for (const key of ['incident_type', 'incident_priority', 'incident_severity'] as const) form.setValue(key, undefined);
                    form.setValue('tags', []);
                  }}
                  error={errors.project && 'Choose a project'}
                  placeholder={projects.isLoading ? 'Loading…' : 'The default project'}
                  searchable
                />
              )}
            />
            <Group grow align="start">
              {byName('incident_type', 'Type', types.data)}
              {byName('incident_priority', 'Priority', priorities.data)}
              {byName('incident_severity', 'Severity', severities.data)}
            </Group>
            <PeoplePicker
              organization={organization}
              label="People"
              description="The first one picked commands the incident; you are its reporter."
              value={people}
              onChange={setPeople}
            />
            <Controller
              control={form.control}
              name="visibility"
              render={({ field }) => (
                <Select
                  label="Visibility"
                  data={VISIBILITIES}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  placeholder="The type's default"
                  clearable
                  error={errors.visibility && 'Open or Restricted'}
                />
              )}
            />
            <Controller
              control={form.control}
              name="tags"
              render={({ field }) => (
                <MultiSelect
                  label="Tags"
                  data={tagOptions}
                  value={field.value.map((t) => String(t.id))}
                  onChange={(ids) => field.onChange(ids.map((id) => ({ id: Number(id) })))}
                  placeholder={tagOptions.length ? 'Pick tags' : 'No tags in this project'}
                  searchable
                  clearable
                />
              )}
            />
            <ErrorAlert error={projects.error ?? types.error ?? priorities.error ?? severities.error ?? tags.error} title="Could not load the choices" />
            <Group justify="end">
              <Button variant="default" onClick={() => navigate(`/${organization}/incidents`)}>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={report.isPending}>
                Report incident
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
