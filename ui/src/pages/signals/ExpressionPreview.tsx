// What the expression being edited matches among the project's newest instances, asked of the
// API's own list (preview.ts), refreshed as the expression changes.
import { Badge, Code, Group, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useList } from '../../api/list.ts';
import { EmptyState, ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { markMatches, parseExpression, previewRequests } from './preview.ts';
import type { SignalInstance } from './types.ts';

export function ExpressionPreview(props: { organization: string; projectId: number | undefined; expression: string }) {
  const [size, setSize] = useState<number | string>(25);
  const [text] = useDebouncedValue(props.expression, 400);
  const parsed = parseExpression(text);
  const count = typeof size === 'number' && size > 0 ? Math.min(size, 200) : 25;
  const requests = previewRequests(parsed.ok ? parsed.expression : [], props.projectId ?? 0, count);
  const recent = useList<SignalInstance>(props.organization, '/signals/instances', requests.recent, { enabled: !!props.projectId });
  const matching = useList<SignalInstance>(props.organization, '/signals/instances', requests.matching, { enabled: !!props.projectId && parsed.ok });
  const runs = parsed.ok && !matching.error;
  const rows = markMatches(recent.data?.items ?? [], runs ? (matching.data?.items ?? []) : []);
  const hits = rows.filter((r) => r.matches).length;

  return (
    <Stack component="section" aria-labelledby="preview-title" gap="sm">
      <Group justify="space-between" align="end">
        <Title order={2} size="h3" id="preview-title">
          What it matches
        </Title>
        <NumberInput label="Newest instances" value={size} onChange={setSize} min={1} max={200} w={150} size="xs" />
      </Group>
      <Text size="sm">
        The expression is run by the API over the project's newest instances, as ingestion runs it. A deduplicate filter acts only on a match that also has the
        fingerprint of an earlier match within its window.
      </Text>
      {!props.projectId ? <Text>Choose a project.</Text> : null}
      {!parsed.ok ? <ErrorAlert error={new Error(parsed.error)} title="The expression is not valid" /> : null}
      {parsed.ok && matching.error ? <ErrorAlert error={matching.error} title="The expression cannot run" /> : null}
      <ErrorAlert error={recent.error} title="The instances could not be read" />
      {runs && recent.data && matching.data ? (
        <Text fw={600} role="status" aria-live="polite">
          {hits} of the {rows.length} newest instances match; {matching.data.total} in all.
        </Text>
      ) : null}
      {recent.isLoading ? <Loading label="Loading instances" /> : null}
      {recent.data && rows.length === 0 ? (
        <EmptyState title="No instances in this project yet">Ingest a test instance from a definition's page.</EmptyState>
      ) : null}
      {rows.length > 0 ? (
        <Table aria-label="Newest instances and whether the expression matches them" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Match</Table.Th>
              <Table.Th>Received</Table.Th>
              <Table.Th>Instance</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(({ instance, matches }) => (
              <Table.Tr key={instance.id}>
                <Table.Td>
                  {!runs ? (
                    '?'
                  ) : matches ? (
                    <Badge miw="max-content" color="teal.9">
                      yes
                    </Badge>
                  ) : (
                    <Badge miw="max-content" color="gray.7">
                      no
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Time value={instance.created_at} />
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>
                  <Text size="sm">
                    {instance.signal.name}
                    {instance.entities.length ? ` · ${instance.entities.map((e) => e.value).join(', ')}` : ''}
                  </Text>
                  <Code>{excerpt(instance.raw)}</Code>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}

const excerpt = (raw: unknown) => {
  const text = JSON.stringify(raw);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};
