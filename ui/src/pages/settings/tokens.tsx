// What the API tokens and service accounts sections share: the form that makes a token, the panel
// that shows a new token once (with a copy button and a warning), and the table of tokens.
import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ROLES } from '../../../../src/app/ui-shapes.ts';
import { ROLE_RANK } from '../../api/session.ts';
import { EmptyState } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';

export interface ApiToken {
  id: number;
  name: string;
  prefix: string;
  role: string;
  read_only: boolean;
  user: { id: number; email: string };
  service_account: boolean;
  created_by: { id: number; email: string } | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  last_used_address: string | null;
  revoked_at: string | null;
  /** Only in the answer to its creation. */
  token?: string;
}

export interface TokenCreate {
  name: string;
  role: string;
  read_only: boolean;
  expires_at: string | null;
}

/** Lifetimes offered for a new token, in days (null: it does not expire). */
export const LIFETIMES: [string, number | null][] = [
  ['7 days', 7],
  ['30 days', 30],
  ['90 days', 90],
  ['1 year', 365],
  ['Never', null],
];

/** The expiry a lifetime gives, counted from `now`. */
export const expiryAfter = (days: number | null, now = Date.now()) => (days === null ? null : new Date(now + days * 86_400_000).toISOString());

/** The roles someone with `role` may grant: theirs and those below. */
export const rolesUpTo = (role: string | null): string[] => [...ROLES].filter((r) => (ROLE_RANK[r] ?? 0) <= (ROLE_RANK[role ?? ''] ?? 0));

export function TokenForm({
  maxRole,
  defaultRole,
  pending,
  onCreate,
  submitLabel = 'Create token',
}: {
  maxRole: string | null;
  defaultRole?: string;
  pending: boolean;
  onCreate: (body: TokenCreate) => void;
  submitLabel?: string;
}) {
  const roles = rolesUpTo(maxRole);
  const [name, setName] = useState('');
  const [role, setRole] = useState<string>(defaultRole && roles.includes(defaultRole) ? defaultRole : (roles.at(-1) ?? 'Member'));
  const [readOnly, setReadOnly] = useState(false);
  const [lifetime, setLifetime] = useState('30 days');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    const days = LIFETIMES.find(([label]) => label === lifetime)?.[1] ?? null;
    onCreate({ name: name.trim(), role, read_only: readOnly, expires_at: expiryAfter(days) });
    setName('');
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end">
        <TextInput
          label="Name"
          description="What it is for"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={missing ? 'Required' : undefined}
          maxLength={100}
          required
        />
        <Select label="Role" data={roles} value={role} onChange={(v) => v && setRole(v)} allowDeselect={false} w={140} />
        <Select label="Expires" data={LIFETIMES.map(([label]) => label)} value={lifetime} onChange={(v) => v && setLifetime(v)} allowDeselect={false} w={130} />
        <Checkbox label="Read-only" description="Reads only" checked={readOnly} onChange={(e) => setReadOnly(e.currentTarget.checked)} />
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}

/** A token just made: its clear text, shown this once. */
export function NewToken({ token }: { token: ApiToken | undefined }) {
  if (!token?.token) return null;
  return (
    <Paper withBorder p="sm" role="status" aria-label="New API token">
      <Stack gap="xs">
        <Alert color="yellow" variant="light" title="Copy this token now">
          It is shown only once: Muster keeps only a hash of it. Send it as <Code>Authorization: Bearer</Code> and keep it like a password.
        </Alert>
        <Text size="sm">
          {token.name}: {token.role}
          {token.read_only ? ', read-only' : ''}, {token.expires_at ? 'expires ' : 'does not expire'}
          {token.expires_at ? <Time value={token.expires_at} /> : null}
        </Text>
        <Group wrap="nowrap">
          <Code style={{ overflowWrap: 'anywhere' }} data-testid="new-token">
            {token.token}
          </Code>
          <CopyButton value={token.token}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy token'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Paper>
  );
}

const expired = (t: ApiToken) => !!t.expires_at && Date.parse(t.expires_at) <= Date.now();

export function TokenTable({
  label,
  tokens,
  revoking,
  onRevoke,
  showUser = false,
}: {
  label: string;
  tokens: ApiToken[];
  revoking: number | undefined;
  onRevoke: (token: ApiToken) => void;
  showUser?: boolean;
}) {
  if (tokens.length === 0) return <EmptyState title="No tokens">Create one above: it is shown once.</EmptyState>;
  return (
    <Table aria-label={label} striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Prefix</Table.Th>
          {showUser ? <Table.Th>User</Table.Th> : null}
          <Table.Th>Role</Table.Th>
          <Table.Th>Last used</Table.Th>
          <Table.Th>Expires</Table.Th>
          <Table.Th>Created</Table.Th>
          <Table.Th>Actions</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {tokens.map((t) => (
          <Table.Tr key={t.id}>
            <Table.Td>{t.name}</Table.Td>
            <Table.Td>
              <Code>{t.prefix}…</Code>
            </Table.Td>
            {showUser ? <Table.Td>{t.user.email}</Table.Td> : null}
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Text size="sm">{t.role}</Text>
                {t.read_only ? (
                  <Badge size="sm" variant="light">
                    Read-only
                  </Badge>
                ) : null}
              </Group>
            </Table.Td>
            <Table.Td>
              {t.last_used_at ? (
                <>
                  <Time value={t.last_used_at} />
                  {t.last_used_address ? (
                    <Text size="xs" c="dimmed">
                      from {t.last_used_address}
                    </Text>
                  ) : null}
                </>
              ) : (
                'Never'
              )}
            </Table.Td>
            <Table.Td>
              {t.expires_at ? <Time value={t.expires_at} /> : 'Never'}
              {expired(t) ? (
                <Badge size="sm" color="gray" ml={4}>
                  Expired
                </Badge>
              ) : null}
            </Table.Td>
            <Table.Td>
              <Time value={t.created_at} />
            </Table.Td>
            <Table.Td>
              <Button
                size="compact-xs"
                variant="light"
                color="red"
                loading={revoking === t.id}
                onClick={() => onRevoke(t)}
                aria-label={`Revoke the token ${t.name} (${t.prefix})`}
              >
                Revoke
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
