// The page a confirmation link opens: one click confirms the address (a mail scanner that fetches
// the link confirms nothing) and signs the person in.
import { Button, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { saveToken } from '../../api/token.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { AuthCard } from './AuthCard.tsx';

export default function ConfirmPage() {
  const organization = useParams().organization ?? 'default';
  const token = useSearchParams()[0].get('token') ?? '';
  const navigate = useNavigate();
  const confirm = useMutation({
    mutationFn: () => api<{ token: string }>(orgPath(organization, '/auth/confirm'), { method: 'POST', body: { token } }),
    onSuccess: (res) => {
      saveToken(res.token);
      localStorage.setItem('muster.organization', organization);
      navigate(`/${organization}/incidents`, { replace: true });
    },
  });
  return (
    <AuthCard title="Confirm your address">
      <Text>Confirming tells Muster this address is yours: you then take part in the records that name it.</Text>
      <ErrorAlert error={confirm.error} title="The address was not confirmed" />
      <Button onClick={() => confirm.mutate()} loading={confirm.isPending} disabled={!token}>
        Confirm and sign in
      </Button>
    </AuthCard>
  );
}
