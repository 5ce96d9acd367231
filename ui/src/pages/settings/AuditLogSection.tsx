// The organization's audit log, for its Owners: who changed what, when and from where, newest first,
// filtered by action, actor and dates (kept in the URL); a row opens to show the record before and
// after the change. The exports are the API's own (JSON lines, CSV), downloaded with the session's token.
import { Button, Code, Group, SimpleGrid, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { API_BASE, ApiError, detailText, orgPath, type Query, queryString } from '../../api/client.ts';
import { useList } from '../../api/list.ts';
import { useOrganization, useSession } from '../../api/session.ts';
import { readToken } from '../../api/token.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorAlert } from '../../components/Feedback.tsx';
import { Time } from '../../components/Time.tsx';
import { download } from '../../lib/csv.ts';
import { useTableState } from '../../lib/table-state.ts';

export interface AuditEntry {
  id: number;
  occurred_at: string;
  action: string;
  actor_email: string | null;
  actor_token_id: number | null;
  address: string | null;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  before: unknown;
  after: unknown;
  details: unknown;
}

const FILTERS = ['action', 'actor', 'since', 'until'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/**
 * The API's filters from the form's: an action as typed (`plugin_instance.*` for a subject), the
 * actor's address, and dates as whole UTC days (`until` takes in the whole of its day).
 */
export function auditQuery(f: Filters): Query {
  const day = (d: string, plus = 0) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return undefined;
    const t = new Date(`${d}T00:00:00Z`);
    t.setUTCDate(t.getUTCDate() + plus);
    return t.toISOString();
  };
  return {
    action: f.action.trim() || undefined,
    actor: f.actor.trim() || undefined,
    since: day(f.since),
    until: day(f.until, 1),
  };
}

/** Who acted: their address, the API token they used, or Muster itself. */
const actorText = (e: AuditEntry) => (e.actor_email ?? 'Muster') + (e.actor_token_id ? ` (API token #${e.actor_token_id})` : '');

const targetText = (e: AuditEntry) =>
  e.target_type ? `${e.target_type}${e.target_id ? ` #${e.target_id}` : ''}${e.target_label ? ` ${e.target_label}` : ''}` : '-';

const json = (value: unknown) => (value === null || value === undefined ? '-' : JSON.stringify(value, null, 2));

function EntryDetail({ entry }: { entry: AuditEntry }) {
  return (
    <Stack gap="xs" aria-label={`Entry ${entry.id}`}>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <div>
          <Text size="sm" fw={600}>
            Before
          </Text>
          <Code block>{json(entry.before)}</Code>
        </div>
        <div>
          <Text size="sm" fw={600}>
            After
          </Text>
          <Code block>{json(entry.after)}</Code>
        </div>
      </SimpleGrid>
      {entry.details == null ? null : (
        <div>
          <Text size="sm" fw={600}>
            Details
          </Text>
          <Code block>{json(entry.details)}</Code>
        </div>
      )}
    </Stack>
  );
}

/** Downloads an export through the API (the token goes in a header, so a plain link would not do). */
async function exportLog(organization: string, format: 'jsonl' | 'csv', filters: Query) {
  const headers: Record<string, string> = {};
  const token = readToken();
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${API_BASE}${orgPath(organization, '/audit-log/export')}${queryString({ ...filters, format })}`, { headers });
  const text = await response.text();
  if (!response.ok) {
    let detail: unknown;
    try {
      detail = JSON.parse(text).detail;
    } catch {
      detail = undefined;
    }
    throw new ApiError(response.status, detailText(detail as never, response.status), detail);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `audit-log-${organization}.${format}`;
  download(name, text, format === 'csv' ? 'text/csv;charset=utf-8' : 'application/x-ndjson;charset=utf-8');
}

export function AuditLogSection() {
  const organization = useOrganization();
  const session = useSession();
  const { state, update, params, setParams } = useTableState({ sort: 'occurred_at', desc: true });
  const filters = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Filters;
  const query = auditQuery(filters);
  const owner = session.role === 'Owner';
  const list = useList<AuditEntry>(
    organization,
    '/audit-log',
    { page: state.page, itemsPerPage: state.size, sortBy: state.sort, descending: state.desc, extra: query },
    // Not polled: counting a long log every few seconds costs more than a reader gains.
    { enabled: owner, live: false },
  );
  const [open, setOpen] = useState<Set<number>>(new Set());
  const toggle = useCallback(
    (id: number) =>
      setOpen((prev) => {
        const next = new Set(prev);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const setFilter = (key: keyof Filters, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  const exporter = useMutation({ mutationFn: (format: 'jsonl' | 'csv') => exportLog(organization, format, query) });

  const columns = useMemo<ColumnDef<AuditEntry, unknown>[]>(
    () => [
      { id: 'occurred_at', accessorKey: 'occurred_at', header: 'When', enableSorting: true, cell: ({ row }) => <Time value={row.original.occurred_at} /> },
      { id: 'actor_email', accessorKey: 'actor_email', header: 'Who', enableSorting: true, cell: ({ row }) => actorText(row.original) },
      {
        id: 'action',
        accessorKey: 'action',
        header: 'Action',
        enableSorting: true,
        cell: ({ row }) => (
          <UnstyledButton
            onClick={() => toggle(row.original.id)}
            aria-expanded={open.has(row.original.id)}
            aria-label={`${open.has(row.original.id) ? 'Hide' : 'Show'} before and after of ${row.original.action}`}
            fz="sm"
          >
            {open.has(row.original.id) ? '▾' : '▸'} <Code>{row.original.action}</Code>
          </UnstyledButton>
        ),
      },
      { id: 'target_type', accessorKey: 'target_type', header: 'Target', enableSorting: true, cell: ({ row }) => targetText(row.original) },
      { id: 'address', accessorKey: 'address', header: 'Address', enableSorting: true, cell: ({ row }) => row.original.address ?? '-' },
    ],
    [open, toggle],
  );

  if (session.role && !owner) return <ErrorAlert error={new Error('Only Owners of the organization read its audit log.')} title="Not allowed" />;
  return (
    <Stack>
      <div>
        <Title order={1}>Audit log</Title>
        <Text c="dimmed">
          Changes that matter to security in {organization}, newest first: who made them, from where, and the record before and after. Entries are never
          changed; they are deleted only after the retention period.
        </Text>
      </div>
      <Group align="end" wrap="wrap">
        <TextInput label="Action" placeholder="plugin_instance.*" value={filters.action} onChange={(e) => setFilter('action', e.currentTarget.value)} w={220} />
        <TextInput label="Actor" placeholder="someone@example.com" value={filters.actor} onChange={(e) => setFilter('actor', e.currentTarget.value)} w={240} />
        <TextInput label="From" type="date" value={filters.since} onChange={(e) => setFilter('since', e.currentTarget.value)} w={160} />
        <TextInput label="Until" type="date" value={filters.until} onChange={(e) => setFilter('until', e.currentTarget.value)} w={160} />
        <Group gap="xs" ml="auto">
          <Button variant="default" onClick={() => exporter.mutate('jsonl')} loading={exporter.isPending && exporter.variables === 'jsonl'}>
            Export JSON lines
          </Button>
          <Button variant="default" onClick={() => exporter.mutate('csv')} loading={exporter.isPending && exporter.variables === 'csv'}>
            Export CSV
          </Button>
        </Group>
      </Group>
      <ErrorAlert error={exporter.error} title="The export failed" />
      <DataTable<AuditEntry>
        label="Audit log"
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        loading={list.isFetching}
        error={list.error}
        state={state}
        onState={update}
        rowId={(row) => String(row.id)}
        detail={(row) => (open.has(row.id) ? <EntryDetail entry={row} /> : null)}
      />
    </Stack>
  );
}
