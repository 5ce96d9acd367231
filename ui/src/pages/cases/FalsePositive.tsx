// Triage's quickest answer: a case a signal opened closed as a false positive, its reason required,
// and on request the same signal's other open cases with it (POST /cases/{id}/false-positive).
import { Button, Checkbox, Group, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, orgPath } from '../../api/client.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import type { Case } from './types.ts';

type Closed = { closed: { id: number; name: string | null }[] };

export function FalsePositive({ organization, c }: { organization: string; c: Case }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [similar, setSimilar] = useState(true);
  const mark = useMutation({
    mutationFn: () => api<Closed>(orgPath(organization, `/cases/${c.id}/false-positive`), { method: 'POST', body: { reason, similar } }),
    onSuccess: () => {
      setOpen(false);
      client.invalidateQueries({ queryKey: [organization] });
    },
  });
  if (c.status === 'Closed') {
    return mark.data ? (
      <Text size="sm" role="status">
        Closed as a false positive: {mark.data.closed.map((x) => x.name ?? x.id).join(', ')}
      </Text>
    ) : null;
  }
  if (!open) {
    return (
      <Button variant="light" color="gray" onClick={() => setOpen(true)}>
        False positive
      </Button>
    );
  }
  return (
    <form
      aria-label="False positive"
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim()) mark.mutate();
      }}
    >
      <ErrorAlert error={mark.error} title="Could not close the case" />
      <TextInput label="Why is it a false positive?" value={reason} onChange={(e) => setReason(e.currentTarget.value)} required autoFocus mb="xs" />
      <Checkbox label="Also close the other open cases of this signal" checked={similar} onChange={(e) => setSimilar(e.currentTarget.checked)} mb="xs" />
      <Group gap="xs">
        <Button type="submit" loading={mark.isPending} disabled={!reason.trim()}>
          Close as false positive
        </Button>
        <Button variant="subtle" color="gray" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </Group>
    </form>
  );
}
