// Every signal instance the organization received, newest first, paged and sorted by the API; a
// row opens its drawer (raw document, entities, what the filters did) at `?instance=<id>`.
import { Anchor, Button, Group, Select } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { useAll, useList } from '../../api/list.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { EmptyState } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { type FilterDef, paramsWithValues, toFilterJson, valuesFromParams } from '../../lib/filters.ts';
import { useTableState } from '../../lib/table-state.ts';
import { FilterActionBadge } from './FilterActionBadge.tsx';
import { InstanceDrawer } from './InstanceDrawer.tsx';
import type { Signal, SignalInstance } from './types.ts';

const FILTERS: FilterDef[] = [
  { key: 'signal', label: 'Definition', model: 'Signal', field: 'id' },
  { key: 'action', label: 'Filter action', field: 'filter_action', options: ['deduplicate', 'snooze'] },
];

export function InstancesTab({ organization }: { organization: string }) {
  const { state, update, params, setParams } = useTableState({ sort: 'created_at', desc: true });
  const values = valuesFromParams(FILTERS, params);
  const filter = toFilterJson(FILTERS, values);
  const list = useList<SignalInstance>(organization, '/signals/instances', {
    page: state.page,
    itemsPerPage: state.size,
    sortBy: state.sort,
    descending: state.desc,
    filter,
  });
  const definitions = useAll<Signal>(organization, '/signals');
  const opened = params.get('instance');
  const setParam = (key: string, value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: key !== 'instance' },
    );
  const setFilter = (key: string, value: string | null) =>
    setParams((prev) => paramsWithValues(FILTERS, prev, { ...values, [key]: value ? [value] : [] }), { replace: true });

  const columns: ColumnDef<SignalInstance, unknown>[] = [
    {
      id: 'signal.name',
      header: 'Signal',
      cell: ({ row }) => (
        <Anchor
          component={Link}
          to={`?${withParam(params, 'instance', row.original.id)}`}
          aria-label={`Instance of ${row.original.signal.name} received ${row.original.created_at}`}
        >
          {row.original.signal.name}
        </Anchor>
      ),
    },
    {
      id: 'case_id',
      header: 'Case',
      cell: ({ row }) =>
        row.original.case?.name ? (
          <Anchor component={Link} to={`/${organization}/cases/${encodeURIComponent(row.original.case.name)}`}>
            {row.original.case.name}
          </Anchor>
        ) : (
          '-'
        ),
    },
    { id: 'filter_action', header: 'Filter action', cell: ({ row }) => <FilterActionBadge action={row.original.filter_action} /> },
    {
      id: 'entities',
      header: 'Entities',
      enableSorting: false,
      cell: ({ row }) =>
        row.original.entities
          .map((e) => e.value)
          .filter(Boolean)
          .join(', ') || '-',
    },
    { id: 'created_at', header: 'Received', cell: ({ row }) => <Time value={row.original.created_at} /> },
    {
      id: 'raw',
      header: 'Raw',
      enableSorting: false,
      cell: ({ row }) => (
        <Button
          size="compact-xs"
          variant="default"
          onClick={() => setParam('instance', row.original.id)}
          aria-label={`Show the raw document of instance ${row.original.id}`}
        >
          JSON
        </Button>
      ),
    },
  ];

  const instance = opened ? list.data?.items.find((i) => i.id === opened) : undefined;
  return (
    <>
      <Group mb="sm" align="end">
        <Select
          label="Definition"
          placeholder="Any"
          clearable
          searchable
          data={(definitions.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
          value={values.signal?.[0] ?? null}
          onChange={(v) => setFilter('signal', v)}
          w={260}
        />
        <Select
          label="Filter action"
          placeholder="Any"
          clearable
          data={[
            { value: 'deduplicate', label: 'Deduplicated' },
            { value: 'snooze', label: 'Snoozed' },
          ]}
          value={values.action?.[0] ?? null}
          onChange={(v) => setFilter('action', v)}
          w={200}
        />
      </Group>
      <DataTable
        label="Signal instances"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        loading={list.isFetching}
        error={list.error}
        state={state}
        onState={update}
        rowId={(row) => row.id}
        rowHref={(row) => `?${withParam(params, 'instance', row.id)}`}
        empty={
          <EmptyState title="No signal instances yet">
            Detection systems post them to <code>/api/v1/{organization}/signals/instances</code>; to try one, open a definition and ingest a test instance.
          </EmptyState>
        }
      />
      <InstanceDrawer
        organization={organization}
        instance={instance}
        missing={!!opened && !!list.data && !instance}
        onClose={() => setParam('instance', null)}
      />
    </>
  );
}

const withParam = (params: URLSearchParams, key: string, value: string) => {
  const next = new URLSearchParams(params);
  next.set(key, value);
  return next.toString();
};
