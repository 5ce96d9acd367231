// The frame of every page a person sees before they are signed in: a titled card naming the organization.
import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';

export function AuthCard(props: { title: string; children: ReactNode }) {
  const organization = useParams().organization ?? 'default';
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={380} radius="md">
        <Stack>
          <div>
            <Title order={1} size="h2">
              {props.title}
            </Title>
            <Text c="dimmed" size="sm">
              Muster · organization <b>{organization}</b>
            </Text>
          </div>
          {props.children}
        </Stack>
      </Paper>
    </Center>
  );
}
