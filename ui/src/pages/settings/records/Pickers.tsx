// Pickers of other records for settings forms and tables: a project, or a record of a list (a tag
// type, an incident type, a plugin instance), only those of the chosen project when they belong to
// one. The value is what a body sends: `{id}`.
import { Select } from '@mantine/core';
import { useAll } from '../../../api/list.ts';
import { useOrganization } from '../../../api/session.ts';
import type { FilterSpec } from '../../../lib/filters.ts';
import { picked, pickedId } from './body.ts';
import type { PickerDecl, Row } from './declaration.ts';

export const projectName = (p: Row) => String(p.display_name || p.name);

/** The list engine's filter: records of `project` (if given) and the extra leaves, all of them. */
export function pickerFilter(project: number | null | undefined, leaves: Record<string, unknown>[] = []): FilterSpec | null {
  const groups = [...(project ? [{ model: 'Project', field: 'id', op: '==', value: project }] : []), ...leaves].map((leaf) => ({ or: [leaf] })) as FilterSpec[];
  return groups.length ? { and: groups } : null;
}

export function useProjects() {
  return useAll<Row>(useOrganization(), '/projects');
}

interface PickerProps {
  label: string;
  value: unknown;
  onChange: (value: { id: number } | '') => void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  description?: string;
}

/** The organization's projects. */
export function ProjectPicker(props: PickerProps & { clearable?: boolean; placeholder?: string }) {
  const projects = useProjects();
  return (
    <Select
      label={props.label}
      description={props.description}
      data={(projects.data ?? []).map((p) => ({ value: String(p.id), label: projectName(p) }))}
      value={pickedId(props.value)}
      onChange={(id) => props.onChange(picked(id))}
      error={props.error ?? (projects.error ? projects.error.message : undefined)}
      required={props.required}
      disabled={props.disabled}
      clearable={props.clearable}
      placeholder={props.placeholder ?? (projects.isLoading ? 'Loading…' : 'Pick a project')}
      searchable
    />
  );
}

/** A record of `picker.path`, narrowed to `project` when the picker's records belong to one. */
export function RecordPicker(props: PickerProps & { picker: PickerDecl; project: number | null | undefined }) {
  const { picker } = props;
  const filter = pickerFilter(picker.projectScoped ? props.project : null, picker.filter);
  const waiting = picker.projectScoped && !props.project;
  const items = useAll<Row>(useOrganization(), picker.path, filter ? { filter: JSON.stringify(filter) } : undefined);
  const label = picker.label ?? ((item: Row) => String(item.name ?? item.id));
  return (
    <Select
      label={props.label}
      description={props.description}
      data={waiting ? [] : (items.data ?? []).map((item) => ({ value: String(item.id), label: label(item) }))}
      value={pickedId(props.value)}
      onChange={(id) => props.onChange(picked(id))}
      error={props.error ?? (items.error ? items.error.message : undefined)}
      required={props.required}
      disabled={props.disabled || waiting}
      placeholder={waiting ? 'Pick the project first' : items.isLoading ? 'Loading…' : 'Pick one'}
      nothingFoundMessage="None in this project yet"
      clearable
      searchable
    />
  );
}
