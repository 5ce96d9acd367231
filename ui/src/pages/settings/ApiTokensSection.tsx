// The signed-in person's own API tokens in this organization: make one (name, role up to their own,
// read-only, expiry), see it once, list them with their last use, revoke them.
import { Code, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orgPath } from '../../api/client.ts';
import { useOrganization, useSession } from '../../api/session.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { type ApiToken, NewToken, type TokenCreate, TokenForm, TokenTable } from './tokens.tsx';

export function ApiTokensSection() {
  const organization = useOrganization();
  const session = useSession();
  const queryClient = useQueryClient();
  const key = [organization, '/api-tokens'];
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api<{ items: ApiToken[]; total: number }>(orgPath(organization, '/api-tokens'), { signal }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: (body: TokenCreate) => api<ApiToken>(orgPath(organization, '/api-tokens'), { method: 'POST', body }),
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: (token: ApiToken) => api(orgPath(organization, `/api-tokens/${token.id}`), { method: 'DELETE' }),
    onSuccess: refresh,
  });

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>API tokens</Title>
        <Text c="dimmed">
          Tokens for scripts and tools that act as you in {organization}, sent as <Code>Authorization: Bearer</Code>. A token's role is never above yours, and
          drops with yours.
        </Text>
      </div>
      {session.role ? (
        <TokenForm maxRole={session.role} defaultRole={session.role} pending={create.isPending} onCreate={(body) => create.mutate(body)} />
      ) : (
        <Loading />
      )}
      <ErrorAlert error={create.error} title="No token was made" />
      <NewToken token={create.data} />
      <ErrorAlert error={revoke.error} title="The token was not revoked" />
      {list.error ? (
        <ErrorAlert error={list.error} title="Your tokens could not be read" />
      ) : !list.data ? (
        <Loading />
      ) : (
        <TokenTable
          label="Your API tokens"
          tokens={list.data.items}
          revoking={revoke.isPending ? revoke.variables?.id : undefined}
          onRevoke={(t) => revoke.mutate(t)}
        />
      )}
    </Stack>
  );
}
