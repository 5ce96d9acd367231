// Plugins: the installation's catalogue, and each project's instances of them. An Admin installs a
// plugin in a project (a new instance), enables or disables an instance (the API keeps one enabled
// instance per type and project), configures it through a form made from the plugin's schema, and
// removes it. Secrets are never shown: the API masks them, and a mask sent back keeps the secret.
import { Anchor, Button, Group, Modal, NumberInput, PasswordInput, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, orgPath } from '../../api/client.ts';
import { useAll, useList, useRecord } from '../../api/list.ts';
import { useOrganization, useSession } from '../../api/session.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { EmptyState, ErrorAlert, Loading } from '../../components/Feedback.tsx';
import { useTableState } from '../../lib/table-state.ts';
import { type ConfigField, type ConfigValues, configBody, configFields, configValues, MASK } from './plugin-config.ts';
import { pickedId } from './records/body.ts';
import { ProjectPicker, pickerFilter, projectName } from './records/Pickers.tsx';

interface Plugin {
  id: number;
  title: string;
  slug: string;
  type: string;
  author: string;
  description?: string | null;
  configuration_schema?: unknown;
}
interface Instance {
  id: number;
  enabled: boolean;
  configuration?: Record<string, unknown> | null;
  configuration_schema?: unknown;
  plugin: Plugin;
  project?: { id: number; name: string; display_name?: string } | null;
}

/** The inputs of a configuration. */
function ConfigInputs({ fields, values, onChange }: { fields: ConfigField[]; values: ConfigValues; onChange: (values: ConfigValues) => void }) {
  if (fields.length === 0) return <Text size="sm">This plugin takes no configuration.</Text>;
  return (
    <>
      {fields.map((f) => (
        <ConfigInput key={f.name} field={f} value={values[f.name]} onChange={(value) => onChange({ ...values, [f.name]: value })} />
      ))}
    </>
  );
}

function ConfigInput({ field: f, value, onChange }: { field: ConfigField; value: unknown; onChange: (value: unknown) => void }) {
  const common = { label: f.label, description: f.description, required: f.required };
  switch (f.kind) {
    case 'secret':
      return (
        <PasswordInput
          {...common}
          description={value === MASK ? `${f.description ? `${f.description}. ` : ''}Stored; leave as is to keep it.` : f.description}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.currentTarget.value)}
          autoComplete="new-password"
          visibilityToggleButtonProps={{ 'aria-label': `Show or hide ${f.label}` }}
        />
      );
    case 'bool':
      return <Switch {...common} required={false} checked={Boolean(value)} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'number':
      return <NumberInput {...common} value={value as number | string} onChange={onChange} />;
    case 'select':
      return <Select {...common} data={f.options ?? []} value={(value as string) || null} onChange={(v) => onChange(v ?? '')} clearable />;
    case 'json':
      return <Textarea {...common} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} autosize minRows={3} ff="monospace" />;
    default:
      return <TextInput {...common} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}

/** Configure (and enable) one instance: read with its masked configuration, sent back whole. */
function ConfigureForm({ id, onDone }: { id: number; onDone: () => void }) {
  const organization = useOrganization();
  const instance = useRecord<Instance>(organization, `/plugins/instances/${id}`, { live: false });
  if (instance.error) return <ErrorAlert error={instance.error} title="The instance could not be read" />;
  // Not a cached copy from an earlier opening: the form starts from what the API holds now.
  if (!instance.data || !instance.isFetchedAfterMount) return <Loading />;
  return <ConfigureLoaded instance={instance.data} onDone={onDone} />;
}

