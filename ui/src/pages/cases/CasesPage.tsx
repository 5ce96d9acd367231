// The cases table: one page at a time from the API, sorted and filtered there, filters and paging in
// the URL, live (refetched every few seconds, 304 while nothing changed), bulk status changes for the
// selected rows, and the "New case" form.
import { Anchor, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ColumnDef, RowSelectionState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useList } from '../../api/list.ts';
import { useSession } from '../../api/session.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { EmptyState } from '../../components/Feedback.tsx';
import { Age, useNow } from '../../components/Time.tsx';
import { toFilterJson, valuesFromParams } from '../../lib/filters.ts';
import { shortLabel } from '../../lib/short-label.ts';
import { useTableState } from '../../lib/table-state.ts';
import { useApart } from './alike-titles.ts';
import { BulkStatus } from './BulkStatus.tsx';
import { CaseFilterBar } from './CaseFilterBar.tsx';
import { CASE_FILTERS, CASE_SORTS, CASE_TABLE_FIELDS } from './case-filters.ts';
import { NewCaseForm } from './NewCaseForm.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { type CaseMinimal, casePath } from './types.ts';

export default function CasesPage() {
  const { organization, email } = useSession();
  // What needs someone first: New and Triage, then Escalated, Stable, Closed; newest first within.
  const { state, update, params, setParams } = useTableState({ sort: 'status', desc: false });
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [creating, setCreating] = useState(false);
  const filter = useMemo(() => toFilterJson(CASE_FILTERS, valuesFromParams(CASE_FILTERS, params), email ?? undefined), [params, email]);
  const list = useList<CaseMinimal>(organization, '/cases', {
    page: state.page,
    itemsPerPage: state.size,
    sortBy: state.sort ? (CASE_SORTS[state.sort] ?? state.sort) : undefined,
    descending: state.desc,
    tieBreak: state.sort === 'reported_at' ? [] : [{ sortBy: 'reported_at', descending: true }],
    q: state.q || undefined,
    filter,
    include: CASE_TABLE_FIELDS,
  });
  const apart = useApart(organization, list.data?.items);

  const columns = useMemo<ColumnDef<CaseMinimal, unknown>[]>(
    () => [
      {
        id: 'name',
        header: 'ID',
        cell: ({ row }) => (
          <Text size="sm" title={row.original.name ?? undefined} style={{ whiteSpace: 'nowrap' }}>
            {shortLabel('CASE', row.original)}
          </Text>
        ),
      },
      {
        id: 'title',
        header: 'Title',
        cell: ({ row }) => (
          <Anchor
            component={Link}
            to={casePath(organization, row.original)}
            size="sm"
            fw={600}
            // A title with what sets it apart may take a second line rather than lose that part.
            lineClamp={apart.has(row.original.id) ? undefined : 1}
            title={row.original.title}
            style={{ minWidth: '16rem' }}
          >
            {row.original.title}
            {apart.has(row.original.id) ? <span style={{ fontWeight: 400 }}> · {apart.get(row.original.id)}</span> : null}
          </Anchor>
        ),
      },
      { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      { id: 'priority', header: 'Priority', cell: ({ row }) => row.original.case_priority?.name ?? '-' },
      { id: 'severity', header: 'Severity', cell: ({ row }) => row.original.case_severity?.name ?? '-' },
      {
        id: 'assignee',
        header: 'Assignee',
        enableSorting: false,
        // A long address is cut (whole on hover) so that the title keeps its room at 1280 px.
        cell: ({ row }) => {
          const email = row.original.assignee?.individual?.email;
          return email ? (
            <Text size="sm" truncate="end" maw="9rem" title={email}>
              {email}
            </Text>
          ) : (
            '-'
          );
        },
      },
      // Its age, the time itself on hover: the short form keeps the table within the screen, as the incidents'.
      { id: 'reported_at', header: 'Reported', cell: ({ row }) => <Reported value={row.original.reported_at} /> },
      {
        id: 'visibility',
        header: 'Visibility',
        cell: ({ row }) => (
          <Badge variant="outline" color={row.original.visibility === 'Restricted' ? 'red' : 'gray'} autoContrast>
            {row.original.visibility ?? 'Open'}
          </Badge>
        ),
      },
    ],
    [organization, apart],
  );

  const selected = Object.keys(selection)
    .filter((k) => selection[k])
    .map(Number);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Cases</Title>
        <Button onClick={() => setCreating(true)}>New case</Button>
      </Group>
      <search>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            update({ q: String(new FormData(e.currentTarget).get('q') ?? '') });
          }}
        >
          <TextInput name="q" label="Search cases" defaultValue={state.q} key={state.q} placeholder="Words in the title or description, then Enter" maw={480} />
        </form>
      </search>
      <CaseFilterBar organization={organization} params={params} setParams={(next) => setParams(next, { replace: true })} />
      <BulkStatus organization={organization} ids={selected} onDone={() => setSelection({})} />
      <DataTable
        label="Cases"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        loading={list.isLoading}
        error={list.error}
        state={state}
        onState={update}
        rowId={(c) => String(c.id)}
        rowHref={(c) => casePath(organization, c)}
        selection={selection}
        onSelection={setSelection}
        empty={
          <EmptyState title="No cases match">
            {filter || state.q ? 'Clear the filters or the search to see every case.' : 'Open one with "New case", or let a signal open one.'}
          </EmptyState>
        }
      />
      <NewCaseForm organization={organization} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

/** How long ago the case was reported (the time itself on hover). */
function Reported({ value }: { value: string | null | undefined }) {
  const now = useNow();
  return value ? <Age value={value} now={now} /> : '-';
}
