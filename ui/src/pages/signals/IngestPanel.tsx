// Ingest a test instance of a definition: the raw JSON is posted to the ingestion route as a
// detection system would post it, and the answer says what the filters did and which case it joined.
import { Anchor, Button, JsonInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { FilterActionBadge } from './FilterActionBadge.tsx';
import type { Signal, SignalInstance } from './types.ts';

/** A document ingestion will match to `signal`: by its variant, else its external id. */
export function sampleRaw(signal: Pick<Signal, 'variant' | 'external_id'>): Record<string, unknown> {
  const key = signal.variant ? { variant: signal.variant } : { externalId: signal.external_id };
  return { ...key, host: 'db-1', severity: 'low', message: 'A test instance' };
}

export function IngestPanel({ organization, signal }: { organization: string; signal: Signal }) {
  const [text, setText] = useState(() => JSON.stringify(sampleRaw(signal), null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const ingest = useMutation({
    mutationFn: (raw: Record<string, unknown>) =>
      api<SignalInstance>(orgPath(organization, '/signals/instances'), { method: 'POST', body: { project: { id: signal.project.id }, raw } }),
  });
  const submit = () => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      setProblem(`Not JSON: ${(error as Error).message}`);
      return;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      setProblem('The raw document is a JSON object.');
      return;
    }
    setProblem(null);
    ingest.mutate(raw as Record<string, unknown>);
  };
  const result = ingest.data;
  return (
    <Stack component="section" aria-labelledby="ingest-title">
      <Title order={2} size="h3" id="ingest-title">
        Ingest a test instance
      </Title>
      <Text size="sm">Posted to the ingestion route as a detection system would post it; it is stored like any other instance, and its filters apply.</Text>
      {!signal.enabled ? (
        <Text fw={600} role="note">
          This definition is not enabled: ingestion refuses its instances.
        </Text>
      ) : null}
      <JsonInput label="Raw document" autosize minRows={8} maxRows={24} value={text} onChange={setText} error={problem} formatOnBlur />
      <Button onClick={submit} loading={ingest.isPending}>
        Ingest instance
      </Button>
      <ErrorAlert error={ingest.error} title="The instance was not ingested" />
      {result ? (
        <Paper withBorder p="sm" role="status">
          <Stack gap={4}>
            <Text fw={700}>Instance ingested</Text>
            <Text size="sm">
              Filter action: <FilterActionBadge action={result.filter_action} />
            </Text>
            <Text size="sm">
              Case:{' '}
              {result.case?.name ? (
                <Anchor component={Link} to={`/${organization}/cases/${encodeURIComponent(result.case.name)}`}>
                  {result.case.name}
                </Anchor>
              ) : (
                'none'
              )}
            </Text>
            <Text size="sm">Entities: {result.entities.map((e) => e.value).join(', ') || 'none found'}</Text>
            <Anchor component={Link} to={`/${organization}/signals/instances?instance=${result.id}`} size="sm">
              See it among the instances
            </Anchor>
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}
