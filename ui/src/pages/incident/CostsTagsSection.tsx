// Costs and tags: both are lists inside the incident, changed by sending the incident back with the
// list changed (as Dispatch's web UI does): a cost without an id is created, a tag by id is linked.
import { ActionIcon, Badge, Button, Group, NumberInput, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useAll } from '../../api/list.ts';
import { EmptyState, ErrorAlert } from '../../components/Feedback.tsx';
import { useIncidentUpdate } from './mutations.ts';
import type { Incident } from './types.ts';

interface Named {
  id: number;
  name?: string | null;
  project?: { id: number } | null;
  tag_type?: { name: string } | null;
  /** Cost types Muster computes (the response cost) are not editable. */
  editable?: boolean;
}

const inProject = (incident: Incident) => (r: Named) => !r.project || r.project.id === incident.project.id;

export function CostsSection({ organization, incident }: { organization: string; incident: Incident }) {
  const update = useIncidentUpdate(organization, incident);
  const types = useAll<Named>(organization, '/incident_cost_types');
  const [type, setType] = useState<string | null>(null);
  const [amount, setAmount] = useState<number | string>('');
  const costs = incident.incident_costs;
  const add = () =>
    update.mutate(
      { changes: { incident_costs: [...costs, { amount: Number(amount), incident_cost_type: { id: Number(type) } }] } },
      {
        onSuccess: () => {
          setType(null);
          setAmount('');
        },
      },
    );
  return (
    <Stack>
      <Title order={2} size="h3">
        Costs
      </Title>
      <ErrorAlert error={update.error} title="The costs were not changed" />
      {costs.length === 0 ? (
        <EmptyState title="No costs yet">Add one below.</EmptyState>
      ) : (
        <Table striped aria-label="Costs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Cost type</Table.Th>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {costs.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.incident_cost_type.name}</Table.Td>
                <Table.Td>{c.amount.toLocaleString()}</Table.Td>
                <Table.Td>
                  {c.incident_cost_type.editable === false ? (
                    <Text size="sm">Computed</Text>
                  ) : (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove the ${c.incident_cost_type.name} cost`}
                      onClick={() => update.mutate({ changes: { incident_costs: costs.filter((x) => x.id !== c.id) } })}
                    >
                      ✕
                    </ActionIcon>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text fw={600}>Total: {incident.total_cost.toLocaleString()}</Text>
      <Group align="flex-end">
        <Select
          label="Cost type"
          placeholder="Choose a cost type"
          data={(types.data ?? [])
            .filter((t) => inProject(incident)(t) && t.editable !== false)
            .map((t) => ({ value: String(t.id), label: t.name ?? String(t.id) }))}
          value={type}
          onChange={setType}
          searchable
        />
        <NumberInput label="Amount" value={amount} onChange={setAmount} min={0} w={160} />
        <Button onClick={add} disabled={!type || amount === '' || Number.isNaN(Number(amount))} loading={update.isPending}>
          Add cost
        </Button>
      </Group>
    </Stack>
  );
}

export function TagsSection({ organization, incident }: { organization: string; incident: Incident }) {
  const update = useIncidentUpdate(organization, incident);
  const tags = useAll<Named>(organization, '/tags');
  const [choice, setChoice] = useState<string | null>(null);
  const have = new Set(incident.tags.map((t) => t.id));
  const label = (t: Named) => (t.tag_type?.name ? `${t.tag_type.name}: ${t.name ?? t.id}` : (t.name ?? String(t.id)));
  const options = (tags.data ?? []).filter((t) => inProject(incident)(t) && !have.has(t.id)).map((t) => ({ value: String(t.id), label: label(t) }));
  return (
    <Stack>
      <Title order={2} size="h3">
        Tags
      </Title>
      <ErrorAlert error={update.error} title="The tags were not changed" />
      {incident.tags.length === 0 ? (
        <Text>No tags yet: choose one below.</Text>
      ) : (
        <Group gap="xs" role="list" aria-label="Tags">
          {incident.tags.map((t) => (
            <Badge
              key={t.id}
              role="listitem"
              size="lg"
              variant="light"
              rightSection={
                <ActionIcon
                  size="xs"
                  variant="transparent"
                  aria-label={`Remove the tag ${label(t)}`}
                  onClick={() => update.mutate({ changes: { tags: incident.tags.filter((x) => x.id !== t.id) } })}
                >
                  ✕
                </ActionIcon>
              }
            >
              {label(t)}
            </Badge>
          ))}
        </Group>
      )}
      <Group align="flex-end">
        <Select label="Add a tag" placeholder="Choose a tag" data={options} value={choice} onChange={setChoice} searchable nothingFoundMessage="No such tag" />
        <Button
          disabled={!choice}
          loading={update.isPending}
          onClick={() => update.mutate({ changes: { tags: [...incident.tags, { id: Number(choice) }] } }, { onSuccess: () => setChoice(null) })}
        >
          Add tag
        </Button>
      </Group>
    </Stack>
  );
}
