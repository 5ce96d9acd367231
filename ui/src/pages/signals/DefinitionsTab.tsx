// Signal definitions: what each detection system sends and what Muster does with it.
import { Anchor, Badge, Button, Group } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { useList } from '../../api/list.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { EmptyState } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { useTableState } from '../../lib/table-state.ts';
import { SearchBox } from './SearchBox.tsx';
import type { Signal } from './types.ts';

export function DefinitionsTab({ organization }: { organization: string }) {
  const { state, update } = useTableState({ sort: 'name' });
  const list = useList<Signal>(organization, '/signals', {
    page: state.page,
    itemsPerPage: state.size,
    sortBy: state.sort,
    descending: state.desc,
    q: state.q || undefined,
  });
  const href = (s: Signal) => `/${organization}/signals/definitions/${s.id}`;
  const columns: ColumnDef<Signal, unknown>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <Anchor component={Link} to={href(row.original)}>
          {row.original.name}
        </Anchor>
      ),
    },
    { id: 'variant', header: 'Variant', cell: ({ row }) => row.original.variant ?? '-' },
    { id: 'external_id', header: 'External id', cell: ({ row }) => row.original.external_id },
    { id: 'project.name', header: 'Project', cell: ({ row }) => row.original.project.name },
    {
      id: 'enabled',
      header: 'Enabled',
      cell: ({ row }) =>
        row.original.enabled ? (
          <Badge miw="max-content" color="teal.9">
            enabled
          </Badge>
        ) : (
          <Badge miw="max-content" color="gray.7">
            disabled
          </Badge>
        ),
    },
    { id: 'create_case', header: 'Creates cases', cell: ({ row }) => (row.original.create_case ? 'yes' : 'no') },
    { id: 'filters', header: 'Filters', enableSorting: false, cell: ({ row }) => row.original.filters.map((f) => f.name).join(', ') || '-' },
    { id: 'created_at', header: 'Created', cell: ({ row }) => <Time value={row.original.created_at} /> },
  ];
  return (
    <>
      <Group mb="sm" align="end" justify="space-between">
        <SearchBox label="Search definitions" state={state} onState={update} />
        <Button component={Link} to={`/${organization}/signals/definitions/new`}>
          New definition
        </Button>
      </Group>
      <DataTable
        label="Signal definitions"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        loading={list.isFetching}
        error={list.error}
        state={state}
        onState={update}
        rowId={(row) => String(row.id)}
        rowHref={href}
        empty={
          <EmptyState title="No signal definitions">
            Create one for each kind of alert a detection system sends, then ingest a test instance from its page.
          </EmptyState>
        }
      />
    </>
  );
}
