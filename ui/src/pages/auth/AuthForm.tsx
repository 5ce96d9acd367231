// Sign-in and registration share one form: email and password, checked against the API's own shapes
// (UserLogin, UserRegister), then the token kept and the person sent on to where they were going.
import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import type { TSchema } from '@sinclair/typebox';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { saveToken } from '../../api/token.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { shapeResolver } from '../../lib/form.ts';

interface Fields {
  email: string;
  password: string;
  invitation?: string;
}

/** Where a signed-in person goes next: the `next` page they were sent from, else the organization's incidents. */
export const nextPage = (organization: string, next: string | null) => (next?.startsWith('/') && !next.startsWith('//') ? next : `/${organization}/incidents`);

export function AuthForm(props: {
  title: string;
  action: 'login' | 'register';
  shape: TSchema;
  submit: string;
  footer: ReactNode;
  /** Shown above the form (single sign-on's button). */
  before?: ReactNode;
  /** false: no e-mail and password fields (the organization signs in with single sign-on only). */
  password?: boolean;
}) {
  const organization = useParams().organization ?? 'default';
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const invitation = params.get('invitation') ?? undefined;
  const form = useForm<Fields>({ resolver: shapeResolver<Fields>(props.shape), defaultValues: { email: '', password: '', invitation } });
  const submit = useMutation({
    mutationFn: (fields: Fields) => api<{ token: string | null }>(orgPath(organization, `/auth/${props.action}`), { method: 'POST', body: fields }),
    onSuccess: ({ token }) => {
      if (!token) return;
      saveToken(token);
      localStorage.setItem('muster.organization', organization);
      navigate(nextPage(organization, params.get('next')), { replace: true });
    },
  });
  const errors = form.formState.errors;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={380} radius="md">
        <form onSubmit={form.handleSubmit((fields) => submit.mutate(fields))} noValidate>
          <Stack>
            <div>
              <Title order={1} size="h2">
                {props.title}
              </Title>
              <Text c="dimmed" size="sm">
                Muster · organization <b>{organization}</b>
              </Text>
            </div>
            {props.before}
            {props.password === false ? null : (
              <>
                <ErrorAlert error={submit.error} title={props.action === 'login' ? 'Could not sign in' : 'Could not register'} />
                <TextInput
                  label="Email"
                  type="email"
                  autoComplete="email"
                  {...form.register('email')}
                  error={errors.email && 'Enter an email address'}
                  required
                />
                <PasswordInput
                  label="Password"
                  autoComplete={props.action === 'login' ? 'current-password' : 'new-password'}
                  {...form.register('password')}
                  error={errors.password && 'Enter a password'}
                  required
                />
                <Button type="submit" loading={submit.isPending}>
                  {props.submit}
                </Button>
              </>
            )}
            <Text size="sm">{props.footer}</Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
