// One signal filter: create or edit it, with its expression's matches shown beside it as it is typed.
import {
  Anchor,
  Button,
  Grid,
  Group,
  Menu,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  JsonInput,
  Input,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { SignalFilterCreate, SignalFilterUpdate } from '../../../../src/app/ui-shapes.ts';
import { api, orgPath } from '../../api/client.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { ExpressionPreview } from './ExpressionPreview.tsx';
import { emptyFilter, type FilterValues, filterBody, filterValues } from './filter-body.ts';
import { bodyResolver } from './form-body.ts';
import { RefSelect } from './pickers.tsx';
import { CONDITION_TEMPLATES, withCondition } from './preview.ts';
import type { Named, Ref, SignalFilter } from './types.ts';
import { useFilter } from './useFilter.ts';

export function FilterPage({ organization }: { organization: string }) {
  const param = useParams().id;
  const id = param === 'new' || param === undefined ? null : Number(param);
  const { filter, project, projects } = useFilter(organization, id);
  if (id !== null && filter.error) return <ErrorAlert error={filter.error} title="This filter could not be read" />;
  if (id !== null && (!filter.data || project.isPending)) return <Loading />;
  return <FilterEditor key={param} organization={organization} filter={filter.data} project={project.data ?? null} projects={projects.data} />;
}

const MODES = [
  { value: 'active', label: 'Active: acts on matches' },
  { value: 'monitor', label: 'Monitor: only records what it would do' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'expired', label: 'Expired' },
];

function FilterEditor(props: { organization: string; filter: SignalFilter | undefined; project: Ref | null; projects: Named[] | undefined }) {
  const { organization, filter } = props;
  const navigate = useNavigate();
  const resolver = useMemo(() => bodyResolver<FilterValues>(filter ? SignalFilterUpdate : SignalFilterCreate, (v) => filterBody(v, filter?.id)), [filter]);
  const form = useForm<FilterValues>({ resolver, defaultValues: filter ? filterValues(filter, props.project) : emptyFilter(null) });
  const defaultProject = (props.projects as (Named & { default?: boolean })[] | undefined)?.find((p) => p.default) ?? props.projects?.[0];
  useEffect(() => {
    if (!filter && defaultProject && !form.getValues('project')) form.setValue('project', { id: defaultProject.id, name: defaultProject.name });
  }, [filter, defaultProject, form]);

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<SignalFilter>(orgPath(organization, filter ? `/signals/filters/${filter.id}` : '/signals/filters'), { method: filter ? 'PUT' : 'POST', body }),
    onSuccess: (saved) => {
      form.reset(filterValues(saved, form.getValues('project')));
      if (!filter) navigate(`/${organization}/signals/filters/${saved.id}`, { replace: true });
    },
  });
  const errors = form.formState.errors;
  const action = form.watch('action');
  const expression = form.watch('expression');
  const projectId = form.watch('project')?.id;

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <form onSubmit={form.handleSubmit((body) => save.mutate(body as unknown as Record<string, unknown>))} noValidate>
          <Stack>
            <Group justify="space-between">
              <Title order={2}>{filter ? filter.name : 'New signal filter'}</Title>
              <Anchor component={Link} to={`/${organization}/signals/filters`}>
                All filters
              </Anchor>
            </Group>
            <ErrorAlert error={save.error} title="The filter was not saved" />
            {save.isSuccess && !form.formState.isDirty ? (
              <Text role="status" fw={600}>
                Saved.
              </Text>
            ) : null}
            <TextInput label="Name" required {...form.register('name')} error={errors.name?.message} />
            <Controller
              control={form.control}
              name="project"
              render={({ field }) => (
                <RefSelect
                  label="Project"
                  required
                  clearable={false}
                  disabled={!!filter}
                  description={filter ? 'A filter stays in its project' : 'Its expression is previewed over this project’s instances'}
                  records={props.projects}
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.project?.message}
                />
              )}
            />
            <Textarea label="Description" autosize minRows={2} {...form.register('description')} />
            <Controller
              control={form.control}
              name="action"
              render={({ field }) => (
                <Input.Wrapper
                  label="Action"
                  description="Snooze drops matches; deduplicate folds a match into the case of an earlier one with the same fingerprint"
                >
                  <SegmentedControl
                    aria-label="Action"
                    value={field.value}
                    onChange={field.onChange}
                    data={[
                      { value: 'snooze', label: 'Snooze' },
                      { value: 'deduplicate', label: 'Deduplicate' },
                    ]}
                  />
                </Input.Wrapper>
              )}
            />
            <Controller
              control={form.control}
              name="mode"
              render={({ field }) => <Select label="Mode" data={MODES} value={field.value} onChange={(v) => v && field.onChange(v)} allowDeselect={false} />}
            />
            <Group grow align="start">
              <Controller
                control={form.control}
                name="window"
                render={({ field }) => (
                  <NumberInput
                    label="Window (seconds)"
                    description={action === 'deduplicate' ? 'How far back an earlier match counts' : 'Used by deduplicate filters'}
                    min={0}
                    value={field.value}
                    onChange={field.onChange}
                    error={errors.window?.message}
                  />
                )}
              />
              <TextInput
                type="datetime-local"
                label="Expiration (UTC)"
                description={action === 'snooze' ? 'A snooze stops acting then; empty: never' : 'Used by snooze filters'}
                {...form.register('expiration')}
                error={errors.expiration?.message}
              />
            </Group>
            <Controller
              control={form.control}
              name="expression"
              render={({ field }) => (
                <JsonInput
                  label="Expression"
                  description="A JSON list of conditions, all of which must hold; an empty list matches every instance"
                  autosize
                  minRows={6}
                  maxRows={30}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  formatOnBlur
                  error={errors.expression?.message}
                />
              )}
            />
            <Group>
              <Menu position="bottom-start">
                <Menu.Target>
                  <Button variant="default" size="xs">
                    Insert a condition
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {CONDITION_TEMPLATES.map((t) => (
                    <Menu.Item
                      key={t.label}
                      onClick={() => form.setValue('expression', withCondition(form.getValues('expression'), t.condition), { shouldDirty: true })}
                    >
                      {t.label}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
              <Text size="xs">
                Models: the instance (fields fingerprint, filter_action, created_at, raw, case_id, signal_id, project_id), Signal, Project, Case, Entity,
                EntityType.
              </Text>
            </Group>
            <Group>
              <Button type="submit" loading={save.isPending}>
                {filter ? 'Save filter' : 'Create filter'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <ExpressionPreview organization={organization} projectId={projectId} expression={expression} />
      </Grid.Col>
    </Grid>
  );
}
