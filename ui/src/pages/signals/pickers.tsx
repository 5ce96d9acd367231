// Pickers of the records a signal definition or filter names (projects, case types, filters...):
// every record of the project, named by id in the body.
import { MultiSelect, Select } from '@mantine/core';
import { useAll } from '../../api/list.ts';
import type { Named, Ref } from './types.ts';

/** Every record of `path` in the project (all of them while no project is chosen). */
export function useProjectRecords(organization: string, path: string, projectId: number | undefined) {
  return useAll<Named>(organization, path, projectId ? { filter: JSON.stringify([{ model: 'Project', field: 'id', op: '==', value: projectId }]) } : undefined);
}

const options = (records: Named[] | undefined, chosen: Ref[]) => {
  const all = new Map((records ?? []).map((r) => [r.id, r.name]));
  // A chosen record the list does not hold (another page, since renamed) stays visible.
  for (const c of chosen) if (!all.has(c.id)) all.set(c.id, c.name);
  return [...all].map(([id, name]) => ({ value: String(id), label: name }));
};

interface Common {
  label: string;
  records: Named[] | undefined;
  error?: string;
  description?: string;
  disabled?: boolean;
}

export function RefSelect(props: Common & { value: Ref | null | undefined; onChange: (value: Ref | null) => void; clearable?: boolean; required?: boolean }) {
  const data = options(props.records, props.value ? [props.value] : []);
  return (
    <Select
      label={props.label}
      description={props.description}
      data={data}
      searchable
      clearable={props.clearable ?? true}
      required={props.required}
      disabled={props.disabled}
      placeholder="None"
      value={props.value ? String(props.value.id) : null}
      onChange={(v) => props.onChange(v ? { id: Number(v), name: data.find((d) => d.value === v)?.label ?? v } : null)}
      error={props.error}
    />
  );
}

export function RefMultiSelect(props: Common & { value: Ref[]; onChange: (value: Ref[]) => void }) {
  const data = options(props.records, props.value);
  return (
    <MultiSelect
      label={props.label}
      description={props.description}
      data={data}
      searchable
      clearable
      disabled={props.disabled}
      value={props.value.map((r) => String(r.id))}
      onChange={(ids) => props.onChange(ids.map((v) => ({ id: Number(v), name: data.find((d) => d.value === v)?.label ?? v })))}
      error={props.error}
    />
  );
}
