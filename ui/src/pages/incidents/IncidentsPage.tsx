// The incidents table: one page at a time from the API (paging, sort, text search and filters all
// server-side and in the URL), refetched live, with saved views, bulk actions on the selected rows
// and a CSV export of everything the filter matches. It leads with what is on fire: Active first,
// then Stable, then Closed (`status_order`), newest first within each.
import { Anchor, Badge, Button, Group, Text, Title } from '@mantine/core';
import type { ColumnDef, RowSelectionState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { type ListParams, useList } from '../../api/list.ts';
import { useSession } from '../../api/session.ts';
import { EmptyState } from '../../components/Feedback.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { Age, durationText, parseTime, useNow, utcText } from '../../components/Time.tsx';
import { type FilterSpec, type FilterValues, paramsWithValues, valuesFromParams } from '../../lib/filters.ts';
import { shortLabel } from '../../lib/short-label.ts';
import { useTableState } from '../../lib/table-state.ts';
import { BulkActions } from './BulkActions.tsx';
import { ExportCsvButton } from './ExportCsvButton.tsx';
import { IncidentFilters } from './IncidentFilters.tsx';
import { applyView, EXPRESSION_PARAM, expressionFrom, expressionOf, INCIDENT_FILTERS, INCIDENT_TABLE_FIELDS, incidentFilter } from './incident-filters.ts';
import { SavedViews } from './SavedViews.tsx';
import type { Incident } from './types.ts';

// A dot of colour beside the word: coloured text would not keep 4.5:1 on the striped rows.
const STATUS_COLOR: Record<string, string> = { Active: 'red', Stable: 'yellow', Closed: 'gray' };

export default function IncidentsPage() {
  const session = useSession();
  const { organization } = session;
  const me = session.email ?? undefined;
  const { state, update, params, setParams } = useTableState({ sort: 'status_order', desc: false });
  const values = useMemo(() => valuesFromParams(INCIDENT_FILTERS, params), [params]);
  const expression = useMemo(() => expressionFrom(params), [params]);
  const filter = useMemo(() => incidentFilter(values, me, expression), [values, me, expression]);

  const listParams: ListParams = {
    page: state.page,
    itemsPerPage: state.size,
    sortBy: state.sort,
    descending: state.desc,
    tieBreak: state.sort === 'reported_at' ? [] : [{ sortBy: 'reported_at', descending: true }],
    q: state.q || undefined,
    // The grammar takes lists too (a saved view's expression); the type names the object form.
    filter: filter as FilterSpec | null,
  };
  // The table's fields only (the API reads no timeline or people for them); the export takes whole items.
  const list = useList<Incident>(organization, '/incidents', { ...listParams, include: INCIDENT_TABLE_FIELDS, extra: { expand: true } });

  // Selection is kept across the live refetches (rows are keyed by id) and dropped when the rows asked for change.
  const [selection, setSelection] = useState<RowSelectionState>({});
  const queryKey = JSON.stringify([listParams.page, listParams.itemsPerPage, listParams.sortBy, listParams.descending, listParams.q, filter]);
  const [selectedFor, setSelectedFor] = useState(queryKey);
  if (selectedFor !== queryKey) {
    setSelectedFor(queryKey);
    setSelection({});
  }
  const selectedIds = Object.keys(selection)
    .filter((id) => selection[id])
    .map(Number);
  const nameOf = (id: number) => list.data?.items.find((i) => i.id === id)?.name ?? `Incident ${id}`;

  const setFilters = (next: FilterValues, nextExpression: unknown[] | null) =>
    setParams(
      (prev) => {
        const out = paramsWithValues(INCIDENT_FILTERS, prev, next);
        if (nextExpression?.length) out.set(EXPRESSION_PARAM, JSON.stringify(nextExpression));
        else out.delete(EXPRESSION_PARAM);
        return out;
      },
      { replace: true },
    );

  const columns = useMemo(() => incidentColumns(organization), [organization]);
  const single = values.project?.length === 1 ? values.project[0] : undefined;

  return (
    <>
      <Group justify="space-between" align="end" mb="md" wrap="wrap">
        <Title order={1}>Incidents</Title>
        <Group align="end" gap="xs">
          <SavedViews
            organization={organization}
            expression={expressionOf(filter)}
            projectId={single}
            onApply={(view) => {
              const applied = applyView(view.expression, me);
              setFilters(applied.values, applied.expression);
            }}
          />
          <ExportCsvButton organization={organization} params={listParams} />
          <Button component={Link} to={`/${organization}/incidents/report`} size="xs" color="red">
            Report incident
          </Button>
        </Group>
      </Group>
      <IncidentFilters
        organization={organization}
        values={values}
        onValues={(next) => setFilters(next, expression)}
        q={state.q}
        onQ={(q) => update({ q })}
        expression={expression}
        onClearExpression={() => setFilters(values, null)}
        onClearAll={() =>
          setParams(
            (prev) => {
              const out = paramsWithValues(INCIDENT_FILTERS, prev, {});
              out.delete(EXPRESSION_PARAM);
              out.delete('q');
              return out;
            },
            { replace: true },
          )
        }
      />
      <BulkActions
        organization={organization}
        ids={selectedIds}
        nameOf={nameOf}
        isAdmin={session.isAdmin}
        onDone={(failed) => setSelection(Object.fromEntries(failed.map((id) => [String(id), true])))}
      />
      <DataTable<Incident>
        label="Incidents"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        loading={list.isFetching && !list.data}
        error={list.error}
        state={state}
        onState={update}
        rowId={(i) => String(i.id)}
        rowHref={(i) => `/${organization}/incidents/${i.name ?? i.id}`}
        selection={selection}
        onSelection={setSelection}
        empty={
          <EmptyState title="No incidents match">
            Change or clear the filters, or{' '}
            <Anchor component={Link} to={`/${organization}/incidents/report`}>
              report an incident
            </Anchor>
            .
          </EmptyState>
        }
      />
    </>
  );
}

/**
 * The columns; their ids are what the API sorts by (`sortBy[]`). The title is the link and takes the
 * room left; the rest keep to their content, so the table fits 1280 px without scrolling sideways.
 */
function incidentColumns(organization: string): ColumnDef<Incident, unknown>[] {
  return [
    {
      id: 'name',
      header: 'ID',
      cell: ({ row: { original: i } }) => (
        <Text size="sm" title={i.name ?? undefined} style={{ whiteSpace: 'nowrap' }}>
          {shortLabel('INC', i)}
        </Text>
      ),
    },
    {
      id: 'title',
      header: 'Title',
      cell: ({ row: { original: i } }) => (
        <Anchor
          component={Link}
          to={`/${organization}/incidents/${i.name ?? i.id}`}
          size="sm"
          fw={600}
          lineClamp={1}
          title={i.title}
          style={{ minWidth: '16rem' }}
        >
          {i.title}
          {i.visibility === 'Restricted' ? ' (Restricted)' : ''}
        </Anchor>
      ),
    },
    {
      id: 'status_order',
      header: 'Status',
      cell: ({ row }) => (
        <Badge color={STATUS_COLOR[row.original.status] ?? 'gray'} variant="dot" tt="none" style={{ minWidth: 'max-content' }}>
          {row.original.status}
        </Badge>
      ),
    },
    { id: 'incident_priority.view_order', header: 'Priority', cell: ({ row }) => row.original.incident_priority?.name },
    { id: 'incident_severity.view_order', header: 'Severity', cell: ({ row }) => row.original.incident_severity?.name },
    // Sorted by when it was reported; the time itself on hover.
    { id: 'reported_at', header: 'Duration', cell: ({ row }) => <Duration from={row.original.reported_at} to={row.original.closed_at} /> },
    { id: 'commander', header: 'Commander', enableSorting: false, cell: ({ row }) => row.original.commander?.individual?.email ?? '-' },
    // Its age, the time itself on hover: the short form keeps the table within the screen.
    { id: 'last_update', header: 'Updated', enableSorting: false, cell: ({ row }) => <LastUpdate incident={row.original} /> },
  ];
}

/** How long the incident has run: to its close, or to now while it is open. */
function Duration({ from, to }: { from: string; to: string | null }) {
  const now = useNow();
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={`Reported ${utcText(from)}`}>
      {durationText((to ? parseTime(to) : now) - parseTime(from))}
    </Text>
  );
}

/** How long since a responder last said something (a report, a note), or "none" while nobody has. */
function LastUpdate({ incident }: { incident: Incident }) {
  const now = useNow();
  if (!incident.last_update_at)
    return (
      <Text size="sm" c="dimmed">
        none
      </Text>
    );
  return <Age value={incident.last_update_at} now={now} />;
}
