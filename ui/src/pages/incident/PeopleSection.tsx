// Who takes part and in which roles (ended roles shown as ended), with "Make commander" and "Remove"
// on each active person, and adding someone picked from the people Muster knows, with a role.
import { Badge, Button, Group, Select, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { ADDABLE_ROLES } from '../../../../src/app/ui-shapes.ts';
import { EmptyState, ErrorAlert } from '../../components/Feedback.tsx';
import { PersonPicker } from '../../components/PeoplePicker.tsx';
import { useIncidentAction, useIncidentUpdate } from './mutations.ts';
import type { Incident, Participant } from './types.ts';

const active = (p: Participant) => p.participant_roles.some((r) => !r.renounced_at);
const commands = (p: Participant) => p.participant_roles.some((r) => r.role === 'Incident Commander' && !r.renounced_at);

export function PeopleSection({ organization, incident }: { organization: string; incident: Incident }) {
  const add = useIncidentAction<{ email: string; role: string }>(organization, (body) => ({ path: `/incidents/${incident.id}/participants`, body }));
  const remove = useIncidentAction<Participant>(organization, (p) => ({ path: `/incidents/${incident.id}/participants/${p.id}`, method: 'DELETE' }));
  const update = useIncidentUpdate(organization, incident);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>('Participant');
  const people = [...incident.participants].sort((a, b) => Number(active(b)) - Number(active(a)));
  const nameOf = (p: Participant) => p.individual.name || p.individual.email;
  return (
    <Stack>
      <Title order={2} size="h3">
        Participants
      </Title>
      <ErrorAlert error={remove.error ?? update.error} title="The change was not made" />
      {people.length === 0 ? (
        <EmptyState title="Nobody takes part yet">Add someone below.</EmptyState>
      ) : (
        <Table striped aria-label="Participants">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th>Why added</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {people.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{nameOf(p)}</Table.Td>
                <Table.Td>{p.individual.email}</Table.Td>
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
                <Table.Td>
                  {active(p) && !commands(p) ? (
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-xs"
                        variant="default"
                        aria-label={`Make ${nameOf(p)} the commander`}
                        onClick={() => update.mutate({ changes: { commander: { individual: { email: p.individual.email } } } })}
                      >
                        Make commander
                      </Button>
                      <Button size="compact-xs" variant="default" color="red" aria-label={`Remove ${nameOf(p)}`} onClick={() => remove.mutate(p)}>
                        Remove
                      </Button>
                    </Group>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form
        aria-label="Add a participant"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (email) add.mutate({ email, role }, { onSuccess: () => setEmail('') });
        }}
      >
        <Title order={3} size="h4" mb="xs">
          Add a participant
        </Title>
        <ErrorAlert error={add.error} title="They were not added" />
        <Group align="flex-start">
          <PersonPicker organization={organization} label="Person" value={email} onChange={setEmail} />
          <Select label="Role" data={[...ADDABLE_ROLES]} value={role} onChange={(v) => v && setRole(v)} allowDeselect={false} />
          <Button type="submit" mt={25} loading={add.isPending} disabled={!email}>
            Add
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
