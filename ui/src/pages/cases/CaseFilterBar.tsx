// The cases table's filters, kept in the URL (lib/filters.ts): a filtered view is a link.
import { Button, Checkbox, Group, MultiSelect, TagsInput, TextInput } from '@mantine/core';
import { useAll } from '../../api/list.ts';
import { type FilterValues, paramsWithValues, valuesFromParams } from '../../lib/filters.ts';
import { useNames } from './case-api.ts';
import { CASE_FILTERS } from './case-filters.ts';
import { CASE_STATUSES } from './types.ts';

interface Props {
  organization: string;
  params: URLSearchParams;
  setParams: (next: URLSearchParams) => void;
}

export function CaseFilterBar({ organization, params, setParams }: Props) {
  const values = valuesFromParams(CASE_FILTERS, params);
  const set = (key: string, list: string[]) => setParams(paramsWithValues(CASE_FILTERS, params, { ...values, [key]: list }));
  const priorities = useNames(organization, '/case_priorities');
  const severities = useNames(organization, '/case_severities');
  const types = useNames(organization, '/case_types');
  const projects = useNames(organization, '/projects');
  const people = useAll<{ email: string }>(organization, '/individuals');
  const one = (v: FilterValues, key: string) => v[key]?.[0] ?? '';
  const withChosen = (names: string[], key: string) => [...new Set([...names, ...(values[key] ?? [])])];

  return (
    <Group align="end" gap="sm" wrap="wrap">
      <MultiSelect label="Status" data={[...CASE_STATUSES]} value={values.status ?? []} onChange={(v) => set('status', v)} clearable searchable w={200} />
      <MultiSelect
        label="Priority"
        data={withChosen(priorities.names, 'priority')}
        value={values.priority ?? []}
        onChange={(v) => set('priority', v)}
        clearable
        searchable
        w={180}
      />
      <MultiSelect
        label="Severity"
        data={withChosen(severities.names, 'severity')}
        value={values.severity ?? []}
        onChange={(v) => set('severity', v)}
        clearable
        searchable
        w={180}
      />
      <MultiSelect
        label="Type"
        data={withChosen(types.names, 'type')}
        value={values.type ?? []}
        onChange={(v) => set('type', v)}
        clearable
        searchable
        w={180}
      />
      <MultiSelect
        label="Project"
        data={withChosen(projects.names, 'project')}
        value={values.project ?? []}
        onChange={(v) => set('project', v)}
        clearable
        searchable
        w={180}
      />
      <TagsInput
        label="Assignee"
        placeholder="email"
        data={(people.data ?? []).map((p) => p.email)}
        value={values.assignee ?? []}
        onChange={(v) => set('assignee', v)}
        clearable
        w={220}
      />
      <TextInput label="Reported from" type="date" value={one(values, 'from')} onChange={(e) => set('from', [e.currentTarget.value])} w={160} />
      <TextInput label="Reported until" type="date" value={one(values, 'to')} onChange={(e) => set('to', [e.currentTarget.value])} w={160} />
      <Checkbox label="Assigned to me" checked={one(values, 'mine') === '1'} onChange={(e) => set('mine', e.currentTarget.checked ? ['1'] : [])} mb={8} />
      {Object.keys(values).length ? (
        <Button variant="subtle" onClick={() => setParams(paramsWithValues(CASE_FILTERS, params, {}))}>
          Clear filters
        </Button>
      ) : null}
    </Group>
  );
}
