// A forgotten password: without a token, ask for a link (the answer is the same whether or not the
// address has an account); with the token from the mailed link, choose a new password, which signs
// the person in and ends every older session.
import { Anchor, Button, PasswordInput, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { saveToken } from '../../api/token.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { AuthCard } from './AuthCard.tsx';

/** NIST SP 800-63B's minimum, as the API checks it. */
export const PASSWORD_MIN = 8;

function AskForLink({ organization }: { organization: string }) {
  const [email, setEmail] = useState('');
  const ask = useMutation({ mutationFn: () => api(orgPath(organization, '/auth/password-reset'), { method: 'POST', body: { email } }) });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    ask.mutate();
  };
  if (ask.isSuccess) {
    return (
      <Text role="status">
        If {email} has an account here, a link to set a new password is on its way. It works once, for an hour. No mail? Ask your Muster operator.
      </Text>
    );
  }
  return (
    <form onSubmit={onSubmit}>
      <ErrorAlert error={ask.error} title="The link could not be asked for" />
      <TextInput label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} required mb="md" />
      <Button type="submit" loading={ask.isPending} fullWidth>
        Send me a link
      </Button>
    </form>
  );
}

function ChooseNew({ organization, token }: { organization: string; token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const short = password.length > 0 && [...password].length < PASSWORD_MIN;
  const set = useMutation({
    mutationFn: () => api<{ token: string }>(orgPath(organization, '/auth/password-reset/complete'), { method: 'POST', body: { token, password } }),
    onSuccess: (res) => {
      saveToken(res.token);
      localStorage.setItem('muster.organization', organization);
      navigate(`/${organization}/incidents`, { replace: true });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!short) set.mutate();
  };
  return (
    <form onSubmit={onSubmit}>
      <ErrorAlert error={set.error} title="The password was not set" />
      <PasswordInput
        label="New password"
        description={`At least ${PASSWORD_MIN} characters; a few words you remember are best.`}
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        error={short ? `At least ${PASSWORD_MIN} characters` : undefined}
        required
        mb="md"
      />
      <Button type="submit" loading={set.isPending} fullWidth>
        Set password and sign in
      </Button>
    </form>
  );
}

export default function ResetPage() {
  const organization = useParams().organization ?? 'default';
  const token = useSearchParams()[0].get('token');
  return (
    <AuthCard title={token ? 'Choose a new password' : 'Forgot your password?'}>
      {token ? <ChooseNew organization={organization} token={token} /> : <AskForLink organization={organization} />}
      <Text size="sm">
        <Anchor component={Link} to={`/${organization}/auth/login`}>
          Back to sign in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
