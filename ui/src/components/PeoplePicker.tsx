// People are picked, not typed: a type-ahead over the organization's members and its contacts.
// Someone Muster does not know is an explicit choice (“Add … (not known to Muster)”), offered only
// for a whole e-mail address, so a typo does not quietly become a participant.
import { MultiSelect } from '@mantine/core';
import { useState } from 'react';
import { useAll } from '../api/list.ts';

type Person = { email: string; name?: string | null };

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The people the organization knows: its members and its contacts, one entry per address. */
export function usePeople(organization: string) {
  const users = useAll<Person>(organization, '/users');
  const contacts = useAll<Person>(organization, '/individuals');
  const byEmail = new Map<string, Person>();
  for (const p of [...(contacts.data ?? []), ...(users.data ?? [])]) {
    const key = p.email.toLowerCase();
    if (!byEmail.get(key)?.name) byEmail.set(key, p);
  }
  return [...byEmail.values()].sort((a, b) => a.email.localeCompare(b.email));
}

export const personLabel = (p: Person) => (p.name && p.name !== p.email ? `${p.name} <${p.email}>` : p.email);

export function PeoplePicker(props: { organization: string; label: string; description?: string; value: string[]; onChange: (emails: string[]) => void }) {
  const people = usePeople(props.organization);
  const [search, setSearch] = useState('');
  const typed = search.trim();
  const known = new Set(people.map((p) => p.email.toLowerCase()));
  const stranger = ADDRESS.test(typed) && !known.has(typed.toLowerCase()) && !props.value.includes(typed);
  const data = [
    ...people.map((p) => ({ value: p.email, label: personLabel(p) })),
    // Picked strangers stay in the list, so that they show as picked.
    ...props.value.filter((v) => !known.has(v.toLowerCase())).map((v) => ({ value: v, label: `${v} (not known to Muster)` })),
    ...(stranger ? [{ value: typed, label: `Add ${typed} (not known to Muster)` }] : []),
  ];
  return (
    <MultiSelect
      label={props.label}
      description={props.description}
      data={data}
      value={props.value}
      onChange={(emails) => {
        props.onChange(emails);
        setSearch('');
      }}
      searchable
      // Enter takes the best match as soon as something is typed.
      selectFirstOptionOnChange
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={typed ? 'Nobody known by that: type their whole e-mail address to add them' : undefined}
      placeholder={props.value.length ? undefined : 'Type a name or an address'}
    />
  );
}
