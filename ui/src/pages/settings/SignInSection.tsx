// How members sign in: whether the organization accepts passwords beside single sign-on (Owners
// set it, and only while a single sign-on provider is configured, so that members keep a way in).
import { Alert, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, orgPath } from '../../api/client.ts';
import { useOrganization } from '../../api/session.ts';
import { ErrorAlert, Loading } from '../../components/Feedback.tsx';

interface SignIn {
  password_login: boolean;
  sso: { name: string; issuer: string } | null;
}

export function SignInSection() {
  const organization = useOrganization();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: [organization, '/sign-in'],
    queryFn: ({ signal }) => api<SignIn>(orgPath(organization, '/sign-in'), { signal }),
  });
  const [passwordLogin, setPasswordLogin] = useState(true);
  useEffect(() => {
    if (current.data) setPasswordLogin(current.data.password_login);
  }, [current.data]);
  const save = useMutation({
    mutationFn: (body: { password_login: boolean }) => api<SignIn>(orgPath(organization, '/sign-in'), { method: 'PUT', body }),
    onSuccess: (data) => {
      queryClient.setQueryData([organization, '/sign-in'], data);
      queryClient.invalidateQueries({ queryKey: [organization, 'auth-methods'] });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ password_login: passwordLogin });
  };
  return (
    <Stack gap="xl">
      <div>
        <Title order={1}>Sign-in methods</Title>
        <Text c="dimmed">How members of this organization sign in. Owners change it.</Text>
      </div>
      {current.error ? (
        <ErrorAlert error={current.error} title="The sign-in methods could not be read" />
      ) : !current.data ? (
        <Loading />
      ) : (
        <form onSubmit={onSubmit}>
          <Stack>
            {current.data.sso ? (
              <Text>
                Single sign-on with <b>{current.data.sso.name}</b> ({current.data.sso.issuer}) is on.
              </Text>
            ) : (
              <Alert color="gray" title="Single sign-on is not configured">
                Passwords stay on until the server is given an OpenID Connect provider (MUSTER_OIDC_ISSUER).
              </Alert>
            )}
            <Switch
              label="Members may sign in with a password"
              description="When off, only single sign-on signs people in; API tokens keep working."
              checked={passwordLogin}
              disabled={!current.data.sso}
              onChange={(e) => setPasswordLogin(e.currentTarget.checked)}
            />
            <ErrorAlert error={save.error} title="The sign-in methods were not changed" />
            {save.isSuccess && !save.isPending ? <Text role="status">Saved: password sign-in is {save.data.password_login ? 'on' : 'off'}.</Text> : null}
            <Group>
              <Button type="submit" loading={save.isPending} disabled={!current.data.sso}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
