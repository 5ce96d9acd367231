// Picks cases or incidents by searching their list (`q`, server side); what is already chosen stays
// among the options with its name, so a link to a record the search does not find can be kept.
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useList } from '../../api/list.ts';

export interface PickedRecord {
  id: number;
  name?: string | null;
  title?: string;
}

const labelOf = (r: PickedRecord) => `${r.name ?? r.id}${r.title ? `: ${r.title}` : ''}`;

interface Props {
  organization: string;
  /** `/cases` or `/incidents`. */
  path: string;
  label: string;
  value: PickedRecord[];
  onChange: (records: PickedRecord[]) => void;
  /** A record not to offer (the case itself). */
  exclude?: number;
}

export function RecordsPicker({ organization, path, label, value, onChange, exclude }: Props) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const found = useList<PickedRecord>(organization, path, { q: q || undefined, itemsPerPage: 20, include: ['id', 'name', 'title'] }, { live: false });
  const known = new Map<number, PickedRecord>();
  for (const r of [...value, ...(found.data?.items ?? [])]) if (r.id !== exclude && !known.has(r.id)) known.set(r.id, r);
  return (
    <MultiSelect
      label={label}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={found.isFetching ? 'Searching…' : 'Nothing found'}
      data={[...known.values()].map((r) => ({ value: String(r.id), label: labelOf(r) }))}
      value={value.map((r) => String(r.id))}
      onChange={(ids) => onChange(ids.map((id) => known.get(Number(id)) ?? { id: Number(id) }))}
      clearable
    />
  );
}
