// Picks an incident by name, searching the API as one types.
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useList } from '../../api/list.ts';

interface IncidentLite {
  id: number;
  name: string | null;
  title: string;
}

export function IncidentPicker(props: { organization: string; value: string | null; onChange: (name: string | null) => void }) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 300);
  // Search words the API takes (printable ASCII); an empty search lists the newest.
  const text = q.replace(/[^ -~]/g, '').trim();
  const list = useList<IncidentLite>(
    props.organization,
    '/incidents',
    { itemsPerPage: 20, q: text || undefined, sortBy: text ? undefined : 'reported_at', descending: true, include: ['id', 'name', 'title'] },
    { live: false },
  );
  const data = (list.data?.items ?? []).filter((i) => i.name).map((i) => ({ value: i.name!, label: `${i.name} ${i.title}` }));
  if (props.value && !data.some((d) => d.value === props.value)) data.unshift({ value: props.value, label: props.value });
  return (
    <Select
      label="Incident"
      placeholder="Any"
      searchable
      clearable
      data={data}
      value={props.value}
      onChange={props.onChange}
      onSearchChange={setSearch}
      searchValue={search}
      nothingFoundMessage={list.isFetching ? 'Searching…' : 'No incident found'}
      filter={({ options }) => options}
      w={300}
    />
  );
}
