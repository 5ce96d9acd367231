// One signal definition: create or edit it, and ingest a test instance of it (to try its filters).
import { Anchor, Button, Grid, Group, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { SignalCreate, SignalUpdate } from '../../../../src/app/ui-shapes.ts';
import { api, orgPath } from '../../api/client.ts';
import { useAll, useRecord } from '../../api/list.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { type DefinitionValues, definitionBody, definitionValues, emptyDefinition } from './definition-body.ts';
import { bodyResolver } from './form-body.ts';
import { IngestPanel } from './IngestPanel.tsx';
import { RefMultiSelect, RefSelect, useProjectRecords } from './pickers.tsx';
import type { Named, Signal } from './types.ts';

export function DefinitionPage({ organization }: { organization: string }) {
  const id = useParams().id;
  const isNew = id === 'new';
  const record = useRecord<Signal>(organization, isNew ? null : `/signals/${id}`, { live: false });
  if (!isNew && record.error) return <ErrorAlert error={record.error} title="This definition could not be read" />;
  if (!isNew && !record.data) return <Loading />;
  return <DefinitionEditor key={id} organization={organization} signal={isNew ? undefined : record.data} />;
}

function DefinitionEditor({ organization, signal }: { organization: string; signal: Signal | undefined }) {
  const navigate = useNavigate();
  const projects = useAll<Named & { default?: boolean }>(organization, '/projects');
  const defaultProject = projects.data?.find((p) => p.default) ?? projects.data?.[0];
  const resolver = useMemo(() => bodyResolver<DefinitionValues>(signal ? SignalUpdate : SignalCreate, (v) => definitionBody(v, signal?.id)), [signal]);
  const form = useForm<DefinitionValues>({ resolver, defaultValues: signal ? definitionValues(signal) : emptyDefinition(null) });
  // A new definition goes to the default project unless another is picked.
  useEffect(() => {
    if (!signal && defaultProject && !form.getValues('project')) form.setValue('project', { id: defaultProject.id, name: defaultProject.name });
  }, [signal, defaultProject, form]);
  const projectId = form.watch('project')?.id;
  const caseTypes = useProjectRecords(organization, '/case_types', projectId);
  const casePriorities = useProjectRecords(organization, '/case_priorities', projectId);
  const entityTypes = useProjectRecords(organization, '/entity_type', projectId);
  const filters = useProjectRecords(organization, '/signals/filters', projectId);
  const tags = useProjectRecords(organization, '/tags', projectId);

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<Signal>(orgPath(organization, signal ? `/signals/${signal.id}` : '/signals'), { method: signal ? 'PUT' : 'POST', body }),
    onSuccess: (saved) => {
      form.reset(definitionValues(saved));
      if (!signal) navigate(`/${organization}/signals/definitions/${saved.id}`, { replace: true });
    },
  });
  const errors = form.formState.errors;
  const message = (e: { message?: string } | undefined) => e?.message;

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <form onSubmit={form.handleSubmit((body) => save.mutate(body as unknown as Record<string, unknown>))} noValidate>
          <Stack>
            <Group justify="space-between">
              <Title order={2}>{signal ? signal.name : 'New signal definition'}</Title>
              <Anchor component={Link} to={`/${organization}/signals/definitions`}>
                All definitions
              </Anchor>
            </Group>
            <ErrorAlert error={save.error} title="The definition was not saved" />
            {save.isSuccess && !form.formState.isDirty ? (
              <Text role="status" fw={600}>
                Saved.
              </Text>
            ) : null}
            <TextInput label="Name" required {...form.register('name')} error={message(errors.name)} />
            <Group grow align="start">
              <TextInput
                label="Variant"
                description="Ingestion finds the definition by raw.variant first"
                {...form.register('variant')}
                error={message(errors.variant)}
              />
              <TextInput
                label="External id"
                description="else by raw.externalId, raw.external_id or raw.id"
                required
                {...form.register('external_id')}
                error={message(errors.external_id)}
              />
            </Group>
            <Group grow align="start">
              <TextInput label="Owner" description="The team that owns the detection" required {...form.register('owner')} error={message(errors.owner)} />
              <Controller
                control={form.control}
                name="project"
                render={({ field }) => (
                  <RefSelect
                    label="Project"
                    required
                    clearable={false}
                    disabled={!!signal}
                    description={signal ? 'A definition stays in its project' : undefined}
                    records={projects.data}
                    value={field.value}
                    onChange={(v) => {
                      field.onChange(v);
                      // What the old project offered does not exist in the new one.
                      for (const key of ['case_type', 'case_priority'] as const) form.setValue(key, null);
                      for (const key of ['entity_types', 'filters', 'tags'] as const) form.setValue(key, []);
                    }}
                    error={message(errors.project)}
                  />
                )}
              />
            </Group>
            <Textarea label="Description" autosize minRows={2} {...form.register('description')} />
            <Group grow align="start">
              <TextInput label="External URL" description="Where the detection is documented" {...form.register('external_url')} />
              <TextInput label="Conversation target" description="The channel told of new cases" {...form.register('conversation_target')} />
            </Group>
            <Group>
              <Controller
                control={form.control}
                name="enabled"
                render={({ field }) => (
                  <Switch label="Enabled (ingestion accepts its instances)" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
                )}
              />
              <Controller
                control={form.control}
                name="create_case"
                render={({ field }) => (
                  <Switch label="Create a case for each instance" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
                )}
              />
            </Group>
            <Group grow align="start">
              <Controller
                control={form.control}
                name="case_type"
                render={({ field }) => <RefSelect label="Case type" records={caseTypes.data} value={field.value} onChange={field.onChange} />}
              />
              <Controller
                control={form.control}
                name="case_priority"
                render={({ field }) => <RefSelect label="Case priority" records={casePriorities.data} value={field.value} onChange={field.onChange} />}
              />
            </Group>
            <Controller
              control={form.control}
              name="filters"
              render={({ field }) => (
                <RefMultiSelect
                  label="Filters"
                  description="Applied in this order; the first active one that matches decides"
                  records={filters.data}
                  value={field.value}
                  onChange={field.onChange}
                />
              )}
            />
            <Controller
              control={form.control}
              name="entity_types"
              render={({ field }) => (
                <RefMultiSelect
                  label="Entity types"
                  description="What is extracted from each instance (and fingerprints it for de-duplication)"
                  records={entityTypes.data}
                  value={field.value}
                  onChange={field.onChange}
                />
              )}
            />
            <Controller
              control={form.control}
              name="tags"
              render={({ field }) => <RefMultiSelect label="Tags" records={tags.data} value={field.value} onChange={field.onChange} />}
            />
            <Group>
              <Button type="submit" loading={save.isPending}>
                {signal ? 'Save definition' : 'Create definition'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        {signal ? (
          <IngestPanel organization={organization} signal={signal} />
        ) : (
          <Text c="dimmed">Once the definition is created, a test instance of it can be ingested here.</Text>
        )}
      </Grid.Col>
    </Grid>
  );
}
