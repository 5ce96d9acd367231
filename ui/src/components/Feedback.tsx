// What a page shows when there is nothing yet, while it loads, and when the API refused: the API's
// `detail` in words, never a stack.
import { Alert, Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** An alert's title in the text colour: a light alert's tinted title falls short of AA contrast in some colours. */
export const READABLE = { title: { color: 'var(--mantine-color-text)' } };

export function ErrorAlert({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      {message}
    </Alert>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Center py="xl">
      <Stack align="center" gap={4}>
        <Title order={3} size="h4">
          {title}
        </Title>
        {children && (
          <Text c="dimmed" ta="center">
            {children}
          </Text>
        )}
      </Stack>
    </Center>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl">
      <Loader role="status" aria-label={label} />
    </Center>
  );
}
