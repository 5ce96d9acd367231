// The organization's members and their role in it. Only an Owner changes a role or removes a member;
// the API decides, so the controls are there for everyone and a refusal is shown in the API's words.
// A member's password is theirs alone: nobody here sets it.
import { Button, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { ROLES } from '../../../../src/app/ui-shapes.ts';
import { api, orgPath } from '../../api/client.ts';
import { useList } from '../../api/list.ts';
import { useOrganization, useSession } from '../../api/session.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { useTableState } from '../../lib/table-state.ts';

interface User {
  id: number;
  email: string;
  role: string | null;
  projects: { project: { name: string; display_name?: string }; default: boolean }[];
}

export function UsersSection() {
  const organization = useOrganization();
  const session = useSession();
  const { state, update } = useTableState({ sort: 'email' });
  const list = useList<User>(organization, '/users', {
    page: state.page,
    itemsPerPage: state.size,
    sortBy: state.sort,
    descending: state.desc,
    q: state.q || undefined,
  });
  const [changed, setChanged] = useState<string | null>(null);
  const setRole = useMutation({
    mutationFn: ({ user, role }: { user: User; role: string }) =>
      api<User>(orgPath(organization, `/users/${user.id}`), { method: 'PUT', body: { id: user.id, role } }),
    onSuccess: (user) => setChanged(`${user.email} is now ${user.role}.`),
    onMutate: () => setChanged(null),
  });
  const remove = useMutation({
    mutationFn: (user: User) => api(orgPath(organization, `/users/${user.id}`), { method: 'DELETE' }).then(() => user),
    onSuccess: (user) => {
      setChanged(`${user.email} is no longer a member of ${organization}.`);
      list.refetch();
    },
    onMutate: () => setChanged(null),
  });

  const columns = useMemo<ColumnDef<User, unknown>[]>(
    () => [
      { id: 'email', header: 'Email', enableSorting: true, cell: ({ row }) => row.original.email },
      {
        id: 'role',
        header: 'Role',
        enableSorting: false,
        cell: ({ row }) => (
          <Select
            aria-label={`Role of ${row.original.email}`}
            data={[...ROLES]}
            value={row.original.role}
            onChange={(role) => role && role !== row.original.role && setRole.mutate({ user: row.original, role })}
            allowDeselect={false}
            size="xs"
            w={140}
          />
        ),
      },
      {
        id: 'projects',
        header: 'Default projects',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.projects
            .filter((p) => p.default)
            .map((p) => p.project.display_name || p.project.name)
            .join(', ') || '-',
      },
      {
        id: 'remove',
        header: '',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.email === session.email ? null : (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              aria-label={`Remove ${row.original.email}`}
              onClick={() => window.confirm(`Remove ${row.original.email} from ${organization}?`) && remove.mutate(row.original)}
            >
              Remove
            </Button>
          ),
      },
    ],
    [setRole.mutate, remove.mutate, session.email, organization],
  );

  return (
    <Stack>
      <div>
        <Title order={1}>Users and roles</Title>
        <Text c="dimmed">
          Each person's role in {organization}. Only an Owner changes roles{session.role === 'Owner' ? '' : `; you are ${session.role ?? 'a member'}`}.
        </Text>
      </div>
      <ErrorAlert error={setRole.error} title="The role was not changed" />
      <ErrorAlert error={remove.error} title="The member was not removed" />
      {changed ? <Text role="status">{changed}</Text> : null}
      <DataTable<User>
        label="Users"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        loading={list.isFetching}
        error={list.error}
        state={state}
        onState={update}
        rowId={(row) => String(row.id)}
      />
    </Stack>
  );
}
