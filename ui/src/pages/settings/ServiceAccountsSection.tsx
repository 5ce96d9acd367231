// The organization's service accounts (Owners and Managers): accounts that act only through their API
// tokens, with a role no higher than their maker's. Make one, see and make its tokens, deactivate it.
import { Badge, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, orgPath } from '../../api/client.ts';
import { ROLE_RANK, useOrganization, useSession } from '../../api/session.ts';
import { EmptyState, ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { type ApiToken, NewToken, rolesUpTo, type TokenCreate, TokenForm, TokenTable } from './tokens.tsx';

export interface ServiceAccount {
  id: number;
  name: string;
  email: string;
  role: string;
  created_at: string;
  deactivated_at: string | null;
  active_tokens: number;
}

function AccountTokens({ account, maxRole }: { account: ServiceAccount; maxRole: string }) {
  const organization = useOrganization();
  const queryClient = useQueryClient();
  const path = `/service-accounts/${account.id}/tokens`;
  const key = [organization, path];
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => api<{ items: ApiToken[]; total: number }>(orgPath(organization, path), { signal }) });
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: key });
    queryClient.invalidateQueries({ queryKey: [organization, '/service-accounts'] });
  };
  const create = useMutation({ mutationFn: (body: TokenCreate) => api<ApiToken>(orgPath(organization, path), { method: 'POST', body }), onSuccess: refresh });
  const revoke = useMutation({
    mutationFn: (token: ApiToken) => api(orgPath(organization, `/api-tokens/${token.id}`), { method: 'DELETE' }),
    onSuccess: refresh,
  });
  // A token grants no more than the account's role nor the maker's.
  const cap = (ROLE_RANK[account.role] ?? 0) < (ROLE_RANK[maxRole] ?? 0) ? account.role : maxRole;
  return (
    <section aria-labelledby="account-tokens-heading">
      <Stack>
        <Title order={2} size="h3" id="account-tokens-heading">
          Tokens of {account.name}
        </Title>
        <TokenForm key={account.id} maxRole={cap} defaultRole={cap} pending={create.isPending} onCreate={(body) => create.mutate(body)} />
        <ErrorAlert error={create.error} title="No token was made" />
        <NewToken token={create.data} />
        <ErrorAlert error={revoke.error} title="The token was not revoked" />
        {list.error ? (
          <ErrorAlert error={list.error} title="The tokens could not be read" />
        ) : !list.data ? (
          <Loading />
        ) : (
          <TokenTable
            label={`Tokens of ${account.name}`}
            tokens={list.data.items}
            revoking={revoke.isPending ? revoke.variables?.id : undefined}
            onRevoke={(t) => revoke.mutate(t)}
          />
        )}
      </Stack>
    </section>
  );
}

function NewAccount({ maxRole }: { maxRole: string }) {
  const organization = useOrganization();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState('Member');
  const create = useMutation({
    mutationFn: () => api<ServiceAccount>(orgPath(organization, '/service-accounts'), { method: 'POST', body: { name: name.trim(), role } }),
    onSuccess: () => {
      setName('');
      queryClient.invalidateQueries({ queryKey: [organization, '/service-accounts'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Stack gap="xs">
      <form onSubmit={submit}>
        <Group align="flex-end">
          <TextInput
            label="Name"
            description="Letters, digits and dashes, e.g. ci-bot"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            maxLength={60}
          />
          <Select label="Role" data={rolesUpTo(maxRole)} value={role} onChange={(v) => v && setRole(v)} allowDeselect={false} w={140} />
          <Button type="submit" loading={create.isPending}>
            Create service account
          </Button>
        </Group>
      </form>
      <ErrorAlert error={create.error} title="No service account was made" />
      {create.isSuccess && !create.isPending ? <Text role="status">Created {create.data.email}. Make it a token below.</Text> : null}
    </Stack>
  );
}

export function ServiceAccountsSection() {
  const organization = useOrganization();
  const session = useSession();
  const queryClient = useQueryClient();
  const manager = (ROLE_RANK[session.role ?? ''] ?? 0) >= ROLE_RANK.Manager;
  const key = [organization, '/service-accounts'];
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api<{ items: ServiceAccount[]; total: number }>(orgPath(organization, '/service-accounts'), { signal }),
    enabled: manager,
  });
  const [selected, setSelected] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const deactivate = useMutation({
    mutationFn: (account: ServiceAccount) => api(orgPath(organization, `/service-accounts/${account.id}`), { method: 'DELETE' }),
    onSuccess: (_, account) => {
      setConfirming(null);
      if (selected === account.id) setSelected(null);
      queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const heading = (
    <div>
      <Title order={1}>Service accounts</Title>
      <Text c="dimmed">
        Accounts for integrations: they act only through their API tokens, never sign in, and hold no more than their role in {organization}.
      </Text>
    </div>
  );
  if (!session.role) return <Loading />;
  if (!manager) {
    return (
      <Stack>
        {heading}
        <EmptyState title="Owners and Managers only">
          Service accounts are managed by the organization's Owners and Managers; you are {session.role}.
        </EmptyState>
      </Stack>
    );
  }
  const accounts = list.data?.items ?? [];
  const current = accounts.find((a) => a.id === selected && !a.deactivated_at);
  return (
    <Stack gap="lg">
      {heading}
      <NewAccount maxRole={session.role} />
      <ErrorAlert error={deactivate.error} title="The service account was not deactivated" />
      {list.error ? (
        <ErrorAlert error={list.error} title="The service accounts could not be read" />
      ) : !list.data ? (
        <Loading />
      ) : accounts.length === 0 ? (
        <EmptyState title="No service accounts">Create one above, then give it a token.</EmptyState>
      ) : (
        <Table aria-label="Service accounts" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Tokens</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>{a.name}</Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {a.email}
                  </Text>
                </Table.Td>
                <Table.Td>{a.role}</Table.Td>
                <Table.Td>{a.active_tokens}</Table.Td>
                <Table.Td>
                  <Time value={a.created_at} />
                </Table.Td>
                <Table.Td>
                  {a.deactivated_at ? (
                    <Badge color="gray">Deactivated</Badge>
                  ) : (
                    <Group gap={4} wrap="nowrap">
                      <Button size="compact-xs" variant="light" onClick={() => setSelected(a.id)} aria-label={`Tokens of ${a.name}`}>
                        Tokens
                      </Button>
                      {confirming === a.id ? (
                        <Button
                          size="compact-xs"
                          color="red"
                          loading={deactivate.isPending}
                          onClick={() => deactivate.mutate(a)}
                          aria-label={`Confirm: deactivate ${a.name} and revoke its tokens`}
                        >
                          Confirm
                        </Button>
                      ) : (
                        <Button size="compact-xs" variant="light" color="red" onClick={() => setConfirming(a.id)} aria-label={`Deactivate ${a.name}`}>
                          Deactivate
                        </Button>
                      )}
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {current ? <AccountTokens key={current.id} account={current} maxRole={session.role} /> : null}
    </Stack>
  );
}
