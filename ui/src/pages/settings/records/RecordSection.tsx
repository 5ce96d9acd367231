// The one screen of every declared section: its records a page at a time from the API (paging,
// sort and search in the URL, narrowed to a project when the records belong to one), a form to
// create one or edit one (`?new=1`, `?edit=<id>`: a link opens it), and delete with a confirmation
// where the API deletes. People below Admin see the table only; the API still decides, and its
// refusal is shown should they open a form by its link.
import { Anchor, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api, orgPath } from '../../../api/client.ts';
import { useList, useRecord } from '../../../api/list.ts';
import { useOrganization, useSession } from '../../../api/session.ts';
import { DataTable } from '../../../components/DataTable.tsx';
import { EmptyState, ErrorAlert, Loading } from '../../../components/Feedback.tsx';
import { useTableState } from '../../../lib/table-state.ts';
import { cellText, pickedId } from './body.ts';
import type { Row, SectionDecl } from './declaration.ts';
import { ProjectPicker, pickerFilter, useProjects } from './Pickers.tsx';
import { RecordForm } from './RecordForm.tsx';

/** The name a record goes by in prose and in button labels. */
export const recordName = (row: Row) => String(row.name || row.email || row.title || `#${row.id}`);

export function RecordSection({ decl }: { decl: SectionDecl }) {
  const organization = useOrganization();
  const { isAdmin } = useSession();
  const { state, update, params, setParams } = useTableState({ sort: decl.sort ?? 'name' });
  const [search, setSearch] = useState(state.q);
  const projects = useProjects();
  const project = decl.projectScoped ? Number(params.get('project')) || null : null;
  const list = useList<Row>(organization, decl.path, {
    page: state.page,
    itemsPerPage: state.size,
    sortBy: state.sort,
    descending: state.desc,
    q: state.q || undefined,
    filter: pickerFilter(project),
  });

  const editId = params.get('edit');
  const creating = params.get('new') === '1';
  const editing = useRecord<Row>(organization, editId ? `${decl.path}/${editId}` : null, { live: false });
  const [deleting, setDeleting] = useState<Row | null>(null);
  const remove = useMutation({
    mutationFn: (row: Row) => api(orgPath(organization, `${decl.path}/${row.id}`), { method: 'DELETE' }),
    onSuccess: () => setDeleting(null),
  });

  const setParam = (name: string, value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const key of ['new', 'edit']) next.delete(key);
        if (name === 'project') next.delete('page');
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: name === 'project' },
    );
  const closeForm = () => setParam('new', null);
  const editHref = useCallback(
    (row: Row) => `/${organization}/settings/${decl.key}?${withParam(params, 'edit', String(row.id))}`,
    [organization, decl.key, params],
  );

  const columns = useMemo<ColumnDef<Row, unknown>[]>(() => {
    const own: ColumnDef<Row, unknown>[] = decl.columns.map((column, index) => ({
      id: column.key,
      header: column.header,
      enableSorting: !!column.sortable,
      cell: ({ row }) => {
        const shown = column.render ? column.render(row.original) : cellText(row.original[column.key]);
        // The first column names the record and links to its form.
        return index === 0 && isAdmin ? (
          <Anchor component={Link} to={editHref(row.original)} aria-label={`Edit ${recordName(row.original)}`}>
            {shown}
          </Anchor>
        ) : (
          shown
        );
      },
    }));
    if (!isAdmin || !decl.canDelete) return own;
    const actions: ColumnDef<Row, unknown> = {
      id: '_actions',
      header: 'Actions',
      enableSorting: false,
      cell: ({ row }) => (
        <Button
          size="compact-xs"
          variant="light"
          color="red"
          onClick={() => {
            remove.reset();
            setDeleting(row.original);
          }}
          aria-label={`Delete ${recordName(row.original)}`}
        >
          Delete
        </Button>
      ),
    };
    return [...own, actions];
  }, [decl, isAdmin, editHref, remove.reset]);

  const defaultProject = (projects.data ?? []).find((p) => p.default)?.id as number | undefined;
  const formOpen = creating || !!editId;

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{decl.title}</Title>
          {decl.description ? <Text c="dimmed">{decl.description}</Text> : null}
        </div>
        {isAdmin ? (
          <Button component={Link} to={`?${withParam(params, 'new', '1')}`}>
            New {decl.thing}
          </Button>
        ) : (
          <Text size="sm">Only Admins and Owners change these.</Text>
        )}
      </Group>
      <Group align="flex-end">
        {decl.projectScoped ? (
          <ProjectPicker
            label="Project"
            value={project ? { id: project } : ''}
            onChange={(value) => setParam('project', pickedId(value))}
            placeholder="All projects"
            clearable
          />
        ) : null}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            update({ q: search.trim() });
          }}
        >
          <TextInput
            label="Search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            placeholder={`Search ${decl.title.toLowerCase()}`}
          />
        </form>
      </Group>
      <DataTable<Row>
        label={decl.title}
        columns={columns}
        rows={list.data?.items}
        total={list.data?.total}
        loading={list.isFetching}
        error={list.error}
        state={state}
        onState={update}
        rowId={(row) => String(row.id)}
        rowHref={isAdmin ? editHref : undefined}
        empty={
          <EmptyState title={`No ${decl.title.toLowerCase()} ${state.q || project ? 'match' : 'yet'}`}>
            {isAdmin ? `Create one with “New ${decl.thing}”.` : 'An Admin can create them.'}
          </EmptyState>
        }
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={formOpen}
        onClose={closeForm}
        title={creating ? `New ${decl.thing}` : `Edit ${decl.thing}`}
        size="lg"
      >
        {creating && decl.projectScoped && !projects.data && !projects.error ? (
          // The form starts in the default project, so it waits for the list of them.
          <Loading />
        ) : creating ? (
          <RecordForm decl={decl} mode="create" project={project ?? defaultProject} onDone={closeForm} onCancel={closeForm} />
        ) : editing.error ? (
          <ErrorAlert error={editing.error} title={`Could not read the ${decl.thing}`} />
        ) : editing.data && editing.isFetchedAfterMount ? (
          // Not a cached copy from an earlier opening: the form starts from what the API holds now.
          <RecordForm key={editing.data.id} decl={decl} mode="update" row={editing.data} onDone={closeForm} onCancel={closeForm} />
        ) : (
          <Loading />
        )}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={!!deleting} onClose={() => setDeleting(null)} title={`Delete the ${decl.thing}?`}>
        <Stack>
          <Text>{deleting ? recordName(deleting) : ''} will be deleted. This cannot be undone.</Text>
          <ErrorAlert error={remove.error} title={`Could not delete the ${decl.thing}`} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Keep it
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function withParam(params: URLSearchParams, name: string, value: string) {
  const next = new URLSearchParams(params);
  next.set(name, value);
  return next.toString();
}
