// People are picked, not typed: a type-ahead over the organization's members and its contacts.
// Someone Muster does not know is an explicit choice (“Add … (not known to Muster)”), offered only
// for a whole e-mail address, so a typo does not quietly become a participant. One set of options
// serves both pickers: several people (a report's people) and one (a role, an assignee).
import { MultiSelect, Select } from '@mantine/core';
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

/**
 * Enter takes the first match shown. Mantine highlights the first match only when the search changes,
 * so a match that arrived with the people after the typing would otherwise be shown but not taken.
 */
function enterTakesFirstMatch(event: React.KeyboardEvent<HTMLInputElement>) {
  if (event.key !== 'Enter') return;
  const list = document.getElementById(event.currentTarget.getAttribute('aria-controls') ?? '');
  if (!list || list.querySelector('[data-combobox-selected]')) return;
  const first = list.querySelector<HTMLElement>('[data-combobox-option]');
  if (!first) return;
  event.preventDefault();
  first.click();
}

export const personLabel = (p: Person) => (p.name && p.name !== p.email ? `${p.name} <${p.email}>` : p.email);

/** The choices for what was typed: the known people, the picked strangers, and the typed address when nobody has it. */
function usePersonOptions(organization: string, picked: string[]) {
  const people = usePeople(organization);
  const [search, setSearch] = useState('');
  const typed = search.trim();
  const known = new Set(people.map((p) => p.email.toLowerCase()));
  const stranger = ADDRESS.test(typed) && !known.has(typed.toLowerCase()) && !picked.includes(typed);
  const data = [
    ...people.map((p) => ({ value: p.email, label: personLabel(p) })),
    // Picked strangers stay in the list, so that they show as picked.
    ...picked.filter((v) => v && !known.has(v.toLowerCase())).map((v) => ({ value: v, label: `${v} (not known to Muster)` })),
    ...(stranger ? [{ value: typed, label: `Add ${typed} (not known to Muster)` }] : []),
  ];
  return {
    data,
    search,
    setSearch,
    nothingFoundMessage: typed ? 'Nobody known by that: type their whole e-mail address to add them' : undefined,
  };
}

export function PeoplePicker(props: { organization: string; label: string; description?: string; value: string[]; onChange: (emails: string[]) => void }) {
  const options = usePersonOptions(props.organization, props.value);
  return (
    <MultiSelect
      label={props.label}
      description={props.description}
      data={options.data}
      value={props.value}
      onChange={(emails) => {
        props.onChange(emails);
        options.setSearch('');
      }}
      searchable
      // Enter takes the best match as soon as something is typed.
      selectFirstOptionOnChange
      searchValue={options.search}
      onSearchChange={options.setSearch}
      nothingFoundMessage={options.nothingFoundMessage}
      onKeyDown={enterTakesFirstMatch}
      placeholder={props.value.length ? undefined : 'Type a name or an address'}
    />
  );
}

/** One person: a role's holder, an assignee, a reporter. `value` is an address or ''. */
export function PersonPicker(props: {
  organization: string;
  label: string;
  value: string;
  onChange: (email: string) => void;
  autoFocus?: boolean;
  clearable?: boolean;
  error?: string | null;
  size?: 'xs' | 'sm';
  onKeyDown?: (event: React.KeyboardEvent) => void;
}) {
  const options = usePersonOptions(props.organization, props.value ? [props.value] : []);
  return (
    <Select
      label={props.label}
      size={props.size}
      data={options.data}
      value={props.value || null}
      onChange={(email) => props.onChange(email ?? '')}
      searchable
      selectFirstOptionOnChange
      searchValue={options.search}
      onSearchChange={options.setSearch}
      nothingFoundMessage={options.nothingFoundMessage}
      placeholder="Type a name or an address"
      autoFocus={props.autoFocus}
      clearable={props.clearable}
      error={props.error}
      onKeyDown={(event) => {
        enterTakesFirstMatch(event);
        props.onKeyDown?.(event);
      }}
    />
  );
}
