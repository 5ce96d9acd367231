// Sign-in and registration share one form: email and password, checked against the API's own shapes
// (UserLogin, UserRegister), then the token kept and the person sent on to where they were going.
// A registration the API answers without a token waits for a mailed link (or the address has an
// account, which a person with an invitation accepts by signing in: the invitation is then accepted).
import { Button, PasswordInput, Text, TextInput } from '@mantine/core';
import type { TSchema } from '@sinclair/typebox';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, api, orgPath } from '../../api/client.ts';
import { saveToken } from '../../api/token.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { shapeResolver } from '../../lib/form.ts';
import { AuthCard } from './AuthCard.tsx';

interface Fields {
  email: string;
  password: string;
  invitation?: string;
}

/** Where a signed-in person goes next: the `next` page they were sent from, else the organization's incidents. */
export const nextPage = (organization: string, next: string | null) => (next?.startsWith('/') && !next.startsWith('//') ? next : `/${organization}/incidents`);

/**
 * The API answers a failed sign-in as Dispatch does, with two items ("Invalid username.", "Invalid
 * password."), whichever was wrong: the person is told plainly, without calling a valid address an
 * invalid username.
 */
function wrongCredentials(error: unknown) {
  const items = error instanceof ApiError && error.status === 422 && Array.isArray(error.detail) ? (error.detail as { type?: string }[]) : [];
  if (!items.some((d) => d.type === 'value_error.invalid.username')) return error;
  return new ApiError(422, 'The e-mail address or the password is not right.', (error as ApiError).detail);
}

/** Accepts the invitation of the person just signed in; one they have accepted already (409) is no error. */
async function acceptInvitation(invitation: string) {
  try {
    await api('/invitations/accept', { method: 'POST', body: { token: invitation } });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
}

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
    mutationFn: async (fields: Fields) => {
      const res = await api<{ token: string | null }>(orgPath(organization, `/auth/${props.action}`), { method: 'POST', body: fields }).catch(
        (error: unknown) => Promise.reject(wrongCredentials(error)),
      );
      if (res.token) saveToken(res.token);
      if (res.token && props.action === 'login' && invitation) await acceptInvitation(invitation);
      return res;
    },
    onSuccess: ({ token }) => {
      if (!token) return;
      localStorage.setItem('muster.organization', organization);
      navigate(nextPage(organization, params.get('next')), { replace: true });
    },
  });
  const errors = form.formState.errors;
  if (submit.data && !submit.data.token) {
    return (
      <AuthCard title="Check your inbox">
        <Text role="status">
          {invitation
            ? 'This address may already have an account. Sign in with it, and the invitation is accepted.'
            : `If ${form.getValues('email')} is new here, a link to confirm it is on its way. If it already has an account, sign in (or reset your password) instead.`}
        </Text>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={props.title}>
      {props.before}
      {props.password === false ? null : (
        <form onSubmit={form.handleSubmit((fields) => submit.mutate(fields))} noValidate>
          <ErrorAlert error={submit.error} title={props.action === 'login' ? 'Could not sign in' : 'Could not register'} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            {...form.register('email')}
            error={errors.email && 'Enter an email address'}
            required
            mb="md"
          />
          <PasswordInput
            label="Password"
            autoComplete={props.action === 'login' ? 'current-password' : 'new-password'}
            {...form.register('password')}
            error={errors.password && 'Enter a password'}
            required
            mb="md"
          />
          <Button type="submit" loading={submit.isPending} fullWidth>
            {props.submit}
          </Button>
        </form>
      )}
      <Text size="sm">{props.footer}</Text>
    </AuthCard>
  );
}
