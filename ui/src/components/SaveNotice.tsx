// What a record page says after a save met someone else's: their changes kept beside this person's
// ("Title is now …"), or, when both changed the same field, both values and the choice between them.
import { Alert, Button, Group, List, Table, Text } from '@mantine/core';
import { createContext, type ReactNode, useContext, useState } from 'react';
import type { Change, Clash } from '../api/save.ts';
import { READABLE } from './Feedback.tsx';

export interface Notice {
  theirs: Change[];
  clashes?: Clash[];
  /** Saves this person's values over theirs. */
  keepMine?: () => void;
}

const NoticeContext = createContext<(notice: Notice | null) => void>(() => {});

/** Shows a save's notice to the person who saved. */
export const useSaveNotice = () => useContext(NoticeContext);

export function SaveNotices({ thing, children }: { thing: string; children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <NoticeContext.Provider value={setNotice}>
      {notice ? <NoticeBanner thing={thing} notice={notice} close={() => setNotice(null)} /> : null}
      {children}
    </NoticeContext.Provider>
  );
}

const quoted = (value: string) => (value ? `“${value}”` : 'empty');

function NoticeBanner({ thing, notice, close }: { thing: string; notice: Notice; close: () => void }) {
  if (notice.clashes?.length) {
    return (
      <Alert styles={READABLE} color="orange" variant="light" role="alert" title={`Not saved: someone else changed the same field of this ${thing} meanwhile`}>
        <Table aria-label="Both changes" withTableBorder={false} mb="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Theirs (saved)</Table.Th>
              <Table.Th>Yours</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {notice.clashes.map((c) => (
              <Table.Tr key={c.field}>
                <Table.Td>{c.field}</Table.Td>
                <Table.Td>{quoted(c.theirs)}</Table.Td>
                <Table.Td>{quoted(c.mine)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group>
          <Button
            size="xs"
            onClick={() => {
              close();
              notice.keepMine?.();
            }}
          >
            Save mine instead
          </Button>
          <Button size="xs" variant="default" onClick={close}>
            Keep theirs
          </Button>
        </Group>
      </Alert>
    );
  }
  return (
    <Alert
      styles={READABLE}
      color="blue"
      variant="light"
      role="status"
      title={`Someone else changed this ${thing} meanwhile; your change was saved beside theirs`}
    >
      <List size="sm">
        {notice.theirs.map((c) => (
          <List.Item key={c.field}>
            {c.field} is now {quoted(c.value)}
          </List.Item>
        ))}
      </List>
      <Text size="sm" mt="xs">
        <Button size="compact-xs" variant="default" onClick={close}>
          Dismiss
        </Button>
      </Text>
    </Alert>
  );
}
