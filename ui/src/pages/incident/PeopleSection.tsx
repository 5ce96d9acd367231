// Who takes part and in which roles (ended roles shown as ended), and adding someone by email with a
// role. The commander and reporter change in the summary form, as an edit of the incident.
import { Badge, Button, Group, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { ADDABLE_ROLES, IncidentParticipantAdd } from '../../../../src/app/ui-shapes.ts';
import { EmptyState, ErrorAlert } from '../../components/Feedback.tsx';
import { shapeResolver } from '../../lib/form.ts';
import { useIncidentAction } from './mutations.ts';
import type { Incident, Participant } from './types.ts';

interface Fields {
  email: string;
  role: string;
}
const resolver = shapeResolver<Fields>(IncidentParticipantAdd);

const byActivity = (p: Participant) => (p.participant_roles.some((r) => !r.renounced_at) ? 0 : 1);

export function PeopleSection({ organization, incident }: { organization: string; incident: Incident }) {
  const add = useIncidentAction<Fields>(organization, (body) => ({ path: `/incidents/${incident.id}/participants`, body }));
  const form = useForm<Fields>({ resolver, defaultValues: { email: '', role: 'Participant' } });
  const people = [...incident.participants].sort((a, b) => byActivity(a) - byActivity(b));
  return (
    <Stack>
      <Title order={2} size="h3">
        Participants
      </Title>
      {people.length === 0 ? (
        <EmptyState title="Nobody takes part yet">Add someone by their email below.</EmptyState>
      ) : (
        <Table striped aria-label="Participants">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Team</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th>Why added</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {people.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{p.individual.name || p.individual.email}</Table.Td>
                <Table.Td>{p.individual.email}</Table.Td>
                <Table.Td>{p.team ?? ''}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {p.participant_roles.map((r) => (
                      <Badge
                        key={r.id}
                        variant={r.renounced_at ? 'outline' : 'light'}
                        color={r.renounced_at ? 'gray' : 'blue'}
                        title={r.renounced_at ? 'Ended' : 'Holds it now'}
                      >
                        {r.role}
                        {r.renounced_at ? ' (ended)' : ''}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{p.added_reason ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form
        aria-label="Add a participant"
        noValidate
        onSubmit={form.handleSubmit((fields) => add.mutate(fields, { onSuccess: () => form.reset({ email: '', role: fields.role }) }))}
      >
        <Title order={3} size="h4" mb="xs">
          Add a participant
        </Title>
        <ErrorAlert error={add.error} title="They were not added" />
        <Group align="flex-start">
          <TextInput label="Email" type="email" {...form.register('email')} error={form.formState.errors.email && 'Enter an email address'} required />
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <Select label="Role" data={[...ADDABLE_ROLES]} value={field.value} onChange={(v) => v && field.onChange(v)} allowDeselect={false} />
            )}
          />
          <Button type="submit" mt={25} loading={add.isPending}>
            Add
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
