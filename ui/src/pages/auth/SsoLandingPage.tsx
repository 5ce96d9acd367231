// Where single sign-on ends (/{organization}/auth/sso#token=...): the API sends the browser here
// with Muster's token in the fragment, which no server ever receives. The token is kept exactly as
// the password sign-in keeps it, taken out of the address bar and history, and the person moves on.
import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { saveToken } from '../../api/token.ts';
import { Loading } from '../../components/Feedback.tsx';

export default function SsoLandingPage() {
  const organization = useParams().organization ?? 'default';
  const navigate = useNavigate();
  const { hash } = useLocation();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const token = new URLSearchParams(hash.slice(1)).get('token');
    if (!token) {
      setFailed(true);
      return;
    }
    saveToken(token);
    localStorage.setItem('muster.organization', organization);
    navigate(`/${organization}/incidents`, { replace: true });
  }, [organization, navigate, hash]);
  if (!failed) return <Loading />;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={380} radius="md">
        <Stack>
          <Title order={1} size="h2">
            Single sign-on did not finish
          </Title>
          <Text>The sign-in brought no token back.</Text>
          <Anchor component={Link} to={`/${organization}/auth/login`}>
            Back to sign-in
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
