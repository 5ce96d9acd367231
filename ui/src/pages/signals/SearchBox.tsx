// The search box of a signals list: the table's `q`, kept in the URL.
import { TextInput } from '@mantine/core';
import type { TableState } from '../../lib/table-state.ts';

export function SearchBox(props: { label: string; state: TableState; onState: (changes: Partial<TableState>) => void }) {
  return <TextInput label={props.label} type="search" value={props.state.q} onChange={(e) => props.onState({ q: e.currentTarget.value })} w={280} />;
}
