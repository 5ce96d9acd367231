// What the incident is linked with: its documents, the cases escalated into it or linked to it, and
// the workflows run for it with their status.
import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Time } from '../../components/Time.tsx';
import type { Incident } from './types.ts';

const STATUS_COLOR: Record<string, string> = { Submitted: 'gray', Created: 'blue', Running: 'blue', Completed: 'green', Failed: 'red' };

const external = (href: string | null | undefined, text: string) =>
  href ? (
    <Anchor href={href} target="_blank" rel="noreferrer">
      {text}
    </Anchor>
  ) : (
    text
  );

export function RelatedSection({ organization, incident }: { organization: string; incident: Incident }) {
  return (
    <Stack gap="lg">
      <section aria-labelledby="incident-documents">
        <Title order={2} size="h3" id="incident-documents" mb="xs">
          Documents
        </Title>
        {incident.documents.length === 0 ? (
          <Text>No documents: the incident's storage plugin writes them when it has one.</Text>
        ) : (
          <Table striped aria-label="Documents">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {incident.documents.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{external(d.weblink, d.name)}</Table.Td>
                  <Table.Td>{d.resource_type ?? ''}</Table.Td>
                  <Table.Td>
                    <Time value={d.created_at} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
      <section aria-labelledby="incident-cases">
        <Title order={2} size="h3" id="incident-cases" mb="xs">
          Linked cases
        </Title>
        {incident.cases.length === 0 ? (
          <Text>No linked cases.</Text>
        ) : (
          <Stack gap={4} component="ul">
            {incident.cases.map((c) => (
              <li key={c.id}>
                <Anchor component={Link} to={`/${organization}/cases/${encodeURIComponent(c.name ?? String(c.id))}`}>
                  {c.name ?? `Case ${c.id}`}
                </Anchor>
              </li>
            ))}
          </Stack>
        )}
      </section>
      <section aria-labelledby="incident-workflows">
        <Title order={2} size="h3" id="incident-workflows" mb="xs">
          Workflow runs
        </Title>
        {incident.workflow_instances.length === 0 ? (
          <Text>No workflows have run for this incident.</Text>
        ) : (
          <Table striped aria-label="Workflow runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Workflow</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Why</Table.Th>
                <Table.Th>Started</Table.Th>
                <Table.Th>Artifacts</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {incident.workflow_instances.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td>{external(w.weblink, w.workflow.name)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOR[w.status ?? ''] ?? 'gray'}>
                      {w.status ?? 'Unknown'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{w.run_reason ?? ''}</Table.Td>
                  <Table.Td>
                    <Time value={w.created_at} />
                  </Table.Td>
                  <Table.Td>
                    {w.artifacts.map((a) => (
                      <div key={a.weblink ?? a.name}>{external(a.weblink, a.name)}</div>
                    ))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
    </Stack>
  );
}
