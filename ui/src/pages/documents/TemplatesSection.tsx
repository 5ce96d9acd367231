// Settings > Templates: the project's Markdown templates of records' documents (incident, case,
// post-incident review). A kind without one uses Muster's own; creating one starts it empty, and
// the editor is the documents' own (versions, conflicts, export).
import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, orgPath } from '../../api/client.ts';
import { useAll } from '../../api/list.ts';
import { useOrganization } from '../../api/session.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { DocumentEditor } from './DocumentPage.tsx';

const KINDS: [string, string][] = [
  ['dispatch-incident-document-template', 'Incident document'],
  ['dispatch-case-document-template', 'Case document'],
  ['dispatch-incident-review-document-template', 'Post-incident review'],
];

interface TemplateDoc {
  id: number;
  name: string;
  resource_type: string | null;
  project: { name: string };
}

export function TemplatesSection() {
  const organization = useOrganization();
  const queryClient = useQueryClient();
  const documents = useAll<TemplateDoc>(organization, '/documents');
  const projects = useAll<{ name: string; default?: boolean }>(organization, '/projects');
  const [editing, setEditing] = useState<number | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  if (documents.error || projects.error) return <ErrorAlert error={documents.error ?? projects.error} />;
  if (!documents.data || !projects.data) return <Loading />;
  const project = projects.data.find((p) => p.default) ?? projects.data[0];
  const create = async (type: string, label: string) => {
    try {
      const made = await api<TemplateDoc>(orgPath(organization, '/documents'), {
        method: 'POST',
        body: { name: `${label} template`, resource_type: type, project: { name: project.name } },
      });
      await queryClient.invalidateQueries({ queryKey: [organization, '/documents'] });
      setEditing(made.id);
    } catch (error) {
      setProblem(error);
    }
  };
  if (editing !== null) return <DocumentEditor organization={organization} id={editing} back={`/${organization}/settings/templates`} />;
  return (
    <Stack>
      <Title order={1} size="h2">
        Templates
      </Title>
      <Text size="sm">
        Records' documents are written from these Markdown templates; {'{{placeholders}}'} such as {'{{title}}'} or {'{{timeline}}'} take the record's facts. A
        kind without a template of the project uses Muster's own.
      </Text>
      {problem ? <ErrorAlert error={problem} /> : null}
      <Table aria-label="Templates">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Template</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {KINDS.map(([type, label]) => {
            const own = documents.data.find((d) => d.resource_type === type && d.project.name === project?.name);
            return (
              <Table.Tr key={type}>
                <Table.Td>{label}</Table.Td>
                <Table.Td>{own ? own.name : "Muster's own"}</Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    {own ? (
                      <Button size="xs" variant="light" onClick={() => setEditing(own.id)}>
                        Edit {label.toLowerCase()} template
                      </Button>
                    ) : (
                      <Button size="xs" variant="light" onClick={() => create(type, label)} disabled={!project}>
                        Create {label.toLowerCase()} template
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
