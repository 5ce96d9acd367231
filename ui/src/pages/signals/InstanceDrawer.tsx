// One signal instance in a drawer: what the filters did, its case, its entities and the raw
// document as it was ingested. Its URL is the table's with `?instance=<id>`.
import { Anchor, Badge, Code, Drawer, Group, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Time } from '../../components/Time.tsx';
import { FilterActionBadge } from './FilterActionBadge.tsx';
import type { SignalInstance } from './types.ts';

export function InstanceDrawer(props: { organization: string; instance: SignalInstance | undefined; missing: boolean; onClose: () => void }) {
  const { instance, organization } = props;
  return (
    <Drawer
      opened={!!instance || props.missing}
      onClose={props.onClose}
      position="right"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={instance ? `Instance of ${instance.signal.name}` : 'Signal instance'}
    >
      {!instance ? (
        <Text>This instance is not on the table's current page any more; it may have moved to another page as newer ones arrived.</Text>
      ) : (
        <Stack>
          <Table variant="vertical" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={160}>Id</Table.Th>
                <Table.Td>
                  <Code>{instance.id}</Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Received</Table.Th>
                <Table.Td>
                  <Time value={instance.created_at} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Definition</Table.Th>
                <Table.Td>
                  <Anchor component={Link} to={`/${organization}/signals/definitions/${instance.signal.id}`}>
                    {instance.signal.name}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Filter action</Table.Th>
                <Table.Td>
                  <FilterActionBadge action={instance.filter_action} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Case</Table.Th>
                <Table.Td>
                  {instance.case?.name ? (
                    <Anchor component={Link} to={`/${organization}/cases/${encodeURIComponent(instance.case.name)}`}>
                      {instance.case.name}
                    </Anchor>
                  ) : (
                    'None'
                  )}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Fingerprint</Table.Th>
                <Table.Td>
                  <Code>{instance.fingerprint ?? 'none'}</Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Entities</Table.Th>
                <Table.Td>
                  <Group gap={4}>
                    {instance.entities.length === 0
                      ? 'None found'
                      : instance.entities.map((e) => (
                          <Badge miw="max-content" key={e.id} variant="outline" color="gray.7" tt="none">
                            {e.entity_type.name}: {e.value}
                          </Badge>
                        ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
              {instance.filter_monitor.length > 0 ? (
                <Table.Tr>
                  <Table.Th>Monitoring filters</Table.Th>
                  <Table.Td>{instance.filter_monitor.map((m) => `${m.name} would ${m.action}`).join('; ')}</Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
          <Text fw={600} component="h2" size="md">
            Raw document
          </Text>
          <Code block aria-label="Raw document">
            {JSON.stringify(instance.raw, null, 2)}
          </Code>
        </Stack>
      )}
    </Drawer>
  );
}
