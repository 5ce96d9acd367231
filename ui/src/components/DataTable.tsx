// The one table of the UI: a page of rows from the server (paging and sorting done by the API),
// optional row selection for bulk actions, a link per row, keyboard moves between rows (j/k, Enter).
import { Checkbox, Group, Pagination, ScrollArea, Select, Table, Text, UnstyledButton } from '@mantine/core';
import { type ColumnDef, flexRender, getCoreRowModel, type RowSelectionState, useReactTable } from '@tanstack/react-table';
import { Fragment, type ReactNode, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useShortcuts } from '../lib/shortcuts.ts';
import { PAGE_SIZES, type TableState } from '../lib/table-state.ts';
import { EmptyState, ErrorAlert, Loading } from './Feedback.tsx';

export interface DataTableProps<T> {
  /** Accessible name of the table. */
  label: string;
  columns: ColumnDef<T, unknown>[];
  rows: T[] | undefined;
  total: number | undefined;
  loading: boolean;
  error: unknown;
  state: TableState;
  onState: (changes: Partial<TableState>) => void;
  rowId: (row: T) => string;
  /** Where a row leads (Enter on the focused row, a click on its link column). */
  rowHref?: (row: T) => string;
  /** Selection for bulk actions; omit for none. */
  selection?: RowSelectionState;
  onSelection?: (selection: RowSelectionState) => void;
  empty?: ReactNode;
  /** What a row shows beneath itself, across the table (an expanded row); null shows nothing. */
  detail?: (row: T) => ReactNode | null;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rows, state, onState, selection, onSelection, rowHref } = props;
  const navigate = useNavigate();
  const [focused, setFocused] = useState(0);

  const allColumns = useMemo<ColumnDef<T, unknown>[]>(() => {
    if (!onSelection) return columns;
    const select: ColumnDef<T, unknown> = {
      id: '_select',
      enableSorting: false,
      header: ({ table }) => (
        <Checkbox
          aria-label="Select all rows on this page"
          checked={table.getIsAllRowsSelected()}
          indeterminate={table.getIsSomeRowsSelected()}
          onChange={table.getToggleAllRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => <Checkbox aria-label={`Select row ${row.id}`} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />,
    };
    return [select, ...columns];
  }, [columns, onSelection]);

  const table = useReactTable({
    data: rows ?? [],
    columns: allColumns,
    getRowId: props.rowId,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    enableRowSelection: !!onSelection,
    state: { rowSelection: selection ?? {} },
    onRowSelectionChange: (updater) => onSelection?.(typeof updater === 'function' ? updater(selection ?? {}) : updater),
  });

  const count = rows?.length ?? 0;
  useEffect(() => setFocused((f) => Math.min(f, Math.max(0, count - 1))), [count]);
  useShortcuts({
    j: () => setFocused((f) => Math.min(f + 1, count - 1)),
    k: () => setFocused((f) => Math.max(f - 1, 0)),
    Enter: () => {
      const row = rows?.[focused];
      if (row && rowHref) navigate(rowHref(row));
    },
  });

  const pages = Math.max(1, Math.ceil((props.total ?? 0) / state.size));
  const sortHeader = (id: string, header: ReactNode, sortable: boolean) => {
    if (!sortable) return header;
    const active = state.sort === id;
    return (
      <UnstyledButton
        onClick={() => onState({ sort: id, desc: active ? !state.desc : true })}
        aria-label={`Sort by ${typeof header === 'string' ? header : id}`}
        fw={600}
        fz="sm"
      >
        {header} {active ? (state.desc ? '▼' : '▲') : ''}
      </UnstyledButton>
    );
  };

  if (props.error && !rows) return <ErrorAlert error={props.error} />;
  return (
    <>
      {props.error ? <ErrorAlert error={props.error} /> : null}
      <ScrollArea>
        <Table striped highlightOnHover aria-label={props.label} aria-busy={props.loading} verticalSpacing="xs">
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((h) => {
                  const active = state.sort === h.column.id;
                  return (
                    <Table.Th key={h.id} aria-sort={active ? (state.desc ? 'descending' : 'ascending') : undefined}>
                      {sortHeader(h.column.id, flexRender(h.column.columnDef.header, h.getContext()), h.column.getCanSort() && h.column.id !== '_select')}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row, index) => {
              const detail = props.detail?.(row.original) ?? null;
              return (
                <Fragment key={row.id}>
                  <Table.Tr
                    data-focused={index === focused || undefined}
                    aria-current={index === focused || undefined}
                    // Visible in both schemes, over stripes and hover alike: a bar in the primary colour.
                    style={index === focused ? { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: -2 } : undefined}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                    ))}
                  </Table.Tr>
                  {detail === null ? null : (
                    <Table.Tr>
                      <Table.Td colSpan={row.getVisibleCells().length}>{detail}</Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {props.loading && !rows ? <Loading /> : null}
      {!props.loading && rows && rows.length === 0 ? (props.empty ?? <EmptyState title="Nothing here yet">No records match.</EmptyState>) : null}
      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed">
          {props.total ?? 0} in all
        </Text>
        <Group>
          <Select
            aria-label="Rows per page"
            data={PAGE_SIZES}
            value={String(state.size)}
            onChange={(v) => v && onState({ size: Number(v) })}
            w={90}
            size="xs"
          />
          <Pagination total={pages} value={Math.min(state.page, pages)} onChange={(page) => onState({ page })} size="sm" getControlProps={ariaPage} />
        </Group>
      </Group>
    </>
  );
}

const ariaPage = (control: 'first' | 'previous' | 'last' | 'next') => ({ 'aria-label': `${control} page` });
