// The filter controls of the incidents table. The values live in the URL (one parameter per filter,
// repeated for several values), so a filtered table is a link; pickers offer what the API holds.
import { Badge, Button, Checkbox, CloseButton, Group, MultiSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useAll } from '../../api/list.ts';
import type { FilterValues } from '../../lib/filters.ts';
import { INCIDENT_STATUSES } from './incident-filters.ts';
import type { Assessment, ProjectRef, Tag } from './types.ts';

export interface IncidentFiltersProps {
  organization: string;
  values: FilterValues;
  onValues: (values: FilterValues) => void;
  q: string;
  onQ: (q: string) => void;
  /** A saved view's expression applied as it is, shown as one removable chip. */
  expression: unknown[] | null;
  onClearExpression: () => void;
  onClearAll: () => void;
}

/** Names once each, sorted: priorities, severities and types are per project and share names. */
const distinctNames = (items: { name: string }[] | undefined) => [...new Set((items ?? []).map((i) => i.name))].sort((a, b) => a.localeCompare(b));

export function IncidentFilters(props: IncidentFiltersProps) {
  const { organization, values, onValues } = props;
  const priorities = useAll<Assessment>(organization, '/incident_priorities');
  const severities = useAll<Assessment>(organization, '/incident_severities');
  const types = useAll<Assessment>(organization, '/incident_types');
  const projects = useAll<ProjectRef>(organization, '/projects');
  const tags = useAll<Tag>(organization, '/tags');

  const projectOptions = useMemo(() => (projects.data ?? []).map((p) => ({ value: String(p.id), label: p.display_name || p.name })), [projects.data]);
  const tagOptions = useMemo(
    () => (tags.data ?? []).map((t) => ({ value: String(t.id), label: t.tag_type ? `${t.tag_type.name}: ${t.name}` : t.name })),
    [tags.data],
  );

  // The pickers stay folded until asked for or in use, so the table keeps the screen.
  const active = Object.entries(values).filter(([key, v]) => key !== 'mine' && v?.length).length;
  const [open, setOpen] = useState(false);
  const shown = open || active > 0;
  const set = (key: string, next: string[]) => onValues({ ...values, [key]: next });
  const one = (key: string) => values[key]?.[0] ?? '';
  const picker = (key: string, label: string, data: string[] | { value: string; label: string }[], loading = false) => (
    <MultiSelect
      key={key}
      label={label}
      data={data}
      value={values[key] ?? []}
      onChange={(next) => set(key, next)}
      placeholder={loading ? 'Loading…' : 'Any'}
      searchable
      clearable
      size="xs"
      nothingFoundMessage="None"
    />
  );

  return (
    <search aria-label="Filter incidents">
      <Group align="end" gap="sm" mb="xs">
        <SearchBox q={props.q} onQ={props.onQ} />
        <Checkbox label="Only incidents I take part in" checked={one('mine') === '1'} onChange={(e) => set('mine', e.currentTarget.checked ? ['1'] : [])} />
        {props.expression ? (
          <Badge
            variant="light"
            size="lg"
            rightSection={<CloseButton size="xs" aria-label="Remove the saved view's filter" onClick={props.onClearExpression} />}
          >
            Saved view filter
          </Badge>
        ) : null}
        <Button variant="default" size="xs" aria-expanded={shown} aria-controls="incident-filters" onClick={() => setOpen(!shown)}>
          {active ? `Filters (${active})` : 'Filters'}
        </Button>
        <Button variant="subtle" size="xs" onClick={props.onClearAll}>
          Clear filters
        </Button>
      </Group>
      {shown ? (
        <SimpleGrid id="incident-filters" cols={{ base: 2, sm: 3, lg: 6 }} spacing="xs" mb="md">
          {picker('status', 'Status', INCIDENT_STATUSES)}
          {picker('priority', 'Priority', distinctNames(priorities.data), priorities.isLoading)}
          {picker('severity', 'Severity', distinctNames(severities.data), severities.isLoading)}
          {picker('type', 'Type', distinctNames(types.data), types.isLoading)}
          {picker('project', 'Project', projectOptions, projects.isLoading)}
          {picker('tag', 'Tag', tagOptions, tags.isLoading)}
          <CommittedInput label="Participant or commander (email)" type="email" value={one('participant')} onCommit={(v) => set('participant', v ? [v] : [])} />
          <TextInput
            label="Reported from"
            type="date"
            size="xs"
            value={one('from')}
            onChange={(e) => set('from', e.currentTarget.value ? [e.currentTarget.value] : [])}
          />
          <TextInput
            label="Reported until"
            type="date"
            size="xs"
            value={one('to')}
            onChange={(e) => set('to', e.currentTarget.value ? [e.currentTarget.value] : [])}
          />
        </SimpleGrid>
      ) : null}
    </search>
  );
}

/** The text search (`q`): applied as one types, after a pause. */
function SearchBox({ q, onQ }: { q: string; onQ: (q: string) => void }) {
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  const commit = useDebouncedCallback((value: string) => onQ(value.trim()), 400);
  return (
    <TextInput
      label="Search incidents"
      placeholder="Title, description, name…"
      size="xs"
      w={280}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        commit(e.currentTarget.value);
      }}
    />
  );
}

/** A text filter applied on Enter or when the field is left, not at every key. */
function CommittedInput(props: { label: string; type?: string; value: string; onCommit: (value: string) => void }) {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  const commit = () => text.trim() !== props.value && props.onCommit(text.trim());
  return (
    <form
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        commit();
      }}
    >
      <TextInput label={props.label} type={props.type} size="xs" value={text} onChange={(e) => setText(e.currentTarget.value)} onBlur={commit} />
    </form>
  );
}
