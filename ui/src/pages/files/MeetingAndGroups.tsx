// An incident's meeting room (its `conference`) and its tactical and notifications groups.
import { Anchor, List, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, orgPath } from '../../api/client.ts';
import { LIVE_INTERVAL } from '../../api/list.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';

interface Group {
  id: number;
  kind: string;
  name: string;
  email: string;
}

export function MeetingAndGroups({
  organization,
  incident,
}: {
  organization: string;
  incident: { id: number; conference?: { weblink?: string | null } | null };
}) {
  const path = `/incidents/${incident.id}/groups`;
  // Made shortly after the incident: asked again until they are there.
  const groups = useQuery({
    queryKey: [organization, path],
    queryFn: () => api<Group[]>(orgPath(organization, path)),
    refetchInterval: (query) => (query.state.data?.length ? false : LIVE_INTERVAL),
  });
  const link = incident.conference?.weblink;
  return (
    <Stack gap="xs">
      {link ? (
        <Text>
          Meeting:{' '}
          <Anchor href={link} target="_blank" rel="noreferrer">
            join the incident's room
          </Anchor>
        </Text>
      ) : (
        <Text>No meeting room yet: the conference plugin opens one shortly after the incident is created.</Text>
      )}
      {groups.error ? <ErrorAlert error={groups.error} title="The groups could not be read" /> : null}
      {groups.data?.length ? (
        <List aria-label="Groups">
          {groups.data.map((g) => (
            <List.Item key={g.id}>
              {g.kind === 'tactical' ? 'Tactical group' : 'Notifications group'}: <Anchor href={`mailto:${g.email}`}>{g.email}</Anchor>
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}
