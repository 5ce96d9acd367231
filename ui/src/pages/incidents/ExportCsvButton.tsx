// Downloads every incident the table's filter, search and sort match as CSV, read page by page.
// A read, not a change: no mutation (which would make every query on screen read again).
import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { ListParams } from '../../api/list.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { download, toCsv } from '../../lib/csv.ts';
import { fetchAllIncidents, INCIDENT_CSV_COLUMNS } from './csv.ts';

export function ExportCsvButton({ organization, params }: { organization: string; params: ListParams }) {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const exportAll = async () => {
    setBusy(true);
    setError(null);
    try {
      const rows = await fetchAllIncidents(organization, params, { onProgress: (done, total) => setProgress({ done, total }) });
      const stamp = new Date().toISOString().slice(0, 10);
      download(`incidents-${organization}-${stamp}.csv`, toCsv(INCIDENT_CSV_COLUMNS, rows));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };
  return (
    <Group gap={4} align="end">
      <Button size="xs" variant="default" loading={busy} onClick={exportAll}>
        Export CSV
      </Button>
      {progress ? (
        <Text size="xs" role="status">
          {progress.done} of {progress.total}
        </Text>
      ) : null}
      <ErrorAlert error={error} title="Could not export" />
    </Group>
  );
}
