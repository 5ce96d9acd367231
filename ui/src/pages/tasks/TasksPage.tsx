// Tasks across incidents: the signed-in person's first (they own it or are assigned to it), then
// everyone else's, or only theirs; filtered by status and incident, paged by the API; resolved and
// reopened in place.
import { Anchor, Badge, Button, Group, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { EmptyState, ErrorAlert } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { type FilterDef, paramsWithValues, toFilterJson, valuesFromParams } from '../../lib/filters.ts';
import { useTableState } from '../../lib/table-state.ts';
import { IncidentPicker } from './IncidentPicker.tsx';
import { type Task, type TaskRow, useTasks } from './useTasks.ts';

const FILTERS: FilterDef[] = [
  { key: 'status', label: 'Status', field: 'status', options: ['Open', 'Resolved'] },
  { key: 'incident', label: 'Incident', model: 'Incident', field: 'name' },
];

const person = (p: Task['owner']) => (p ? p.individual.name || p.individual.email : '-');

export default function TasksPage() {
  const { organization, email } = useSession();
  const { state, update, params, setParams } = useTableState({ sort: 'resolve_by', desc: false });
  const values = valuesFromParams(FILTERS, params);
  const onlyMine = params.get('show') === 'mine';
  const tasks = useTasks(organization, email, {
    page: state.page,
    size: state.size,
    sort: state.sort,
    desc: state.desc,
    filter: toFilterJson(FILTERS, values),
    onlyMine,
  });
  const setFilter = (key: string, value: string | null) =>
    setParams((prev) => paramsWithValues(FILTERS, prev, { ...values, [key]: value ? [value] : [] }), { replace: true });
  const setShow = (show: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (show === 'mine') next.set('show', 'mine');
        else next.delete('show');
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  const change = useMutation({
    mutationFn: ({ task, status }: { task: Task; status: 'Open' | 'Resolved' }) =>
      api<Task>(orgPath(organization, `/tasks/${task.id}`), { method: 'PUT', body: { incident: { id: task.incident.id }, status } }),
  });

  const incidentHref = (t: Task) => `/${organization}/incidents/${encodeURIComponent(t.incident.name ?? String(t.incident.id))}`;
  const columns: ColumnDef<TaskRow, unknown>[] = [
    {
      id: 'description',
      header: 'Task',
      cell: ({ row }) => (
        <Group gap={6} wrap="nowrap">
          {row.original.mine ? (
            <Badge miw="max-content" size="sm" color="blue.9" variant="filled">
              mine
            </Badge>
          ) : null}
          <Text size="sm">{row.original.task.description || '(no description)'}</Text>
        </Group>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <Badge miw="max-content" color={row.original.task.status === 'Open' ? 'cyan.9' : 'gray.7'}>
          {row.original.task.status}
        </Badge>
      ),
    },
    {
      id: 'incident.name',
      header: 'Incident',
      cell: ({ row }) => (
        <Anchor component={Link} to={incidentHref(row.original.task)} size="sm">
          {row.original.task.incident.name} {row.original.task.incident.title}
        </Anchor>
      ),
    },
    { id: 'owner', header: 'Owner', enableSorting: false, cell: ({ row }) => person(row.original.task.owner) },
    {
      id: 'assignees',
      header: 'Assignees',
      enableSorting: false,
      cell: ({ row }) => row.original.task.assignees.map((a) => a.individual.name || a.individual.email).join(', ') || '-',
    },
    { id: 'resolve_by', header: 'Due', cell: ({ row }) => <Time value={row.original.task.resolve_by} /> },
    { id: 'resolved_at', header: 'Resolved', cell: ({ row }) => <Time value={row.original.task.resolved_at} /> },
    {
      id: 'action',
      header: 'Action',
      enableSorting: false,
      cell: ({ row }) => {
        const t = row.original.task;
        const next = t.status === 'Open' ? 'Resolved' : 'Open';
        const label = t.status === 'Open' ? 'Resolve' : 'Reopen';
        return (
          <Button
            size="compact-xs"
            variant="default"
            loading={change.isPending && change.variables?.task.id === t.id}
            onClick={() => change.mutate({ task: t, status: next })}
            aria-label={`${label} task: ${t.description ?? t.id}`}
          >
            {label}
          </Button>
        );
      },
    },
  ];

  return (
    <Stack>
      <Title order={1}>Tasks</Title>
      <Group align="end">
        <SegmentedControl
          aria-label="Whose tasks"
          value={onlyMine ? 'mine' : 'all'}
          onChange={setShow}
          data={[
            { value: 'all', label: 'Everyone’s, mine first' },
            { value: 'mine', label: 'Only mine' },
          ]}
        />
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={['Open', 'Resolved']}
          value={values.status?.[0] ?? null}
          onChange={(v) => setFilter('status', v)}
          w={160}
        />
        <IncidentPicker organization={organization} value={values.incident?.[0] ?? null} onChange={(v) => setFilter('incident', v)} />
      </Group>
      <ErrorAlert error={change.error} title="The task was not changed" />
      <DataTable
        label="Tasks"
        columns={columns}
        rows={tasks.data?.rows}
        total={tasks.data?.total}
        loading={tasks.isFetching}
        error={tasks.error}
        state={state}
        onState={update}
        rowId={(row) => String(row.task.id)}
        rowHref={(row) => incidentHref(row.task)}
        empty={
          <EmptyState title={onlyMine ? 'No tasks of yours' : 'No tasks'}>
            Tasks are created on an incident's page; those you own or are assigned to show here first.
          </EmptyState>
        }
      />
    </Stack>
  );
}
