import { Anchor } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { UserRegister } from '../../../../src/app/ui-shapes.ts';
import { AuthForm } from './AuthForm.tsx';

// The organization's registration policy is the API's: open, by e-mail domain, or by invitation
// (`?invitation=<token>` from the invitation link); a refusal shows the API's reason.
export default function RegisterPage() {
  const organization = useParams().organization ?? 'default';
  const [params] = useSearchParams();
  return (
    <AuthForm
      title="Register"
      action="register"
      shape={UserRegister}
      submit="Create account"
      footer={
        <>
          Have an account?{' '}
          <Anchor component={Link} to={`/${organization}/auth/login?${params}`}>
            Sign in
          </Anchor>
        </>
      }
    />
  );
}
