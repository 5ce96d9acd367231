// The signed-in person's own password: changed with the current one. Every other session of theirs
// ends; this one carries on with the new token the API answers.
import { Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, orgPath } from '../../api/client.ts';
import { useOrganization } from '../../api/session.ts';
import { saveToken } from '../../api/token.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { PASSWORD_MIN } from '../auth/ResetPage.tsx';

export function AccountSection() {
  const organization = useOrganization();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const short = next.length > 0 && [...next].length < PASSWORD_MIN;
  const change = useMutation({
    mutationFn: () =>
      api<{ token: string }>(orgPath(organization, '/auth/password'), { method: 'POST', body: { current_password: current, new_password: next } }),
    onSuccess: (res) => {
      saveToken(res.token);
      setCurrent('');
      setNext('');
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!short) change.mutate();
  };
  return (
    <Stack maw={420}>
      <div>
        <Title order={1}>Password</Title>
        <Text c="dimmed">Your password is the same in every organization you belong to. Changing it signs you out everywhere else.</Text>
      </div>
      <form onSubmit={onSubmit}>
        <Stack>
          <ErrorAlert error={change.error} title="The password was not changed" />
          {change.isSuccess ? <Text role="status">Your password is changed; other sessions are signed out.</Text> : null}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label="New password"
            description={`At least ${PASSWORD_MIN} characters.`}
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={short ? `At least ${PASSWORD_MIN} characters` : undefined}
            required
          />
          <Button type="submit" loading={change.isPending} w="fit-content">
            Change password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
