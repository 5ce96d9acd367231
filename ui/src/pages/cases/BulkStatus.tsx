// Sets the status of the selected cases. Each case is read whole first: an update replaces its
// links (tags, related, duplicates, incidents) with what the body holds, so the body carries them.
import { Button, Group, Select, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, orgPath } from '../../api/client.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { putCase } from './case-api.ts';
import { type Case, CASE_STATUSES, type CaseStatus } from './types.ts';

export function BulkStatus({ organization, ids, onDone }: { organization: string; ids: number[]; onDone: () => void }) {
  const [status, setStatus] = useState<CaseStatus | null>(null);
  const apply = useMutation({
    mutationFn: async (to: CaseStatus) => {
      const failed: string[] = [];
      for (const id of ids) {
        try {
          const c = await api<Case>(orgPath(organization, `/cases/${id}`));
          if (c.status !== to) await putCase(organization, c, { status: to });
        } catch (error) {
          failed.push(`case ${id}: ${(error as Error).message}`);
        }
      }
      if (failed.length) throw new Error(`Not every case changed. ${failed.join('; ')}`);
    },
    onSuccess: onDone,
  });
  if (!ids.length) return null;
  return (
    <>
      <Group gap="sm" align="end">
        <Text size="sm">{ids.length} selected</Text>
        <Select
          aria-label="New status for the selected cases"
          placeholder="Set status…"
          data={[...CASE_STATUSES]}
          value={status}
          onChange={(v) => setStatus(v as CaseStatus | null)}
          size="xs"
          w={160}
        />
        <Button size="xs" disabled={!status} loading={apply.isPending} onClick={() => status && apply.mutate(status)}>
          Apply to {ids.length}
        </Button>
      </Group>
      <ErrorAlert error={apply.error} title="Status change" />
    </>
  );
}
