// Signal filters: rules that snooze instances or fold them into an earlier instance's case.
import { Anchor, Badge, Button, Group } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { useList } from '../../api/list.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { EmptyState } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { useTableState } from '../../lib/table-state.ts';
import { SearchBox } from './SearchBox.tsx';
import type { SignalFilter } from './types.ts';

export function FiltersTab({ organization }: { organization: string }) {
  const { state, update } = useTableState({ sort: 'name' });
  const list = useList<SignalFilter & { project?: { name: string } }>(organization, '/signals/filters', {
    page: state.page,
    itemsPerPage: state.size,
    sortBy: state.sort,
    descending: state.desc,
    q: state.q || undefined,
  });
  const href = (f: SignalFilter) => `/${organization}/signals/filters/${f.id}`;
  const columns: ColumnDef<SignalFilter, unknown>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <Anchor component={Link} to={href(row.original)}>
          {row.original.name}
        </Anchor>
      ),
    },
    { id: 'action', header: 'Action', cell: ({ row }) => row.original.action },
    {
      id: 'mode',
      header: 'Mode',
      cell: ({ row }) => (
        <Badge miw="max-content" color={row.original.mode === 'active' ? 'teal.9' : row.original.mode === 'monitor' ? 'blue.9' : 'gray.7'}>
          {row.original.mode}
        </Badge>
      ),
    },
    { id: 'window', header: 'Window', cell: ({ row }) => (row.original.action === 'deduplicate' ? windowText(row.original.window) : '-') },
    { id: 'expiration', header: 'Expires', cell: ({ row }) => <Time value={row.original.expiration} /> },
    { id: 'expression', header: 'Conditions', enableSorting: false, cell: ({ row }) => row.original.expression.length || 'every instance' },
  ];
  return (
    <>
      <Group mb="sm" align="end" justify="space-between">
        <SearchBox label="Search filters" state={state} onState={update} />
        <Button component={Link} to={`/${organization}/signals/filters/new`}>
          New filter
        </Button>
      </Group>
      <DataTable
        label="Signal filters"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        loading={list.isFetching}
        error={list.error}
        state={state}
        onState={update}
        rowId={(row) => String(row.id)}
        rowHref={href}
        empty={<EmptyState title="No signal filters">Create one to snooze noisy instances or de-duplicate repeats, then add it to a definition.</EmptyState>}
      />
    </>
  );
}

/** `600` seconds as `10 min`. */
export function windowText(seconds: number): string {
  if (seconds % 3600 === 0 && seconds >= 3600) return `${seconds / 3600} h`;
  if (seconds % 60 === 0 && seconds >= 60) return `${seconds / 60} min`;
  return `${seconds} s`;
}
