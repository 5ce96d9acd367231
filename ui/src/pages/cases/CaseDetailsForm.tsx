// A case's editable fields. The form starts from the case and follows its live updates until the
// person changes something; then their edits stay until saved or discarded.
import { Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { PersonPicker } from '../../components/PeoplePicker.tsx';
import { useCaseUpdate, useNames } from './case-api.ts';
import type { CaseChanges } from './transitions.ts';
import { type Case, RESOLUTION_REASONS, VISIBILITIES } from './types.ts';

interface Fields {
  title: string;
  description: string;
  case_priority: string;
  case_severity: string;
  case_type: string;
  visibility: string;
  assignee: string;
  resolution: string;
  resolution_reason: string;
}

const fieldsOf = (c: Case): Fields => ({
  title: c.title,
  description: c.description ?? '',
  case_priority: c.case_priority?.name ?? '',
  case_severity: c.case_severity?.name ?? '',
  case_type: c.case_type?.name ?? '',
  visibility: c.visibility ?? 'Open',
  assignee: c.assignee?.individual?.email ?? '',
  resolution: c.resolution ?? '',
  resolution_reason: c.resolution_reason ?? '',
});

export function CaseDetailsForm({ organization, c }: { organization: string; c: Case }) {
  const form = useForm<Fields>({ values: fieldsOf(c), resetOptions: { keepDirtyValues: true } });
  const save = useCaseUpdate(organization, c);
  const projectId = c.project?.id;
  const types = useNames(organization, '/case_types', projectId);
  const priorities = useNames(organization, '/case_priorities', projectId);
  const severities = useNames(organization, '/case_severities', projectId);
  const errors = form.formState.errors;

  const submit = (f: Fields) => {
    const changes: CaseChanges = {
      title: f.title.trim(),
      description: f.description,
      case_priority: f.case_priority || undefined,
      case_severity: f.case_severity || undefined,
      case_type: f.case_type || undefined,
      visibility: f.visibility || undefined,
      assignee: f.assignee || undefined,
      resolution: f.resolution,
      resolution_reason: f.resolution_reason || undefined,
    };
    save.mutate(changes, { onSuccess: (saved) => form.reset(fieldsOf(saved)) });
  };
  const pick = (name: keyof Fields, label: string, data: string[], extra: { searchable?: boolean; clearable?: boolean } = {}) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          data={[...new Set([...data, ...(field.value ? [field.value] : [])])]}
          value={field.value || null}
          onChange={(v) => field.onChange(v ?? '')}
          {...extra}
        />
      )}
    />
  );

  return (
    <form onSubmit={form.handleSubmit(submit)} noValidate aria-label="Case details">
      <Stack gap="sm">
        <ErrorAlert error={save.error} title="The case was not saved" />
        <TextInput label="Title" required {...form.register('title', { validate: (v) => v.trim() !== '' || 'Enter a title' })} error={errors.title?.message} />
        <Textarea label="Description" autosize minRows={2} maxRows={12} {...form.register('description')} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {pick('case_priority', 'Priority', priorities.names)}
          {pick('case_severity', 'Severity', severities.names)}
          {pick('case_type', 'Type', types.names)}
          {pick('visibility', 'Visibility', [...VISIBILITIES])}
          <Controller
            control={form.control}
            name="assignee"
            render={({ field }) => <PersonPicker organization={organization} label="Assignee" value={field.value} onChange={field.onChange} />}
          />
          {pick('resolution_reason', 'Resolution reason', [...RESOLUTION_REASONS], { clearable: true })}
        </SimpleGrid>
        <Textarea label="Resolution" autosize minRows={2} {...form.register('resolution')} />
        <Group justify="flex-end">
          <Button variant="default" disabled={!form.formState.isDirty} onClick={() => form.reset(fieldsOf(c))}>
            Discard changes
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
