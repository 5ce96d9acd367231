// The signal instances that opened or joined the case, newest first, each one's raw data viewable.
import { Anchor, Button, Code, Modal, ScrollArea, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { Time } from '../../components/Time.tsx';
import type { SignalInstance } from './types.ts';

export function SignalInstances({ organization, instances }: { organization: string; instances: SignalInstance[] }) {
  const [shown, setShown] = useState<SignalInstance | null>(null);
  if (!instances.length) return <Text c="dimmed">No signal instance belongs to this case.</Text>;
  const sorted = [...instances].sort((a, b) => b.created_at.localeCompare(a.created_at));
  return (
    <>
      <ScrollArea>
        <Table aria-label="Signal instances" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Received</Table.Th>
              <Table.Th>Signal</Table.Th>
              <Table.Th>Fingerprint</Table.Th>
              <Table.Th>Entities</Table.Th>
              <Table.Th>Raw data</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((s) => (
              <Table.Tr key={`${s.signal.id}-${s.created_at}-${s.fingerprint ?? ''}`}>
                <Table.Td>
                  <Time value={s.created_at} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/${organization}/signals/${s.signal.id}`} size="sm">
                    {s.signal.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Code>{s.fingerprint ?? '-'}</Code>
                </Table.Td>
                <Table.Td>{(s.entities ?? []).map((e) => e.value).join(', ') || '-'}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant="default" onClick={() => setShown(s)} aria-label={`Raw data of ${s.signal.name} at ${s.created_at}`}>
                    View
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Modal opened={shown !== null} onClose={() => setShown(null)} title={shown ? `Raw data: ${shown.signal.name}` : ''} size="xl">
        <Code block>{shown ? JSON.stringify(shown.raw, null, 2) : ''}</Code>
      </Modal>
    </>
  );
}
