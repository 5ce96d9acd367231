import { Anchor } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { UserLogin } from '../../../../src/domains/auth/schema.ts';
import { AuthForm } from './AuthForm.tsx';

export default function LoginPage() {
  const organization = useParams().organization ?? 'default';
  const [params] = useSearchParams();
  return (
    <AuthForm
      title="Sign in"
      action="login"
      shape={UserLogin}
      submit="Sign in"
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
