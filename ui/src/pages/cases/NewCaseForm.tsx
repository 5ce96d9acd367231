// "New case": a modal form whose body is checked against the API's CaseCreate shape; on success the
// new case opens.
import { Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { useAll } from '../../api/list.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { useNames } from './case-api.ts';
import { NEW_CASE_DEFAULTS, type NewCaseFields, newCaseBody, newCaseResolver } from './new-case.ts';
import { type Case, casePath, VISIBILITIES } from './types.ts';

export function NewCaseForm({ organization, opened, onClose }: { organization: string; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const form = useForm<NewCaseFields>({ resolver: newCaseResolver, defaultValues: NEW_CASE_DEFAULTS });
  const projects = useAll<{ id: number; name: string; default?: boolean; enabled?: boolean }>(organization, '/projects');
  const projectName = form.watch('project');
  const project = (projects.data ?? []).find((p) => p.name === projectName) ?? (projects.data ?? []).find((p) => p.default);
  const types = useNames(organization, '/case_types', project?.id);
  const priorities = useNames(organization, '/case_priorities', project?.id);
  const severities = useNames(organization, '/case_severities', project?.id);
  const people = useAll<{ email: string }>(organization, '/individuals');
  const create = useMutation({
    mutationFn: (fields: NewCaseFields) => api<Case>(orgPath(organization, '/cases'), { method: 'POST', body: newCaseBody(fields) }),
    onSuccess: (created) => {
      form.reset(NEW_CASE_DEFAULTS);
      onClose();
      navigate(casePath(organization, created));
    },
  });
  const errors = form.formState.errors;
  const select = (name: 'project' | 'case_type' | 'case_priority' | 'case_severity' | 'visibility', label: string, data: string[], placeholder: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          data={data}
          value={field.value || null}
          onChange={(v) => {
            field.onChange(v ?? '');
            // Types, priorities and severities are the project's own.
            if (name === 'project') for (const other of ['case_type', 'case_priority', 'case_severity'] as const) form.setValue(other, '');
          }}
          placeholder={placeholder}
          clearable
          error={errors[name]?.message}
        />
      )}
    />
  );

  return (
    <Modal opened={opened} onClose={onClose} title="New case" size="lg">
      <form onSubmit={form.handleSubmit((fields) => create.mutate(fields))} noValidate>
        <Stack>
          <ErrorAlert error={create.error} title="The case was not created" />
          <TextInput label="Title" required {...form.register('title')} error={errors.title?.message} />
          <Textarea label="Description" autosize minRows={3} {...form.register('description')} error={errors.description?.message} />
          <Group grow>
            {select(
              'project',
              'Project',
              (projects.data ?? []).filter((p) => p.enabled !== false).map((p) => p.name),
              'The default project',
            )}
            {select('case_type', 'Type', types.names, "The project's default")}
          </Group>
          <Group grow>
            {select('case_priority', 'Priority', priorities.names, "The project's default")}
            {select('case_severity', 'Severity', severities.names, "The project's default")}
          </Group>
          <Group grow>
            {select('visibility', 'Visibility', [...VISIBILITIES], "The type's")}
            <Controller
              control={form.control}
              name="assignee"
              render={({ field }) => (
                <Select
                  label="Assignee"
                  data={(people.data ?? []).map((p) => p.email)}
                  value={field.value || null}
                  onChange={(v) => field.onChange(v ?? '')}
                  placeholder="You"
                  searchable
                  clearable
                  error={errors.assignee?.message}
                />
              )}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create case
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
