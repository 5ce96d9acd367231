import { Alert, Anchor, Button, Divider } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { UserLogin } from '../../../../src/app/ui-shapes.ts';
import { api, orgPath } from '../../api/client.ts';
import { AuthForm } from './AuthForm.tsx';

/** What the organization's sign-in offers (GET /{organization}/auth/methods). */
export interface SignInMethods {
  password: boolean;
  sso: { name: string; url: string } | null;
}

export default function LoginPage() {
  const organization = useParams().organization ?? 'default';
  const [params] = useSearchParams();
  const methods = useQuery({
    queryKey: [organization, 'auth-methods'],
    queryFn: ({ signal }) => api<SignInMethods>(orgPath(organization, '/auth/methods'), { signal }),
    staleTime: 60_000,
    retry: false,
  });
  const sso = methods.data?.sso;
  // Until the methods are known (or if they cannot be read), the password form is offered as before.
  const password = methods.data?.password ?? true;
  return (
    <AuthForm
      title="Sign in"
      action="login"
      shape={UserLogin}
      submit="Sign in"
      password={password}
      before={
        sso ? (
          <>
            <Button component="a" href={sso.url} variant={password ? 'default' : 'filled'}>
              Sign in with {sso.name}
            </Button>
            {password ? <Divider label="or with a password" labelPosition="center" /> : null}
          </>
        ) : methods.data && !password ? (
          <Alert color="yellow" title="No way to sign in">
            Password sign-in is turned off in this organization and single sign-on is not available.
          </Alert>
        ) : null
      }
      footer={
        <>
          New here?{' '}
          <Anchor component={Link} to={`/${organization}/auth/register?${params}`}>
            Register
          </Anchor>
          {' · '}
          <Anchor component={Link} to={`/${organization}/auth/reset`}>
            Forgot your password?
          </Anchor>
        </>
      }
    />
  );
}