function ConfigureLoaded({ instance, onDone }: { instance: Instance; onDone: () => void }) {
  const organization = useOrganization();
  const fields = useMemo(() => configFields(instance.configuration_schema ?? instance.plugin.configuration_schema), [instance]);
  const [values, setValues] = useState(() => configValues(fields, instance.configuration));
  const [enabled, setEnabled] = useState(instance.enabled);
  const save = useMutation({
    mutationFn: () =>
      api<Instance>(orgPath(organization, `/plugins/instances/${instance.id}`), {
        method: 'PUT',
        body: { enabled, configuration: configBody(fields, values) },
      }),
    onSuccess: onDone,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={onSubmit}>
      <Stack>
        <Text size="sm">
          {instance.plugin.title} in {instance.project ? projectName(instance.project as never) : 'no project'}
        </Text>
        <ErrorAlert error={save.error} title="The configuration was not saved" />
        <ConfigInputs fields={fields} values={values} onChange={setValues} />
        <Switch
          label="Enabled"
          description="Enabling disables the project's other instance of this type"
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A new instance of a catalogue plugin in a project. */
function InstallForm({ pluginId, project, onDone }: { pluginId: number | null; project: number | null; onDone: () => void }) {
  const organization = useOrganization();
  const catalogue = useAll<Plugin>(organization, '/plugins');
  const [chosen, setChosen] = useState<string | null>(pluginId ? String(pluginId) : null);
  const [projectRef, setProjectRef] = useState<unknown>(project ? { id: project } : '');
  const plugin = catalogue.data?.find((p) => String(p.id) === chosen);
  const fields = useMemo(() => configFields(plugin?.configuration_schema), [plugin]);
  const [values, setValues] = useState<ConfigValues>({});
  const [enabled, setEnabled] = useState(false);
  const install = useMutation({
    mutationFn: () =>
      api<Instance>(orgPath(organization, '/plugins/instances'), {
        method: 'POST',
        body: { plugin: { id: Number(chosen) }, project: projectRef || {}, enabled, configuration: configBody(fields, values) },
      }),
    onSuccess: onDone,
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        install.mutate();
      }}
    >
      <Stack>
        <ErrorAlert error={install.error} title="The plugin was not installed" />
        <Select
          label="Plugin"
          data={(catalogue.data ?? []).map((p) => ({ value: String(p.id), label: `${p.title} (${p.type})` }))}
          value={chosen}
          onChange={(v) => {
            setChosen(v);
            const next = catalogue.data?.find((p) => String(p.id) === v);
            setValues(configValues(configFields(next?.configuration_schema), null));
          }}
          searchable
          required
        />
        <ProjectPicker label="Project" value={projectRef} onChange={setProjectRef} required />
        {plugin ? <ConfigInputs fields={fields} values={values} onChange={setValues} /> : null}
        <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={install.isPending} disabled={!chosen}>
            Install
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Catalogue({ onInstall }: { onInstall: (plugin: Plugin) => void }) {
  const organization = useOrganization();
  const { isAdmin } = useSession();
  const [page, setPage] = useState({ page: 1, size: 10, sort: 'title' as string | undefined, desc: false, q: '' });
  const list = useList<Plugin>(organization, '/plugins', { page: page.page, itemsPerPage: page.size, sortBy: page.sort, descending: page.desc });
  const columns = useMemo<ColumnDef<Plugin, unknown>[]>(
    () => [
      { id: 'title', header: 'Plugin', enableSorting: true, cell: ({ row }) => row.original.title },
      { id: 'slug', header: 'Slug', enableSorting: true, cell: ({ row }) => row.original.slug },
      { id: 'type', header: 'Type', enableSorting: true, cell: ({ row }) => row.original.type },
      { id: 'description', header: 'Description', enableSorting: false, cell: ({ row }) => row.original.description ?? '-' },
      ...(isAdmin
        ? [
            {
              id: '_install',
              header: 'Actions',
              enableSorting: false,
              cell: ({ row }) => (
                <Button size="compact-xs" variant="light" onClick={() => onInstall(row.original)} aria-label={`Install ${row.original.title}`}>
                  Install
                </Button>
              ),
            } satisfies ColumnDef<Plugin, unknown>,
          ]
        : []),
    ],
    [isAdmin, onInstall],
  );
  return (
    <DataTable<Plugin>
      label="Plugin catalogue"
      columns={columns}
      rows={list.data?.items}
      total={list.data?.total}
      loading={list.isFetching}
      error={list.error}
      state={page}
      onState={(changes) => setPage((p) => ({ ...p, page: 1, ...changes }))}
      rowId={(row) => String(row.id)}
      empty={<EmptyState title="No plugins in the catalogue">`muster plugins install` adds the loaded plugins.</EmptyState>}
    />
  );
}

export function PluginsSection() {
  const organization = useOrganization();
  const { isAdmin } = useSession();
  const { state, update, params } = useTableState({ sort: 'id' });
  const [, setParams] = useSearchParams();
  const project = Number(params.get('project')) || null;
  const configuring = Number(params.get('configure')) || null;
  const [installing, setInstalling] = useState<{ plugin: number | null } | null>(null);
  const [removing, setRemoving] = useState<Instance | null>(null);
  const list = useList<Instance>(organization, '/plugins/instances', {
    page: state.page,
    itemsPerPage: state.size,
    sortBy: state.sort,
    descending: state.desc,
    q: state.q || undefined,
    filter: pickerFilter(project),
  });
  const toggle = useMutation({
    mutationFn: (instance: Instance) =>
      api<Instance>(orgPath(organization, `/plugins/instances/${instance.id}`), { method: 'PUT', body: { enabled: !instance.enabled } }),
  });
  const remove = useMutation({
    mutationFn: (instance: Instance) => api(orgPath(organization, `/plugins/instances/${instance.id}`), { method: 'DELETE' }),
    onSuccess: () => setRemoving(null),
  });
  const setParam = (name: string, value: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(name, value);
      else next.delete(name);
      if (name === 'project') next.delete('page');
      return next;
    });
  const configureHref = (instance: Instance) => {
    const next = new URLSearchParams(params);
    next.set('configure', String(instance.id));
    return `?${next}`;
  };

  const columns: ColumnDef<Instance, unknown>[] = [
    {
      id: 'plugin',
      header: 'Plugin',
      enableSorting: false,
      cell: ({ row }) =>
        isAdmin ? (
          <Anchor
            component={Link}
            to={configureHref(row.original)}
            aria-label={`Configure ${row.original.plugin.title} in ${row.original.project?.name ?? 'no project'}`}
          >
            {row.original.plugin.title}
          </Anchor>
        ) : (
          row.original.plugin.title
        ),
    },
    { id: 'plugin_type', header: 'Type', enableSorting: true, cell: ({ row }) => row.original.plugin.type },
    { id: 'project', header: 'Project', enableSorting: false, cell: ({ row }) => (row.original.project ? projectName(row.original.project as never) : '-') },
    {
      id: 'enabled',
      header: 'Enabled',
      enableSorting: true,
      cell: ({ row }) => (
        <Switch
          aria-label={`Enable ${row.original.plugin.title} in ${row.original.project?.name ?? 'no project'}`}
          checked={row.original.enabled}
          disabled={!isAdmin || (toggle.isPending && toggle.variables?.id === row.original.id)}
          onChange={() => toggle.mutate(row.original)}
        />
      ),
    },
    ...(isAdmin
      ? [
          {
            id: '_actions',
            header: 'Actions',
            enableSorting: false,
            cell: ({ row }) => (
              <Group gap={4} wrap="nowrap">
                <Button component={Link} to={configureHref(row.original)} size="compact-xs" variant="light">
                  Configure
                </Button>
                <Button
                  size="compact-xs"
                  variant="light"
                  color="red"
                  onClick={() => {
                    remove.reset();
                    setRemoving(row.original);
                  }}
                  aria-label={`Remove ${row.original.plugin.title} from ${row.original.project?.name ?? 'no project'}`}
                >
                  Remove
                </Button>
              </Group>
            ),
          } satisfies ColumnDef<Instance, unknown>,
        ]
      : []),
  ];

  return (
    <Stack gap="xl">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Plugins</Title>
          <Text c="dimmed">Each project's instances of the catalogue's plugins; one enabled instance per type and project.</Text>
        </div>
        {isAdmin ? (
          <Button onClick={() => setInstalling({ plugin: null })}>Install a plugin</Button>
        ) : (
          <Text size="sm">Only Admins and Owners change plugins.</Text>
        )}
      </Group>
      <section aria-labelledby="instances-heading">
        <Title order={2} id="instances-heading" size="h3" mb="sm">
          Instances
        </Title>
        <Stack>
          <Group align="flex-end">
            <ProjectPicker
              label="Project"
              value={project ? { id: project } : ''}
              onChange={(v) => setParam('project', pickedId(v))}
              placeholder="All projects"
              clearable
            />
          </Group>
          <ErrorAlert error={toggle.error} title="The instance was not changed" />
          <DataTable<Instance>
            label="Plugin instances"
            columns={columns}
            rows={list.data?.items}
            total={list.data?.total}
            loading={list.isFetching}
            error={list.error}
            state={state}
            onState={update}
            rowId={(row) => String(row.id)}
            empty={<EmptyState title="No instances">Install a plugin from the catalogue below.</EmptyState>}
          />
        </Stack>
      </section>
      <section aria-labelledby="catalogue-heading">
        <Title order={2} id="catalogue-heading" size="h3" mb="sm">
          Catalogue
        </Title>
        <Catalogue onInstall={(plugin) => setInstalling({ plugin: plugin.id })} />
      </section>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={!!configuring}
        onClose={() => setParam('configure', null)}
        title="Configure the plugin"
        size="lg"
      >
        {configuring ? <ConfigureForm id={configuring} onDone={() => setParam('configure', null)} /> : null}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={!!installing} onClose={() => setInstalling(null)} title="Install a plugin" size="lg">
        {installing ? <InstallForm pluginId={installing.plugin} project={project} onDone={() => setInstalling(null)} /> : null}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={!!removing} onClose={() => setRemoving(null)} title="Remove the instance?">
        <Stack>
          <Text>
            {removing?.plugin.title} will be removed from {removing?.project?.name ?? 'its project'}, with the workflows that run through it.
          </Text>
          <ErrorAlert error={remove.error} title="The instance was not removed" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(null)}>
              Keep it
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => removing && remove.mutate(removing)}>
              Remove
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
