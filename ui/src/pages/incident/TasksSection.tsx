// The incident's tasks: what is open and resolved, adding one (with an assignee picked), and
// resolving or reopening one (PUT /tasks/{id} with the task as read and its new status).
import { Badge, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { TaskCreate } from '../../../../src/app/ui-shapes.ts';
import { EmptyState, ErrorAlert } from '../../components/Feedback.tsx';
import { PersonPicker } from '../../components/PeoplePicker.tsx';
import { Time } from '../../components/Time.tsx';
import { shapeResolver } from '../../lib/form.ts';
import { useIncidentAction } from './mutations.ts';
import type { Incident, IncidentTask } from './types.ts';

interface NewTask {
  description: string;
  assignee: string;
}
const checkTask = shapeResolver<Record<string, unknown>>(TaskCreate);
export const taskBody = (incident: Incident, t: NewTask) => ({
  description: t.description.trim(),
  incident: { id: incident.id },
  assignees: t.assignee ? [{ individual: { email: t.assignee.trim() } }] : [],
  status: 'Open',
});

/** Resolves or reopens a task: PUT /tasks/{id} with the task as read and its new status. */
export const useTaskStatus = (organization: string, incident: Incident) =>
  useIncidentAction<{ task: IncidentTask; status: 'Open' | 'Resolved' }>(organization, ({ task, status }) => ({
    path: `/tasks/${task.id}`,
    method: 'PUT',
    body: {
      description: task.description,
      weblink: task.weblink,
      status,
      incident: { id: incident.id },
      assignees: task.assignees.map((a) => ({ individual: { email: a.individual.email } })),
    },
  }));

const assigneesOf = (t: IncidentTask) => t.assignees.map((a) => a.individual.name || a.individual.email).join(', ');

export function TasksSection({ organization, incident }: { organization: string; incident: Incident }) {
  const add = useIncidentAction<NewTask>(organization, (t) => ({ path: '/tasks', body: taskBody(incident, t) }));
  const setStatus = useTaskStatus(organization, incident);
  const form = useForm<NewTask>({
    defaultValues: { description: '', assignee: '' },
    // Checked as it will be sent, against the API's TaskCreate; a task needs words to be one.
    resolver: async (values, context, options) => {
      const result = await checkTask(taskBody(incident, values), context, options as never);
      const errors = { ...result.errors } as Record<string, unknown>;
      if (!values.description.trim()) errors.description = { type: 'required', message: 'Say what needs doing' };
      if (errors.assignees) errors.assignee = { type: 'format', message: 'Enter an email address' };
      return Object.keys(errors).length ? { values: {}, errors: errors as never } : { values, errors: {} };
    },
  });
  const errors = form.formState.errors;
  const tasks = [...incident.tasks].sort((a, b) => (a.status === b.status ? a.created_at.localeCompare(b.created_at) : a.status === 'Open' ? -1 : 1));
  return (
    <Stack>
      <Title order={2} size="h3">
        Tasks
      </Title>
      <ErrorAlert error={setStatus.error} title="The task was not changed" />
      {tasks.length === 0 ? (
        <EmptyState title="No tasks yet">Add what needs doing below.</EmptyState>
      ) : (
        <Table striped aria-label="Tasks">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Task</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Assignees</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tasks.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>{t.description}</Table.Td>
                <Table.Td>
                  <Badge color={t.status === 'Open' ? 'blue' : 'gray'} variant="light">
                    {t.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{assigneesOf(t)}</Table.Td>
                <Table.Td>
                  <Time value={t.created_at} />
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="default"
                    loading={setStatus.isPending && setStatus.variables?.task.id === t.id}
                    onClick={() => setStatus.mutate({ task: t, status: t.status === 'Open' ? 'Resolved' : 'Open' })}
                    aria-label={`${t.status === 'Open' ? 'Resolve' : 'Reopen'} task: ${t.description ?? t.id}`}
                  >
                    {t.status === 'Open' ? 'Resolve' : 'Reopen'}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form aria-label="Add a task" noValidate onSubmit={form.handleSubmit((t) => add.mutate(t, { onSuccess: () => form.reset() }))}>
        <Title order={3} size="h4" mb="xs">
          Add a task
        </Title>
        <ErrorAlert error={add.error} title="The task was not added" />
        <Group align="flex-start">
          <TextInput label="Task" {...form.register('description')} error={errors.description?.message} required w={360} />
          <Controller
            control={form.control}
            name="assignee"
            render={({ field }) => (
              <PersonPicker
                organization={organization}
                label="Assignee (optional)"
                value={field.value}
                onChange={field.onChange}
                clearable
                error={errors.assignee?.message}
              />
            )}
          />
          <Button type="submit" mt={25} loading={add.isPending}>
            Add task
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
