// Who may register themselves in the organization (open, by e-mail domain, or by invitation only;
// Owners set it) and the invitations Owners and Managers issue. A new invitation's link is shown
// once: the API keeps only a hash of its token.
import { Button, Code, CopyButton, Group, Paper, Radio, Select, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ROLES } from '../../../../src/app/ui-shapes.ts';
import { api, orgPath } from '../../api/client.ts';
import { useOrganization } from '../../api/session.ts';
import { EmptyState, ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';

interface Registration {
  policy: 'open' | 'domains' | 'invitation';
  domains: string[];
}
interface Invitation {
  id: number;
  email: string | null;
  role: string;
  created_at: string;
  expires_at: string;
  token?: string;
}

const POLICIES: [Registration['policy'], string, string][] = [
  ['open', 'Open', 'Anyone may register as a Member.'],
  ['domains', 'By e-mail domain', 'Addresses of the listed domains may register as Members.'],
  ['invitation', 'By invitation only', 'Only people holding an invitation may register.'],
];

/** Domains typed one a line or separated by commas and spaces. */
export const domainsFrom = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);

function PolicyForm() {
  const organization = useOrganization();
  const current = useQuery({
    queryKey: [organization, '/registration'],
    queryFn: ({ signal }) => api<Registration>(orgPath(organization, '/registration'), { signal }),
  });
  const [policy, setPolicy] = useState<Registration['policy']>('open');
  const [domains, setDomains] = useState('');
  useEffect(() => {
    if (!current.data) return;
    setPolicy(current.data.policy);
    setDomains(current.data.domains.join('\n'));
  }, [current.data]);
  const save = useMutation({
    mutationFn: (body: { policy: string; domains: string[] }) => api<Registration>(orgPath(organization, '/registration'), { method: 'PUT', body }),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ policy, domains: domainsFrom(domains) });
  };
  if (current.error) return <ErrorAlert error={current.error} title="The registration policy could not be read" />;
  if (!current.data) return <Loading />;
  return (
    <form onSubmit={onSubmit}>
      <Stack>
        <Radio.Group label="Who may register" value={policy} onChange={(v) => setPolicy(v as Registration['policy'])}>
          <Stack gap="xs" mt="xs">
            {POLICIES.map(([value, label, description]) => (
              <Radio key={value} value={value} label={label} description={description} />
            ))}
          </Stack>
        </Radio.Group>
        {policy === 'domains' ? (
          <Textarea
            label="Domains"
            description="One a line, e.g. example.com"
            value={domains}
            onChange={(e) => setDomains(e.currentTarget.value)}
            autosize
            minRows={2}
          />
        ) : null}
        <ErrorAlert error={save.error} title="The policy was not changed" />
        {save.isSuccess && !save.isPending ? <Text role="status">Saved: {POLICIES.find(([value]) => value === save.data.policy)?.[1]}.</Text> : null}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save policy
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Invitations() {
  const organization = useOrganization();
  const list = useQuery({
    queryKey: [organization, '/invitations'],
    queryFn: ({ signal }) => api<{ items: Invitation[]; total: number }>(orgPath(organization, '/invitations'), { signal }),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('Member');
  const create = useMutation({
    mutationFn: () => api<Invitation>(orgPath(organization, '/invitations'), { method: 'POST', body: { email: email.trim() || null, role } }),
    onSuccess: () => setEmail(''),
  });
  const withdraw = useMutation({ mutationFn: (id: number) => api(orgPath(organization, `/invitations/${id}`), { method: 'DELETE' }) });
  const link = create.data?.token ? `${location.origin}/${organization}/auth/register?invitation=${encodeURIComponent(create.data.token)}` : null;

  return (
    <Stack>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Group align="flex-end">
          <TextInput
            label="Email (optional)"
            description="Only this address may use it"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Select label="Role" data={[...ROLES]} value={role} onChange={(v) => v && setRole(v)} allowDeselect={false} w={140} />
          <Button type="submit" loading={create.isPending}>
            Invite
          </Button>
        </Group>
      </form>
      <ErrorAlert error={create.error} title="No invitation was made" />
      {link ? (
        <Paper withBorder p="sm" role="status">
          <Text size="sm" mb={4}>
            Send this link; it is shown only now and works once, until <Time value={create.data?.expires_at} />.
          </Text>
          <Group wrap="nowrap">
            <Code style={{ overflowWrap: 'anywhere' }}>{link}</Code>
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Paper>
      ) : null}
      <ErrorAlert error={withdraw.error} title="The invitation was not withdrawn" />
      {list.error ? (
        <ErrorAlert error={list.error} title="The invitations could not be read" />
      ) : !list.data ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <EmptyState title="No open invitations">Invite someone above: they get a link to register with.</EmptyState>
      ) : (
        <Table aria-label="Open invitations" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.items.map((invitation) => (
              <Table.Tr key={invitation.id}>
                <Table.Td>{invitation.email ?? 'Anyone with the link'}</Table.Td>
                <Table.Td>{invitation.role}</Table.Td>
                <Table.Td>
                  <Time value={invitation.created_at} />
                </Table.Td>
                <Table.Td>
                  <Time value={invitation.expires_at} />
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="light"
                    color="red"
                    loading={withdraw.isPending && withdraw.variables === invitation.id}
                    onClick={() => withdraw.mutate(invitation.id)}
                    aria-label={`Withdraw the invitation ${invitation.id}${invitation.email ? ` for ${invitation.email}` : ''}`}
                  >
                    Withdraw
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

export function RegistrationSection() {
  return (
    <Stack gap="xl">
      <div>
        <Title order={1}>Registration and invitations</Title>
        <Text c="dimmed">Owners set who may register; Owners and Managers invite people.</Text>
      </div>
      <section aria-labelledby="policy-heading">
        <Title order={2} id="policy-heading" size="h3" mb="sm">
          Registration policy
        </Title>
        <PolicyForm />
      </section>
      <section aria-labelledby="invitations-heading">
        <Title order={2} id="invitations-heading" size="h3" mb="sm">
          Invitations
        </Title>
        <Invitations />
      </section>
    </Stack>
  );
}
