// Saved views of the incidents table: the current filters saved as a search filter (subject
// `incident`, its expression the list's filter JSON), listed, applied back into the URL, deleted.
import { Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { api, orgPath } from '../../api/client.ts';
import { useAll } from '../../api/list.ts';
import { ErrorAlert } from '../../components/Feedback.tsx';
import type { ProjectRef, SearchFilter } from './types.ts';

const INCIDENT_VIEWS = { filter: JSON.stringify([{ field: 'subject', op: '==', value: 'incident' }]) };

export interface SavedViewsProps {
  organization: string;
  /** The expression to save: the current filter as a list. */
  expression: unknown[];
  /** The project a new view belongs to, when the filters name exactly one. */
  projectId?: string;
  onApply: (view: SearchFilter) => void;
}

export function SavedViews({ organization, expression, projectId, onApply }: SavedViewsProps) {
  const views = useAll<SearchFilter>(organization, '/search/filters', INCIDENT_VIEWS);
  const [chosen, setChosen] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const remove = useMutation({
    mutationFn: (id: number) => api(orgPath(organization, `/search/filters/${id}`), { method: 'DELETE' }),
    onSuccess: () => setChosen(null),
  });
  const options = useMemo(() => (views.data ?? []).map((v) => ({ value: String(v.id), label: v.name })), [views.data]);
  const chosenView = views.data?.find((v) => String(v.id) === chosen);

  return (
    <Stack gap={4}>
      <Group align="end" gap="xs">
        <Select
          label="Saved view"
          placeholder={views.data?.length === 0 ? 'None saved yet' : 'Choose a view'}
          data={options}
          value={chosen}
          onChange={setChosen}
          // Every pick applies, the chosen view again too (after the filters changed).
          allowDeselect={false}
          onOptionSubmit={(id) => {
            const view = views.data?.find((v) => String(v.id) === id);
            if (view) onApply(view);
          }}
          size="xs"
          w={200}
          searchable
          nothingFoundMessage="No such view"
        />
        <Button size="xs" variant="default" onClick={() => setSaving(true)}>
          Save view
        </Button>
        <Button size="xs" variant="default" disabled={!chosenView} loading={remove.isPending} onClick={() => chosenView && remove.mutate(chosenView.id)}>
          Delete view
        </Button>
      </Group>
      <ErrorAlert error={views.error ?? remove.error} title="Saved views" />
      <SaveViewModal
        opened={saving}
        onClose={() => setSaving(false)}
        organization={organization}
        expression={expression}
        projectId={projectId}
        onSaved={(view) => {
          setSaving(false);
          setChosen(String(view.id));
        }}
      />
    </Stack>
  );
}

function SaveViewModal(props: {
  opened: boolean;
  onClose: () => void;
  organization: string;
  expression: unknown[];
  projectId?: string;
  onSaved: (view: SearchFilter) => void;
}) {
  const projects = useAll<ProjectRef & { default?: boolean }>(props.organization, '/projects');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [project, setProject] = useState<string | null>(null);
  const fallback = projects.data?.find((p) => p.default) ?? projects.data?.[0];
  const projectValue = project ?? props.projectId ?? (fallback ? String(fallback.id) : null);
  const save = useMutation({
    mutationFn: () =>
      api<SearchFilter>(orgPath(props.organization, '/search/filters'), {
        method: 'POST',
        body: {
          name: name.trim(),
          description: description.trim() || undefined,
          expression: props.expression,
          subject: 'incident',
          project: { id: Number(projectValue) },
        },
      }),
    onSuccess: (view) => {
      setName('');
      setDescription('');
      save.reset();
      props.onSaved(view);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && projectValue) save.mutate();
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Save the current filters as a view">
      <form onSubmit={onSubmit}>
        <Stack>
          <ErrorAlert error={save.error} title="Could not save the view" />
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} autosize minRows={2} />
          <Select
            label="Project"
            required
            data={(projects.data ?? []).map((p) => ({ value: String(p.id), label: p.display_name || p.name }))}
            value={projectValue}
            onChange={setProject}
          />
          <Group justify="end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!name.trim() || !projectValue}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
