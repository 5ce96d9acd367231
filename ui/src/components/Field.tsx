// A labelled value of a record page (the incident's overview, the case's details): the label above,
// the value (or its in-place editor) beneath.
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}
